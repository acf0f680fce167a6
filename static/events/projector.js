// The hall's screen: the panel is fetched again every few seconds without reloading the page,
// so the screen never flashes white, and when the network drops it keeps the last standings.
// Lists longer than one screen come as slides (the leaders ten at a time, each category's top
// three, the teams): one shows at a time, the next after a few seconds, in turn; a refresh
// keeps the slide that was showing.
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
  function refresh() {
    fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) { box.innerHTML = html; show(); } })
      .catch(function () { /* keep what is shown */ });
  }
  show();
  setInterval(function () { shown += 1; show(); }, slideSeconds * 1000);
  setInterval(refresh, every * 1000);
})();
