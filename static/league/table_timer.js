// The table timer (G8, G3): counts down each turn, passes play to the left on a tap (or Space/
// Enter), and when a turn's time runs out shows "Time! Turn lost", beeps and vibrates where the
// device allows; the next tap passes the turn. No network after the page loads.
(function () {
  "use strict";
  var box = document.getElementById("timer");
  if (!box) return;
  var limit = parseInt(box.getAttribute("data-seconds"), 10) || 0;
  var players = parseInt(box.getAttribute("data-players"), 10) || 2;
  var clock = document.getElementById("timer-clock");
  var who = document.getElementById("timer-who");
  var out = document.getElementById("timer-out");
  var pause = document.getElementById("timer-pause");
  var turns = box.querySelectorAll("#timer-turns li");
  var names = Array.prototype.map.call(turns, function (li) { return li.querySelector(".name").textContent; });
  var counts = names.map(function () { return 0; });
  var current = 0, left = limit, running = false, last = null, timedOut = false;

  function show() {
    if (limit) {
      var s = Math.max(0, Math.ceil(left));
      clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    }
    who.textContent = names[current] + (running ? "" : " (paused)");
    turns.forEach(function (li, i) {
      li.querySelector(".count").textContent = counts[i];
      li.classList.toggle("current", i === current);
    });
    box.classList.toggle("timed-out", timedOut);
    out.hidden = !timedOut;
    pause.textContent = running ? "Pause" : "Resume";
  }
  function signal() {
    try {
      var Audio = window.AudioContext || window.webkitAudioContext;
      if (Audio) {
        var ctx = new Audio(), tone = ctx.createOscillator();
        tone.connect(ctx.destination); tone.frequency.value = 880;
        tone.start(); tone.stop(ctx.currentTime + 0.4);
      }
    } catch (e) { /* no sound: the screen still says it */ }
    if (navigator.vibrate) navigator.vibrate([300, 100, 300]);
  }
  function tick(now) {
    if (running && limit && !timedOut) {
      if (last !== null) left -= (now - last) / 1000;
      if (left <= 0) { left = 0; timedOut = true; signal(); }
    }
    last = now;
    show();
    window.requestAnimationFrame(tick);
  }
  function next() {
    counts[current] += 1;  // a timed-out turn is a turn played, without score (G8)
    current = (current + 1) % players;
    left = limit; timedOut = false; running = true; last = null;
    show();
  }
  document.getElementById("timer-next").addEventListener("click", next);
  pause.addEventListener("click", function () { running = !running; last = null; show(); });
  document.getElementById("timer-reset").addEventListener("click", function () {
    counts = names.map(function () { return 0; });
    current = 0; left = limit; running = false; timedOut = false; last = null; show();
  });
  document.addEventListener("keydown", function (event) {
    if ((event.key === " " || event.key === "Enter") && event.target.tagName !== "BUTTON") {
      event.preventDefault(); next();
    }
  });
  running = false;
  show();
  window.requestAnimationFrame(tick);
})();
