// The hall's screen: the panel is fetched again every few seconds without reloading the page,
// so the screen never flashes white, and when the network drops it keeps the last standings.
// Lists longer than one screen come as slides (the leaders ten at a time, each category's top
// three, the teams): one shows at a time, the next after a few seconds, in turn; a refresh
// keeps the slide that was showing. When a refresh fails the screen keeps its standings and
// says since when ("Last updated 7:42 PM (2 min ago): reconnecting"), trying again every few
// seconds; the line goes once a refresh is answered.
(function () {
  "use strict";
  var box = document.getElementById("projector");
  if (!box) return;
  var url = box.getAttribute("data-panel");
  var every = parseInt(box.getAttribute("data-every"), 10) || 15;
  var slideSeconds = parseInt(box.getAttribute("data-slide-seconds"), 10) || 10;
  var shown = 0;
  box.classList.add("paging");
  function show() {
    var slides = box.querySelectorAll(".hall-slide");
    if (!slides.length) return;
    shown = shown % slides.length;
    slides.forEach(function (slide, index) { slide.hidden = index !== shown; });
  }
  var stale = document.getElementById("projector-stale");
  var answeredAt = Date.now();
  function updated() {
    var said = box.querySelector("[data-updated]");
    return said ? said.getAttribute("data-updated") : "";
  }
  function sayStale() {
    if (!stale) return;
    var minutes = Math.floor((Date.now() - answeredAt) / 60000);
    var ago = minutes < 1 ? "just now" : minutes + " min ago";
    stale.textContent = "Last updated " + updated() + " (" + ago + "): reconnecting";
    stale.hidden = false;
  }
  function refresh() {
    fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { sayStale(); return; }
        box.innerHTML = html;
        show();
        answeredAt = Date.now();
        if (stale) stale.hidden = true;
      })
      .catch(sayStale); // keep what is shown, and say since when
  }
  show();
  setInterval(function () { shown += 1; show(); }, slideSeconds * 1000);
  setInterval(refresh, every * 1000);
})();
