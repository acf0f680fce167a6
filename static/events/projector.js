// The projector view refreshes its panel every few seconds without reloading the page, so the
// hall's screen never flashes white; when the network drops it keeps the last standings.
(function () {
  "use strict";
  var box = document.getElementById("projector");
  if (!box) return;
  var url = box.getAttribute("data-panel");
  var every = parseInt(box.getAttribute("data-every"), 10) || 15;
  function refresh() {
    fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) box.innerHTML = html; })
      .catch(function () { /* keep what is shown */ });
  }
  setInterval(refresh, every * 1000);
})();
