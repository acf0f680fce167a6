// The cards a scoring table's page keeps on its device while the hall is offline (issue 52),
// in the browser's own database (IndexedDB), shared by the page and its service worker. A card
// is kept as typed: its key (made when it was typed, so the server counts it once however often
// it is sent), the device's name for itself, who was signed in, when it was typed by the
// device's clock, where to send it, the form's fields (a table's page adds whether it is a card
// or a confirmation, and the scores shown), and its state ("waiting" or "refused"
// with the server's reason). Nothing else is kept.
(function (scope) {
  "use strict";
  var NAME = "scoring-table";
  var CARDS = "cards";

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(CARDS, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(CARDS, mode);
        var result = work(transaction.objectStore(CARDS));
        transaction.oncomplete = function () {
          db.close();
          resolve(result && "result" in result ? result.result : undefined);
        };
        transaction.onerror = function () { db.close(); reject(transaction.error); };
      });
    });
  }

  function key() {
    if (scope.crypto && scope.crypto.randomUUID) return scope.crypto.randomUUID();
    var hex = "";
    for (var i = 0; i < 32; i += 1) hex += Math.floor(Math.random() * 16).toString(16);
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-4" + hex.slice(13, 16) + "-a" +
      hex.slice(17, 20) + "-" + hex.slice(20, 32);
  }

  scope.CardStore = {
    // The service worker's cache of the scoring pages and what they load.
    PAGES: "scoring-pages-v1",
    key: key,
    // Every card kept, in the order typed.
    all: function () {
      return run("readonly", function (store) { return store.getAll(); }).then(function (cards) {
        return (cards || []).sort(function (a, b) { return a.seq - b.seq; });
      });
    },
    put: function (card) {
      return run("readwrite", function (store) { store.put(card); });
    },
    remove: function (cardKey) {
      return run("readwrite", function (store) { store.delete(cardKey); });
    },
    // Forget the cards kept for pages under `prefix` (an event whose table is no longer ours).
    forget: function (prefix) {
      return scope.CardStore.all().then(function (cards) {
        return run("readwrite", function (store) {
          cards.forEach(function (card) {
            if (card.pageUrl.indexOf(prefix) === 0) store.delete(card.key);
          });
        });
      });
    },
    // A card from a form's fields: what the server needs, without the page's token.
    fromForm: function (data, pageUrl) {
      var fields = {};
      data.forEach(function (value, name) {
        if (["csrfmiddlewaretoken", "key", "device", "typed_at", "typed_by", "what"].indexOf(name) < 0) {
          fields[name] = String(value);
        }
      });
      var typedAt = parseInt(data.get("typed_at"), 10) || Date.now();
      return {
        key: String(data.get("key") || key()),
        device: String(data.get("device") || "unnamed"),
        user: String(data.get("typed_by") || ""),
        typedAt: typedAt,
        seq: Date.now() + Math.random(),
        // A table's page: "card" or "confirm", and what the player saw ("412–377").
        kind: String(data.get("kind") || ""),
        what: String(data.get("what") || ""),
        pageUrl: pageUrl,
        sendTo: pageUrl + "send/",
        fields: fields,
        state: "waiting",
        reason: ""
      };
    }
  };
})(self);
