/* Step through a finished match move by move (the spectator's view at each step). */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var id = root.dataset.match, steps = parseInt(root.dataset.steps, 10);
  var setup = parseInt(root.dataset.setup || "0", 10);
  var slider = document.getElementById("step"), cache = {};
  function show(n) {
    n = Math.max(0, Math.min(steps, n)); slider.value = n;
    document.getElementById("where").textContent = n === 0 ? "before the set-up" :
      (n < setup ? "set-up, draw " + n + " of " + setup : "step " + n + " / " + steps);
    document.querySelectorAll("#replay-log li").forEach(function (li) {
      li.classList.toggle("current", parseInt(li.dataset.n, 10) === n);
    });
    var done = function (d) { cache[n] = d; if (parseInt(slider.value, 10) === n) { document.getElementById("board").innerHTML = d.svg; document.dispatchEvent(new CustomEvent("motherlode:board")); } };
    if (cache[n]) { done(cache[n]); return; }
    fetch("/api/matches/" + id + "/replay/" + n).then(function (r) { return r.json(); }).then(done);
  }
  var at = function () { return parseInt(slider.value, 10); };
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(at() - 1); };
  document.getElementById("next").onclick = function () { show(at() + 1); };
  document.getElementById("last").onclick = function () { show(steps); };
  slider.oninput = function () { show(at()); };
  document.getElementById("replay-log").onclick = function (ev) {
    var li = ev.target.closest("li"); if (li) { show(parseInt(li.dataset.n, 10)); }
  };
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowLeft") { show(at() - 1); } else if (ev.key === "ArrowRight") { show(at() + 1); }
  });
  show(Math.min(steps, setup));  /* the first real move: the set-up is one jump back */
})();
