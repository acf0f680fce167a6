// A table's own page when the hall's Wi-Fi drops (issue 52). The page registers the service
// worker that keeps it loadable offline (the copy this phone last loaded: only what its holder
// already saw). A card or a confirmation made while offline (or while earlier ones still wait)
// is checked as far as the page can (a score for every seat within the Scrabble range, a seat
// chosen), kept on this phone (card-store.js) and listed as waiting. Once the server answers
// again they are sent, one at a time and in the order made, each with the key it got when made,
// so one sent twice lands once; one the server refuses (the table paired again, another
// version, the round closed, a slip no longer valid) stays listed with its reason until
// dismissed. Without script the page posts its forms as it always did.
(function () {
  "use strict";
  var box = document.getElementById("offline-table");
  var store = self.CardStore;
  if (!box || !store || !("indexedDB" in window)) return;
  var forms = Array.prototype.slice.call(
    document.querySelectorAll("#card form.card-form, #card form.confirm-form")
  );
  var pageUrl = location.origin + location.pathname;
  var count = box.querySelector("[data-testid=table-waiting]");
  var state = box.querySelector("[data-testid=table-state]");
  var waitingList = box.querySelector("[data-testid=table-waiting-list]");
  var refusedList = box.querySelector("[data-testid=table-refused-list]");
  var sentList = box.querySelector("[data-testid=table-sent-list]");
  var problem = document.getElementById("table-problem");
  var sent = [];
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
      function () { /* no worker: the page still keeps what it made while it stays open */ }
    );
  }

  function hidden(form, name, value) {
    var input = form.querySelector("input[type=hidden][name=" + name + "]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }

  function isCard(form) { return form.classList.contains("card-form"); }

  function typedScores(form) {
    return Array.prototype.map.call(form.querySelectorAll("input[name^=score_]"), function (input) {
      return input.value.trim();
    });
  }

  // Each card or confirmation gets its key as it is sent off, by the form or by the list.
  function stamp(form) {
    hidden(form, "key", store.key());
    hidden(form, "device", device);
    hidden(form, "typed_at", String(Date.now()));
    hidden(form, "kind", isCard(form) ? "card" : "confirm");
    hidden(form, "match", box.getAttribute("data-match"));
    hidden(form, "what", isCard(form) ? typedScores(form).join("–") : form.getAttribute("data-scores"));
  }

  // What the page can check without the server: "", or what is wrong.
  function check(form) {
    var seat = form.querySelector("select[name=seat]");
    var code = form.querySelector("input[name=code]");
    var known = form.querySelector(".acting-as") || box.getAttribute("data-me");
    if (seat && !known && !seat.value && !(code && code.value.trim())) {
      return "Choose your seat.";
    }
    if (!isCard(form)) return "";
    var inputs = form.querySelectorAll("input[name^=score_]");
    for (var i = 0; i < inputs.length; i += 1) {
      var value = inputs[i].value.trim();
      var number = Number(value);
      var low = Number(inputs[i].min || -100);
      var high = Number(inputs[i].max || 1500);
      if (!/^-?\d+$/.test(value) || number < low || number > high) {
        var label = form.querySelector("label[for='" + inputs[i].id + "']");
        return (label ? label.textContent : "Each seat") + ": type a score between " + low +
          " and " + high + ".";
      }
    }
    return "";
  }

  function named(card) {
    return (card.kind === "confirm" ? "Your confirmation of " : "Your card ") + card.what;
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
      var mine = cards.filter(function (card) { return card.pageUrl === pageUrl && card.kind; });
      var refused = mine.filter(function (card) { return card.state === "refused"; });
      var held = mine.filter(function (card) { return card.state === "waiting"; });
      waiting = held.length;
      waitingList.textContent = "";
      refusedList.textContent = "";
      sentList.textContent = "";
      held.forEach(function (card) {
        item(waitingList, named(card) + ", made " + clock(card.typedAt));
      });
      refused.forEach(function (card) {
        item(refusedList, named(card) + " was not taken. " + card.reason, card);
      });
      sent.forEach(function (words) { item(sentList, words); });
      count.textContent = waiting
        ? (waiting === 1 ? "1 waiting to send" : waiting + " waiting to send")
        : refused.length ? (refused.length === 1 ? "1 not taken" : refused.length + " not taken")
          : "Sent";
      var words = stopped;
      if (!words && waiting) {
        words = sending ? "Sending…" : navigator.onLine
          ? "The server cannot be reached: kept on this phone, sent when it answers again."
          : "Offline: kept on this phone, sent when the connection is back.";
      }
      if (!words && sent.length) words = "Reload the page to see the table's card as it is now.";
      state.textContent = words;
      box.hidden = !(waiting || refused.length || sent.length || stopped);
    });
  }

  function keep(form) {
    var card = store.fromForm(new FormData(form), pageUrl);
    return store.put(card).then(function () {
      form.querySelectorAll("input[name^=score_]").forEach(function (input) { input.value = ""; });
      problem.textContent = "Kept on this phone: " + named(card) + ".";
      return render();
    });
  }

  forms.forEach(function (form) {
    form.addEventListener("submit", function (event) {
      stamp(form);
      if (navigator.onLine && !waiting && !stopped) return; // the worker keeps it if the post fails
      event.preventDefault();
      var wrong = check(form);
      if (wrong) { problem.textContent = wrong; return; }
      keep(form);
    });
  });

  function csrf() {
    var found = document.cookie.split("; ").filter(function (pair) {
      return pair.indexOf("csrftoken=") === 0;
    })[0];
    var input = document.querySelector("#card [name=csrfmiddlewaretoken]");
    return found ? found.slice("csrftoken=".length) : input ? input.value : "";
  }

  // One card or confirmation: true to go on with the next, false to stop until later.
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
        if (answer.gone) {
          stopped = answer.reason;
          return store.forget(card.pageUrl).then(function () {
            return caches.open(store.PAGES);
          }).then(function (cache) { return cache.delete(card.pageUrl); }).then(function () {
            return false;
          });
        }
        problem.textContent = "";
        if (["counted", "saved", "same"].indexOf(answer.outcome) >= 0) {
          sent.push(named(card) + ": " + answer.said);
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
    store.all().then(function (cards) {
      var mine = cards.filter(function (card) {
        return card.pageUrl === pageUrl && card.kind && card.state === "waiting";
      });
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

  // Signing out clears what this phone kept: say so first if some still wait.
  var logOut = document.getElementById("log-out");
  if (logOut) {
    logOut.addEventListener("submit", function (event) {
      if (waiting && !window.confirm(
        (waiting === 1 ? "1 card has" : waiting + " cards have") + " not been sent yet: " +
        "signing out removes them from this phone. Sign out anyway?"
      )) event.preventDefault();
    });
  }

  window.addEventListener("online", sendAll);
  window.addEventListener("offline", render);
  setInterval(function () { if (waiting && !stopped) sendAll(); }, 5000);
  render().then(sendAll);
})();
