// The scoring table when the hall's Wi-Fi drops (issue 52). The page registers the service
// worker that keeps it loadable offline, and every card typed while offline (or while earlier
// cards still wait) is checked as far as the page can (the table is in this round, one score
// per seat within the Scrabble range, the players as shown), kept on this device
// (card-store.js) and listed as waiting. Once the server answers again the cards are sent, one
// at a time and in the order typed; each carries the key it got when typed, so a card sent
// twice counts once. A card the server refuses stays listed with its reason until the volunteer
// dismisses it. Without script the page posts its form as it always did.
(function () {
  "use strict";
  var form = document.getElementById("card-form");
  var box = document.getElementById("offline-cards");
  var store = self.CardStore;
  if (!form || !box || !store || !("indexedDB" in window)) return;
  var seating = JSON.parse(document.getElementById("seating").textContent);
  var user = box.getAttribute("data-user");
  var pageUrl = location.origin + location.pathname;
  var count = box.querySelector("[data-testid=cards-waiting]");
  var state = box.querySelector("[data-testid=cards-state]");
  var waitingList = box.querySelector("[data-testid=waiting-list]");
  var refusedList = box.querySelector("[data-testid=refused-list]");
  var problem = document.getElementById("card-problem");
  var table = form.querySelector("input[name=table]");
  var signIn = box.querySelector("[data-testid=sign-in-again]");
  var signedOut = false;
  var waiting = 0;
  var sending = false;
  var stopped = "";

  var device = localStorage.getItem("scoring-device");
  if (!device) {
    device = store.key().slice(0, 8);
    localStorage.setItem("scoring-device", device);
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(box.getAttribute("data-worker"), { scope: "/" }).then(
      function () {
        // Before the worker controls a page, keep this one as the worker would have.
        if (!navigator.serviceWorker.controller && navigator.onLine) {
          caches.open(store.PAGES).then(function (cache) { return cache.add(pageUrl); });
        }
      },
      function () { /* no worker: the page still keeps its cards while it stays open */ }
    );
  }

  function hidden(name, value) {
    var input = form.querySelector("input[type=hidden][name=" + name + "]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }

  // Each card gets its key as it is sent off, by the form or by the list.
  function stamp() {
    hidden("key", store.key());
    hidden("device", device);
    hidden("typed_at", String(Date.now()));
    hidden("typed_by", user);
  }

  function scoresOf(fields) {
    var scores = [];
    for (var seat = 1; seat <= 4; seat += 1) {
      if (fields["score_" + seat]) scores.push(fields["score_" + seat]);
    }
    return scores.join("–");
  }

  function clock(ms) {
    return new Date(ms).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  }

  function item(list, words, card) {
    var li = document.createElement("li");
    li.textContent = words;
    if (card) {
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "link-button";
      dismiss.textContent = "Dismiss";
      dismiss.addEventListener("click", function () { store.remove(card.key).then(render); });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(dismiss);
    }
    list.appendChild(li);
  }

  function render() {
    return store.all().then(function (cards) {
      var mine = cards.filter(function (card) { return card.user === user && !card.kind; });
      var others = cards.filter(function (card) { return !card.kind; }).length - mine.length;
      var refused = mine.filter(function (card) { return card.state === "refused"; });
      var held = mine.filter(function (card) { return card.state === "waiting"; });
      waiting = held.length;
      waitingList.textContent = "";
      refusedList.textContent = "";
      held.forEach(function (card) {
        item(waitingList, "Table " + card.fields.table + ": " + scoresOf(card.fields) +
          ", typed " + clock(card.typedAt));
      });
      refused.forEach(function (card) {
        item(refusedList, "Table " + card.fields.table + ": " + scoresOf(card.fields) +
          " was not entered. " + card.reason, card);
      });
      count.textContent = waiting || !refused.length
        ? (waiting === 1 ? "1 card waiting to send" : waiting + " cards waiting to send")
        : (refused.length === 1 ? "1 card not entered" : refused.length + " cards not entered");
      var words = stopped;
      if (!words && waiting) {
        words = navigator.onLine && !sending
          ? "The server cannot be reached: they are sent when it answers again."
          : sending ? "Sending…" : "Offline: they are sent when the connection is back.";
      }
      if (others) {
        words += (words ? " " : "") + others + (others === 1 ? " card" : " cards") +
          " typed under another sign-in wait on this device for it.";
      }
      state.textContent = words;
      signIn.hidden = !signedOut;
      box.hidden = !(waiting || refused.length || others || stopped);
    });
  }

  // What the page can check without the server: None, or what is wrong.
  function check() {
    var entry = seating[String(parseInt(table.value, 10))];
    if (!table.value) return "Type the table number.";
    if (!entry) return "Round has no table " + table.value + ": check the card.";
    if (entry.scores) return "Table " + table.value + " already has a result: enter it when the connection is back.";
    for (var seat = 1; seat <= entry.seats.length; seat += 1) {
      var input = form.querySelector("input[name=score_" + seat + "]");
      var value = input ? input.value.trim() : "";
      var number = Number(value);
      if (!/^-?\d+$/.test(value) || number < -100 || number > 1500) {
        return "Seat " + seat + ": type a score between -100 and 1500.";
      }
      var typed = form.querySelector("input[name=number_" + seat + "]");
      if (typed && String(entry.seats[seat - 1].number) !== typed.value.trim() &&
          !entry.seats.some(function (person) { return String(person.number) === typed.value.trim(); })) {
        return "Seat " + seat + ": player " + typed.value + " does not sit at table " + table.value + ".";
      }
    }
    return "";
  }

  function keep() {
    var card = store.fromForm(new FormData(form), pageUrl);
    return store.put(card).then(function () {
      form.querySelectorAll("input[type=number]").forEach(function (input) { input.value = ""; });
      table.dispatchEvent(new Event("input"));
      table.focus();
      problem.textContent = "Kept on this device: table " + card.fields.table + ".";
      return render();
    });
  }

  form.addEventListener("submit", function (event) {
    stamp();
    if (navigator.onLine && !waiting && !stopped) return; // the worker keeps it if the post fails
    event.preventDefault();
    var wrong = check();
    if (wrong) { problem.textContent = wrong; return; }
    keep();
  });

  function csrf() {
    var found = document.cookie.split("; ").filter(function (pair) {
      return pair.indexOf("csrftoken=") === 0;
    })[0];
    return found ? found.slice("csrftoken=".length) : form.querySelector("[name=csrfmiddlewaretoken]").value;
  }

  // One card: true to go on with the next, false to stop until later.
  function sendOne(card) {
    var body = new FormData();
    Object.keys(card.fields).forEach(function (name) { body.append(name, card.fields[name]); });
    body.append("key", card.key);
    body.append("device", card.device);
    body.append("typed_at", String(card.typedAt));
    return fetch(card.sendTo, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": csrf() }
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (response.status === 401) { stopped = answer.reason; signedOut = true; return false; }
        if (answer.gone) {
          stopped = answer.reason;
          var event = card.pageUrl.replace(/rounds\/\d+\/scores\/$/, "");
          return store.forget(event).then(function () {
            return caches.open(store.PAGES);
          }).then(function (cache) { return cache.delete(card.pageUrl); }).then(function () {
            return false;
          });
        }
        problem.textContent = "";
        if (answer.outcome === "counted" || answer.outcome === "same") {
          return store.remove(card.key).then(function () { return true; });
        }
        card.state = "refused";
        card.reason = answer.reason;
        return store.put(card).then(function () { return true; });
      });
    }).catch(function () { return false; });
  }

  function sendAll() {
    if (sending) return;
    sending = true;
    stopped = "";
    signedOut = false;
    store.all().then(function (cards) {
      var mine = cards.filter(function (card) { return card.user === user && !card.kind && card.state === "waiting"; });
      return mine.reduce(function (going, card) {
        return going.then(function (onward) { return onward && sendOne(card).then(function (next) {
          return render().then(function () { return next; });
        }); });
      }, Promise.resolve(true));
    }).catch(function () { /* try again later */ }).then(function () {
      sending = false;
      render();
    });
  }

  // Signing out clears what this device kept: say so first if cards still wait.
  var logOut = document.getElementById("log-out");
  if (logOut) {
    logOut.addEventListener("submit", function (event) {
      if (waiting && !window.confirm(
        (waiting === 1 ? "1 card has" : waiting + " cards have") + " not been sent yet: " +
        "signing out removes them from this device. Sign out anyway?"
      )) event.preventDefault();
    });
  }

  window.addEventListener("online", sendAll);
  window.addEventListener("offline", render);
  setInterval(function () { if (waiting && !stopped) sendAll(); }, 5000);
  render().then(sendAll);
})();
