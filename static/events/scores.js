// The scoring table: as the table number is typed, show who sits there (names and numbers, in
// seat order) as the labels of the score boxes, and hide the boxes of seats the table does not
// have, so a wrong table is obvious and Tab goes straight from one score to the next. The
// seating shown goes back with the card (the hidden "seen" field): if the round is paired again
// meanwhile, the card is refused instead of landing on the new players. After a re-pairing of a
// printed round each seat's row also asks for the player number written on the card.
(function () {
  "use strict";
  var data = document.getElementById("seating");
  var form = document.getElementById("card-form");
  if (!data || !form) return;
  var seating = JSON.parse(data.textContent);
  var table = form.querySelector("input[name=table]");
  var seen = form.querySelector("input[name=seen]");
  var said = document.getElementById("seated");
  var rows = form.querySelectorAll(".score-row");
  function show() {
    var entry = seating[String(parseInt(table.value, 10))];
    rows.forEach(function (row) {
      var seat = parseInt(row.getAttribute("data-seat"), 10);
      var label = row.querySelector("label[for$=score_" + seat + "]");
      var person = entry && entry.seats[seat - 1];
      row.hidden = entry ? !person : seat > 2;
      row.querySelectorAll("input").forEach(function (input) {
        input.disabled = row.hidden;
      });
      label.textContent = person
        ? "Seat " + seat + ": " + person.name + " (" + person.number + ")"
        : "Seat " + seat + " score";
    });
    seen.value = entry
      ? entry.seats.map(function (person) { return person.id; }).join(",")
      : "";
    if (!table.value) { said.textContent = ""; return; }
    if (!entry) { said.textContent = "No table " + table.value + " this round."; return; }
    // A card that came back with an error says what to do about it there: this line then only
    // counts the seats, so the page gives one message, not two.
    var returned = form.getAttribute("data-returned-table") === table.value;
    if (!entry.scores || returned) { said.textContent = entry.seats.length + " seats."; return; }
    said.textContent = "Already entered: " + entry.scores.join("–") + ". " + (
      form.getAttribute("data-director") === "true"
        ? "To replace it, give the reason under “How it ended, or a correction”."
        : "Only the director can replace it: call them over if this card differs."
    );
  }
  table.addEventListener("input", show);
  show();
})();
