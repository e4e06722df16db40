/* Step through a finished match move by move (the spectator's view at each step), with
   its analysis (server/analysis.py) once there is one: at each step the move just played
   against the bot's best, their values and the bot's top moves; each player's biggest
   mistakes marked in the move list; a value graph per seat (SVG). Everything shown comes
   from /api/matches/<id>/analysis in words made by the server: no game knowledge here. */
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
    judged(n);
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

  /* -- the analysis ------------------------------------------------------------------ */
  var analysis = null, byStep = {};
  var COLOURS = ["#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function val(v) { return v === null || v === undefined ? "?" : (v > 0 ? "+" : v < 0 ? "−" : "±") + Math.abs(v).toFixed(2); }
  function judged(n) {
    var box = document.getElementById("analysis-step"), r = byStep[n];
    if (!box) { return; }
    box.hidden = !r;
    if (!r) { return; }
    var verdict = document.getElementById("analysis-verdict");
    verdict.textContent = "";
    verdict.appendChild(el("strong", null, r.player + " played " + r.played));
    if (r.how === "forced") {
      verdict.appendChild(document.createTextNode(": the only legal move."));
    } else if (r.how === "failed") {
      verdict.appendChild(document.createTextNode(": not judged (" + r.note + ")."));
    } else {
      verdict.appendChild(document.createTextNode(" (" + val(r.played_value) + "). "));
      if (r.best === r.played) {
        verdict.appendChild(el("span", "verdict-best", "The bot's choice too."));
      } else {
        verdict.appendChild(document.createTextNode("The bot would have played "));
        verdict.appendChild(el("strong", null, r.best));
        verdict.appendChild(document.createTextNode(" (" + val(r.best_value) + "): "));
        verdict.appendChild(el("span", r.mistake ? "verdict-loss" : "", val(r.loss).replace("+", "") + " lost" + (r.mistake ? ", one of " + r.player + "'s biggest mistakes" : "")));
        verdict.appendChild(document.createTextNode("."));
      }
    }
    var body = document.getElementById("analysis-top");
    body.innerHTML = "";
    r.top.forEach(function (t) {
      var tr = el("tr", (t.move === r.best ? "best" : "") + (t.move === r.played ? " played" : ""));
      tr.appendChild(el("td", null, t.said || t.move));
      tr.appendChild(el("td", "v", val(t.value)));
      tr.appendChild(el("td", "t", t.visits === null ? "" : t.visits));
      body.appendChild(tr);
    });
    if (r.top.every(function (t) { return t.move !== r.played; }) && r.how !== "forced" && r.how !== "failed") {
      var tr = el("tr", "played");
      tr.appendChild(el("td", null, r.played_said || r.played));
      tr.appendChild(el("td", "v", val(r.played_value))); tr.appendChild(el("td", "t", ""));
      body.appendChild(tr);
    }
    body.parentNode.hidden = !r.top.length;
    verdict.title = r.why;  /* the same in one sentence (the API's "why") */
    var note = document.getElementById("analysis-note");
    note.textContent = r.note; note.hidden = !r.note;
  }
  function mark() {
    document.querySelectorAll("#replay-log li").forEach(function (li) {
      if (li.dataset.clock) { return; }  /* a clock event, not a decision */
      var r = byStep[parseInt(li.dataset.n, 10)], old = li.querySelector(".mistake-mark");
      li.classList.toggle("mistake", !!(r && r.mistake));
      if (r && r.mistake && !old) {
        var m = el("span", "mistake-mark", "?"); m.title = r.player + " lost " + val(r.loss).replace("+", "") + ": the bot preferred " + r.best;
        li.appendChild(m);
      }
    });
  }
  function graph() {
    var box = document.getElementById("analysis-graph"), rows = analysis.rows;
    box.innerHTML = "";
    if (!rows.length) { return; }
    var NS = "http://www.w3.org/2000/svg", W = 380, H = 120, pad = 6;
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H); svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "the value of each player's position, move by move (+1 top, −1 bottom)");
    var order = {};  /* x: the decision's place among the match's decisions */
    rows.forEach(function (r, i) { order[r.step] = i; });
    function x(step) { return pad + (W - 2 * pad) * order[step] / Math.max(1, analysis.total - 1); }
    function y(v) { return H / 2 - (H / 2 - pad) * v; }
    var axis = document.createElementNS(NS, "line");
    axis.setAttribute("x1", pad); axis.setAttribute("x2", W - pad); axis.setAttribute("y1", H / 2); axis.setAttribute("y2", H / 2);
    axis.setAttribute("stroke", "#c9b995"); axis.setAttribute("stroke-dasharray", "3 3"); svg.appendChild(axis);
    var seats = {};
    rows.forEach(function (r) { if (r.seat >= 0 && r.best_value !== null) { (seats[r.seat] = seats[r.seat] || []).push(r); } });
    Object.keys(seats).forEach(function (seat) {
      var pts = seats[seat], line = document.createElementNS(NS, "polyline"), c = COLOURS[seat % COLOURS.length];
      line.setAttribute("points", pts.map(function (r) { return x(r.step).toFixed(1) + "," + y(r.best_value).toFixed(1); }).join(" "));
      line.setAttribute("fill", "none"); line.setAttribute("stroke", c); line.setAttribute("stroke-width", "1.6");
      line.setAttribute("data-seat", seat); svg.appendChild(line);
      pts.forEach(function (r) {
        if (!r.mistake) { return; }
        var dot = document.createElementNS(NS, "circle");
        dot.setAttribute("cx", x(r.step).toFixed(1)); dot.setAttribute("cy", y(r.best_value).toFixed(1)); dot.setAttribute("r", "4");
        dot.setAttribute("fill", "#a93226"); dot.setAttribute("stroke", c); dot.dataset.step = r.step;
        var t = document.createElementNS(NS, "title"); t.textContent = "step " + r.step + ": " + r.player + " played " + r.played + ", the bot preferred " + r.best;
        dot.appendChild(t); dot.addEventListener("click", function () { show(r.step); }); svg.appendChild(dot);
      });
    });
    box.appendChild(svg);
    var key = el("p", "small");
    Object.keys(seats).forEach(function (seat) {
      var s = el("span", "seat-key", "━ P" + (Number(seat) + 1) + " "); s.style.color = COLOURS[seat % COLOURS.length]; key.appendChild(s);
    });
    box.appendChild(key);
  }
  function load() {
    fetch("/api/matches/" + id + "/analysis").then(function (r) { return r.ok ? r.json() : null; }).then(function (a) {
      if (!a) { document.getElementById("analysis").hidden = true; return; }
      analysis = a; byStep = {};
      a.rows.forEach(function (r) { byStep[r.step] = r; });
      var status = document.getElementById("analysis-status"), ask = document.getElementById("analysis-ask");
      ask.hidden = !(a.status === "none" && a.enabled);
      status.textContent = a.status === "none" ? (a.enabled ? "This match has no analysis yet." : "This server analyses no matches.") :
        a.status === "done" ? "The bot (" + a.spec + ") judged every decision: " + a.progress + "." :
        "The bot (" + (a.spec || "…") + ") is at work: " + a.progress + ".";
      root.dataset.analysis = a.status;
      mark(); graph(); judged(at());
      if (a.status === "queued" || a.status === "running") { setTimeout(load, 2000); }
    }).catch(function () { setTimeout(load, 5000); });
  }
  document.getElementById("analysis-start").onclick = function () {
    fetch("/api/matches/" + id + "/analysis", { method: "POST" }).then(load);
  };
  load();
  show(Math.min(steps, setup));  /* the first real move: the set-up is one jump back */
})();
