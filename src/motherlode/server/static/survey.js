/* motherlode survey by hand, game-agnostic: drag across a board's named points to compose
   a command, previewed by the server at every step. It reads only generic hints:
   - data-points="Name,x,y;Name,x,y;..." on any element of the board (the static layer):
     every point a survey may pass, in the board's user coordinates;
   - on an element with data-survey="build " (the seat layer, while a survey is open):
     data-survey-join=">" (between the points' names), data-survey-from="Name;Name" (where
     a drag may start), and data-click="build to " (the command of a click on a point that
     no other element answers).
   Press on a start point and drag: each point the pointer comes near is added (dragging
   back onto the point before removes the last one); the command "build A>B>C" is sent to
   POST .../preview and the engine's overlay (the route, its cost) is drawn with the
   summary (this turn's part, the rest). A refused step is dropped (the path keeps the
   last step the engine accepted) and its reason shown. Backspace or "Undo" removes the
   last point, Enter or "Confirm" sends the command as one move, Escape or "Cancel" drops
   the survey. A press that does not move is a click, left to the elements under it. */
(function () {
  "use strict";
  var root = document.getElementById("match");
  var host = document.getElementById("board");
  if (!root || !host) { return; }
  var SVGNS = "http://www.w3.org/2000/svg";
  var MOVE_PX = 6;
  var pts = null, ptsSrc = null, grid = null, cell = 1, index = null;
  var path = [], good = [], pending = null, active = null, justDragged = false;
  var inflight = false, queued = false, version = null, bar = null;

  function svg() { return host.querySelector("svg"); }
  function hints() { var s = svg(); return s ? s.querySelector("[data-survey]") : null; }

  /* The points, parsed once per attribute text, and a grid of cells one spacing wide. */
  function points() {
    var s = svg(), holder = s && s.querySelector("[data-points]");
    if (!holder) { return null; }
    var src = holder.getAttribute("data-points");
    if (src === ptsSrc) { return pts; }
    ptsSrc = src; pts = []; index = {};
    src.split(";").forEach(function (item) {
      var f = item.split(",");
      if (f.length < 3) { return; }
      var y = Number(f.pop()), x = Number(f.pop()), name = f.join(",");
      if (isFinite(x) && isFinite(y)) { index[name] = pts.length; pts.push({ name: name, x: x, y: y }); }
    });
    var near = [];
    for (var i = 0; i < pts.length && near.length < 40; i += Math.max(1, Math.floor(pts.length / 40))) {
      var best = Infinity;
      for (var j = 0; j < pts.length; j++) {
        if (j !== i) { best = Math.min(best, Math.hypot(pts[i].x - pts[j].x, pts[i].y - pts[j].y)); }
      }
      if (isFinite(best)) { near.push(best); }
    }
    near.sort(function (a, b) { return a - b; });
    cell = near.length ? Math.max(near[Math.floor(near.length / 2)], 1) : 20;
    grid = {};
    pts.forEach(function (p, k) {
      var key = Math.floor(p.x / cell) + ":" + Math.floor(p.y / cell);
      (grid[key] = grid[key] || []).push(k);
    });
    return pts;
  }
  function toSvg(ev) {
    var s = svg(), m = s && s.getScreenCTM();
    if (!m) { return null; }
    var p = s.createSVGPoint(); p.x = ev.clientX; p.y = ev.clientY;
    p = p.matrixTransform(m.inverse());
    return [p.x, p.y];
  }
  /* The point nearest the event, within 0.6 of a spacing; else null. */
  function nearest(ev) {
    if (!points()) { return null; }
    var at = toSvg(ev);
    if (!at) { return null; }
    var cx = Math.floor(at[0] / cell), cy = Math.floor(at[1] / cell), best = null, bd = cell * 0.6;
    for (var dx = -1; dx <= 1; dx++) {
      for (var dy = -1; dy <= 1; dy++) {
        (grid[(cx + dx) + ":" + (cy + dy)] || []).forEach(function (k) {
          var d = Math.hypot(pts[k].x - at[0], pts[k].y - at[1]);
          if (d < bd) { bd = d; best = pts[k]; }
        });
      }
    }
    return best;
  }
  function starts() {
    var h = hints();
    return h ? (h.getAttribute("data-survey-from") || "").split(";") : [];
  }
  function command(names) {
    var h = hints();
    return (h.getAttribute("data-survey") || "") + names.join(h.getAttribute("data-survey-join") || ">");
  }
  function api() { return window.motherlodeCommands; }

  /* --- drawing --------------------------------------------------------------------- */
  function layer(id) {
    var s = svg();
    if (!s) { return null; }
    var g = s.querySelector("#" + id);
    if (!g) {
      g = document.createElementNS(SVGNS, "g");
      g.setAttribute("id", id); g.setAttribute("pointer-events", "none");
      s.appendChild(g);
    }
    return g;
  }
  function trail() {
    var g = layer("survey-trail");
    if (!g) { return; }
    g.innerHTML = "";
    if (path.length < 1 || !points()) { return; }
    var d = path.map(function (n, i) { var p = pts[index[n]]; return (i ? "L" : "M") + p.x + " " + p.y; }).join("");
    var line = document.createElementNS(SVGNS, "path");
    line.setAttribute("d", d); line.setAttribute("fill", "none"); line.setAttribute("stroke", "#333");
    line.setAttribute("stroke-width", "1.5"); line.setAttribute("stroke-dasharray", "3 3");
    g.appendChild(line);
    var p0 = pts[index[path[0]]], dot = document.createElementNS(SVGNS, "circle");
    dot.setAttribute("cx", p0.x); dot.setAttribute("cy", p0.y); dot.setAttribute("r", "5");
    dot.setAttribute("fill", "#333"); dot.setAttribute("id", "survey-start");
    g.appendChild(dot);
  }
  function overlay(markup) {
    var g = layer("survey-overlay");
    if (!g) { return; }
    g.innerHTML = "";
    if (!markup) { return; }
    var doc = new DOMParser().parseFromString('<svg xmlns="' + SVGNS + '">' + markup + "</svg>", "image/svg+xml");
    Array.prototype.forEach.call(doc.documentElement.childNodes, function (n) { g.appendChild(document.importNode(n, true)); });
  }
  function makeBar() {
    bar = document.createElement("div");
    bar.id = "survey-bar"; bar.className = "card command-bar"; bar.hidden = true;
    bar.setAttribute("role", "dialog"); bar.setAttribute("aria-live", "polite");
    /* in sight while dragging: at the foot of the window, over the board */
    bar.style.position = "sticky"; bar.style.bottom = "0"; bar.style.zIndex = "5";
    bar.style.maxHeight = "34vh"; bar.style.overflow = "auto";
    if (window.innerWidth < 700) { bar.style.fontSize = "13px"; bar.style.padding = "6px 10px"; }
    var text = document.createElement("p"); text.id = "survey-summary";
    var more = document.createElement("ul"); more.id = "survey-details";
    var why = document.createElement("p"); why.id = "survey-error"; why.className = "error";
    bar.appendChild(text); bar.appendChild(more); bar.appendChild(why);
    [["survey-undo", "Undo segment (⌫)", undo], ["survey-confirm", "Confirm", confirm],
      ["survey-cancel", "Cancel", cancel]].forEach(function (b) {
      var btn = document.createElement("button");
      btn.id = b[0]; btn.type = "button"; btn.textContent = b[1];
      btn.addEventListener("click", function (ev) { ev.preventDefault(); b[2](); });
      bar.appendChild(btn);
    });
    (document.querySelector(".board.card") || root).appendChild(bar);
  }
  function show(pv, error) {
    if (!bar) { makeBar(); }
    bar.hidden = false;
    var summary = document.getElementById("survey-summary"), more = document.getElementById("survey-details");
    if (pv) {
      summary.textContent = pv.summary; more.innerHTML = "";
      pv.details.forEach(function (line) { var li = document.createElement("li"); li.textContent = line; more.appendChild(li); });
    } else if (good.length < 2) {
      summary.textContent = "survey from " + (path[0] || "") + ": drag across the mileposts"; more.innerHTML = "";
    }
    document.getElementById("survey-error").textContent = error || "";
    document.getElementById("survey-confirm").disabled = good.length < 2 || inflight || queued;
    document.getElementById("survey-undo").disabled = path.length < 2;
  }

  /* --- the server ------------------------------------------------------------------ */
  function ask() {
    if (path.length < 2) { good = path.slice(); overlay(""); show(null, ""); return; }
    if (inflight) { queued = true; return; }
    inflight = true;
    var sent = path.slice(), cmd = command(sent);
    show(null, "");
    api().post("preview", { command: cmd }).then(function (pv) {
      if (command(path) === cmd) { good = sent; overlay(pv.overlay); show(pv, ""); }
    }).catch(function (err) {
      /* the step is refused: keep the path the engine last accepted */
      if (path.length >= sent.length && command(path.slice(0, sent.length)) === cmd) {
        path = good.length ? good.slice() : sent.slice(0, 1);
        trail();
      }
      show(null, err.message);
    }).then(function () {
      inflight = false;
      if (queued) { queued = false; ask(); } else if (bar && !bar.hidden) { show(null, document.getElementById("survey-error").textContent); }
    });
  }
  function undo() {
    if (path.length < 2) { return; }
    path.pop(); trail(); ask();
  }
  function cancel() {
    path = []; good = []; pending = null; active = null;
    overlay(""); trail();
    if (bar) { bar.hidden = true; }
  }
  function confirm() {
    if (good.length < 2 || inflight || queued) { return; }
    var cmd = command(good), v = parseInt(root.dataset.version || "0", 10);
    cancel();
    api().post("move", { command: cmd, version: v }).catch(function (err) { show(null, err.message); bar.hidden = false; });
  }

  /* --- the pointer ----------------------------------------------------------------- */
  /* A touch drag ends with no click: the flag is only for the click right after it. */
  document.addEventListener("pointerdown", function () { justDragged = false; }, true);
  host.addEventListener("pointerdown", function (ev) {
    if (!hints() || !api() || (ev.pointerType === "mouse" && ev.button !== 0) || active) { return; }
    var p = nearest(ev);
    if (!p) { return; }
    var end = path.length && path[path.length - 1] === p.name;
    if (!end && starts().indexOf(p.name) < 0) { return; }
    pending = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, name: p.name, extend: end };
    ev.stopPropagation();  /* not a pan (zoom.js) */
  }, true);
  host.addEventListener("pointermove", function (ev) {
    if (pending && pending.id === ev.pointerId && !active) {
      if (Math.hypot(ev.clientX - pending.x, ev.clientY - pending.y) < MOVE_PX) { return; }
      active = ev.pointerId;
      if (!pending.extend) { path = [pending.name]; good = path.slice(); overlay(""); }
      try { host.setPointerCapture(ev.pointerId); } catch (e) { /* gone */ }
      version = root.dataset.version; trail(); show(null, "");
    }
    if (active !== ev.pointerId) { return; }
    ev.stopPropagation(); ev.preventDefault();
    var p = nearest(ev);
    if (!p || p.name === path[path.length - 1]) { return; }
    if (path.length >= 2 && p.name === path[path.length - 2]) { path.pop(); }
    else { path.push(p.name); }
    trail(); ask();
  }, true);
  function release(ev) {
    if (pending && pending.id === ev.pointerId) { pending = null; }
    if (active === ev.pointerId) { active = null; justDragged = true; ev.stopPropagation(); }
  }
  host.addEventListener("pointerup", release, true);
  host.addEventListener("pointercancel", release, true);
  /* The click that ends a survey's drag is no click. */
  document.addEventListener("click", function (ev) {
    if (justDragged) {
      justDragged = false;
      if (host.contains(ev.target)) { ev.stopPropagation(); ev.preventDefault(); }
    }
  }, true);
  /* A click on a bare point is data-click: listened to as the click bubbles, after zoom.js
     has swallowed the click that ends a pan (else a pan would end with a build preview). */
  host.addEventListener("click", function (ev) {
    var h = hints(), t = ev.target;
    if (!h || !host.contains(t) || !api() || !h.getAttribute("data-click")) { return; }
    if (t.closest && t.closest("[data-action],[data-command],[data-highlight]")) { return; }
    var p = nearest(ev);
    if (p) { ev.preventDefault(); api().pick(h.getAttribute("data-click") + p.name); }
  });
  document.addEventListener("keydown", function (ev) {
    if (!bar || bar.hidden || /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) { return; }
    if (ev.key === "Backspace") { ev.preventDefault(); undo(); }
    else if (ev.key === "Escape") { cancel(); }
    else if (ev.key === "Enter" && ev.target.tagName !== "BUTTON") { ev.preventDefault(); confirm(); }
  });
  /* A new position: a survey drawn on the old one is stale. */
  document.addEventListener("motherlode:board", function () {
    if (!hints()) { cancel(); return; }
    if (version !== null && root.dataset.version !== version && !active) { version = null; cancel(); }
    else { trail(); }
  });
  window.motherlodeSurvey = { path: function () { return path.slice(); }, good: function () { return good.slice(); } };
})();
