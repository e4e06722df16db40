/* motherlode board zoom: pan and zoom a board SVG that asks for it. Game-agnostic: it only
   changes the board <svg>'s viewBox, from generic hints the SVG carries:
   - an element with data-focus="x y w h" (or the root itself): the board is zoomable, and
     opens on that box (a game puts the player's own pieces there);
   - data-views="Label:x y w h;Label:x y w h" on that element: one button per named view;
   - data-highlight="id1 id2" on any element: hovering (or tapping) it adds the class
     "highlight" to the elements with those ids.
   Wheel, pinch, the +/−/reset buttons, the keys + − 0 and the arrows zoom and pan; a drag
   pans, and a click without movement still clicks. The view survives board updates
   (match.js dispatches "motherlode:board" after each) and reloads (sessionStorage). */
(function () {
  "use strict";
  var host = document.getElementById("board");
  if (!host) { return; }
  var KEY = "motherlode:view:" + location.pathname;
  var svg = null, full = null, view = null, bar = null, views = null;
  /* Until the person zooms or pans, the view follows the board's focus (the page's first
     board may be a spectator's, the seat's own arrives over the socket). */
  var chosen = false, focus = null;
  var pointers = {}, drag = null, pinch = null, swallowClick = false;
  var MOVE_PX = 6;

  function nums(text) {
    var v = (text || "").trim().split(/[\s,]+/).map(Number);
    return v.length === 4 && v.every(isFinite) && v[2] > 0 && v[3] > 0 ? v : null;
  }
  function hint(s) { return s.hasAttribute("data-focus") ? s : s.querySelector("[data-focus]"); }

  /* The element's aspect (width / height) in CSS pixels. */
  function aspect() {
    var r = svg.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? r.width / r.height : full[2] / full[3];
  }
  /* A box grown to the element's aspect about its centre, so a view fills the element. */
  function fit(box) {
    var a = aspect(), x = box[0], y = box[1], w = box[2], h = box[3];
    if (w / h < a) { var nw = h * a; x -= (nw - w) / 2; w = nw; }
    else { var nh = w / a; y -= (nh - h) / 2; h = nh; }
    return [x, y, w, h];
  }
  function clamp(v) {
    var maxW = full[2] * 1.15, minW = full[2] / 60;
    var a = v[2] / v[3], w = Math.min(Math.max(v[2], minW), maxW), h = w / a;
    var cx = v[0] + v[2] / 2, cy = v[1] + v[3] / 2;
    cx = Math.min(Math.max(cx, full[0]), full[0] + full[2]);
    cy = Math.min(Math.max(cy, full[1]), full[1] + full[3]);
    return [cx - w / 2, cy - h / 2, w, h];
  }
  function apply(byUser) {
    if (!svg || !view) { return; }
    if (byUser !== false) { chosen = true; }
    view = clamp(view);
    svg.setAttribute("viewBox", view.map(function (n) { return Math.round(n * 10) / 10; }).join(" "));
    svg.dataset.zoom = (full[2] / view[2]).toFixed(2);
    try { sessionStorage.setItem(KEY, JSON.stringify(view)); } catch (e) { /* private mode */ }
  }
  /* The SVG user coordinates under a client (screen) point. */
  function toSvg(cx, cy) {
    var m = svg.getScreenCTM();
    if (!m) { return [view[0] + view[2] / 2, view[1] + view[3] / 2]; }
    var p = svg.createSVGPoint(); p.x = cx; p.y = cy;
    p = p.matrixTransform(m.inverse());
    return [p.x, p.y];
  }
  /* Zoom by ``k`` (> 1: closer) keeping the user point ``at`` where it is on screen. */
  function zoom(k, at) {
    if (!svg || !view) { return; }
    at = at || [view[0] + view[2] / 2, view[1] + view[3] / 2];
    var w = view[2] / k, h = view[3] / k;
    view = [at[0] - (at[0] - view[0]) / k, at[1] - (at[1] - view[1]) / k, w, h];
    apply();
  }
  function pan(fx, fy) { if (!svg) { return; } view = [view[0] + view[2] * fx, view[1] + view[3] * fy, view[2], view[3]]; apply(); }
  function reset() { if (svg) { view = fit(full); apply(); } }

  function button(text, title, fn, cls) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = text; b.title = title; b.setAttribute("aria-label", title);
    if (cls) { b.className = cls; }
    b.addEventListener("click", function (ev) { ev.preventDefault(); fn(); });
    return b;
  }
  function toolbar(spec) {
    if (!bar) {
      bar = document.createElement("div");
      bar.className = "zoom-bar"; bar.id = "zoom-bar";
      bar.appendChild(button("+", "zoom in (+)", function () { zoom(1.5); }, "zoom-in"));
      bar.appendChild(button("−", "zoom out (−)", function () { zoom(1 / 1.5); }, "zoom-out"));
      bar.appendChild(button("⟲", "show the whole board (0)", reset, "zoom-reset"));
      views = document.createElement("span"); views.className = "zoom-views";
      bar.appendChild(views);
      host.parentNode.insertBefore(bar, host);
    }
    bar.hidden = false;
    if (views.dataset.spec === spec) { return; }
    views.dataset.spec = spec; views.innerHTML = "";
    spec.split(";").forEach(function (item) {
      var i = item.lastIndexOf(":"), box = nums(item.slice(i + 1));
      if (i > 0 && box) {
        views.appendChild(button(item.slice(0, i), "show " + item.slice(0, i), function () { view = fit(box); apply(); }, "zoom-view"));
      }
    });
  }

  /* Size the element once per board: as wide as its box, as high as the board's shape
     allows within the window, so changing the viewBox never changes the page's layout. */
  function size() {
    var w = host.clientWidth || 600;
    var h = w * full[3] / full[2];
    if (w < 700) { h = Math.max(h, window.innerHeight * 0.62); }  /* a phone: taller */
    h = Math.min(h, window.innerHeight * 0.84);
    svg.style.width = "100%"; svg.style.height = Math.max(240, Math.round(h)) + "px";
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  }

  function attach() {
    var s = host.querySelector("svg");
    var h = s && hint(s);
    if (!h) { svg = null; if (bar) { bar.hidden = true; } return; }
    if (s !== svg) {
      if (!s.dataset.fullView) { s.dataset.fullView = s.getAttribute("viewBox") || ""; }
      var f = nums(s.dataset.fullView);
      if (!f) { return; }
      var first = svg === null;
      svg = s; full = f; size();
      if (first && !view) {
        var saved = null;
        try { saved = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { saved = null; }
        if (saved && saved.length === 4) { view = saved; chosen = true; }
      }
    }
    var hinted = h.getAttribute("data-focus");
    if (!chosen && hinted !== focus) { view = fit(nums(hinted) || full); }
    focus = hinted;
    toolbar(h.getAttribute("data-views") || "");
    apply(false);
  }

  host.addEventListener("wheel", function (ev) {
    if (!svg) { return; }
    ev.preventDefault();
    var dy = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
    zoom(Math.exp(-dy * 0.0015), toSvg(ev.clientX, ev.clientY));
  }, { passive: false });

  host.addEventListener("pointerdown", function (ev) {
    if (!svg || (ev.pointerType === "mouse" && ev.button !== 0)) { return; }
    pointers[ev.pointerId] = [ev.clientX, ev.clientY];
    swallowClick = false;
    var ids = Object.keys(pointers);
    if (ids.length === 1) {
      drag = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, view: view.slice(), moved: false };
      pinch = null;
    } else if (ids.length === 2) {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, view: view.slice(),
        mid: toSvg((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) };
      drag = null; swallowClick = true;
    }
  });
  host.addEventListener("pointermove", function (ev) {
    if (!svg || !pointers[ev.pointerId]) { return; }
    pointers[ev.pointerId] = [ev.clientX, ev.clientY];
    var ids = Object.keys(pointers);
    if (pinch && ids.length >= 2) {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      var k = (Math.hypot(a[0] - b[0], a[1] - b[1]) || 1) / pinch.d;
      var v = pinch.view, m = pinch.mid;
      view = [m[0] - (m[0] - v[0]) / k, m[1] - (m[1] - v[1]) / k, v[2] / k, v[3] / k];
      apply(); ev.preventDefault(); return;
    }
    if (!drag || drag.id !== ev.pointerId) { return; }
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < MOVE_PX) { return; }
    if (!drag.moved) {
      drag.moved = true; swallowClick = true; svg.classList.add("panning");
      try { host.setPointerCapture(ev.pointerId); } catch (e) { /* already released */ }
    }
    var u = Math.max(drag.view[2] / svg.getBoundingClientRect().width, drag.view[3] / svg.getBoundingClientRect().height);
    view = [drag.view[0] - dx * u, drag.view[1] - dy * u, drag.view[2], drag.view[3]];
    apply(); ev.preventDefault();
  });
  function release(ev) {
    delete pointers[ev.pointerId];
    if (Object.keys(pointers).length < 2) { pinch = null; }
    if (drag && drag.id === ev.pointerId) { drag = null; }
    if (svg) { svg.classList.remove("panning"); }
  }
  host.addEventListener("pointerup", release);
  host.addEventListener("pointercancel", release);
  /* A drag or a pinch is not a click: swallow the click that ends it, before match.js. */
  host.addEventListener("click", function (ev) {
    if (swallowClick) { swallowClick = false; ev.stopPropagation(); ev.preventDefault(); }
  }, true);

  document.addEventListener("keydown", function (ev) {
    if (!svg || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var t = ev.target;
    var here = t === document.body || t === document.documentElement || host.contains(t) || (bar && bar.contains(t));
    if (!here || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) { return; }
    var step = 0.15, done = true;
    switch (ev.key) {
      case "+": case "=": zoom(1.5); break;
      case "-": case "_": zoom(1 / 1.5); break;
      case "0": reset(); break;
      case "ArrowLeft": pan(-step, 0); break;
      case "ArrowRight": pan(step, 0); break;
      case "ArrowUp": pan(0, -step); break;
      case "ArrowDown": pan(0, step); break;
      default: done = false;
    }
    if (done) { ev.preventDefault(); }
  });

  /* data-highlight: light up the named elements while the pointer is on (or a tap picked) it. */
  function mark(node, on) {
    (node.getAttribute("data-highlight") || "").split(/\s+/).forEach(function (id) {
      var e = id && document.getElementById(id);
      if (e) { e.classList.toggle("highlight", on); }
    });
  }
  var tapped = null;
  document.addEventListener("mouseover", function (ev) {
    var n = ev.target.closest && ev.target.closest("[data-highlight]");
    if (n && host.contains(n)) { mark(n, true); }
  });
  document.addEventListener("mouseout", function (ev) {
    var n = ev.target.closest && ev.target.closest("[data-highlight]");
    if (n && n !== tapped && !(ev.relatedTarget && n.contains(ev.relatedTarget))) { mark(n, false); }
  });
  document.addEventListener("click", function (ev) {
    var n = ev.target.closest && ev.target.closest("[data-highlight]");
    if (tapped && tapped !== n) { mark(tapped, false); tapped = null; }
    if (n && host.contains(n) && !n.closest("[data-action]")) { tapped = n; mark(n, true); }
  });

  window.addEventListener("resize", function () {
    if (!svg) { return; }
    var c = [view[0] + view[2] / 2, view[1] + view[3] / 2], w = view[2];
    size(); view = fit([c[0] - w / 2, c[1] - w / 2, w, w * view[3] / view[2]]); apply(false);
  });
  document.addEventListener("motherlode:board", attach);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", attach); }
  else { attach(); }
  window.motherlodeZoom = { zoom: zoom, reset: reset, view: function () { return view && view.slice(); } };
})();
