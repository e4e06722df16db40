/* motherlode commands for people, game-agnostic: an element with data-command="build to K17"
   asks the server for the command's preview on the first click (POST .../preview), draws
   the SVG overlay the engine returns over the board, and shows the summary with a confirm
   button; the second click (or the button) sends the command as one move (POST .../move).
   The board redrawn by the push removes the overlay. Escape or "Cancel" drops it. */
(function () {
  "use strict";
  var root = document.getElementById("match");
  if (!root) { return; }
  var matchId = root.dataset.match;
  var SVGNS = "http://www.w3.org/2000/svg";
  var chosen = null; // the command previewed now
  var bar = null;

  function token() {
    var hash = /[#&]t=([^&]+)/.exec(location.hash);
    if (hash) { return decodeURIComponent(hash[1]); }
    try { return localStorage.getItem("motherlode:" + matchId); } catch (e) { return null; }
  }

  function post(what, body) {
    var headers = { "Content-Type": "application/json" };
    var t = token();
    if (t) { headers.Authorization = "Bearer " + t; }
    return fetch("/api/matches/" + encodeURIComponent(matchId) + "/" + what, {
      method: "POST", headers: headers, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) { throw new Error((data.error && data.error.message) || r.statusText); }
        return data;
      });
    });
  }

  function say(text) {
    var m = document.getElementById("message");
    if (m) { m.textContent = text; m.hidden = !text; }
  }

  function board() { return document.querySelector("#board svg"); }

  function clear() {
    chosen = null;
    var old = document.getElementById("command-overlay");
    if (old) { old.parentNode.removeChild(old); }
    if (bar) { bar.hidden = true; }
  }

  function draw(markup) {
    var svg = board();
    if (!svg || !markup) { return; }
    var doc = new DOMParser().parseFromString(
      '<svg xmlns="' + SVGNS + '">' + markup + "</svg>", "image/svg+xml");
    var g = document.createElementNS(SVGNS, "g");
    g.setAttribute("id", "command-overlay");
    g.setAttribute("pointer-events", "none");
    Array.prototype.forEach.call(doc.documentElement.childNodes, function (n) {
      g.appendChild(document.importNode(n, true));
    });
    svg.appendChild(g);
  }

  function makeBar() {
    bar = document.createElement("div");
    bar.id = "command-bar";
    bar.className = "card command-bar";
    bar.setAttribute("role", "dialog");
    bar.setAttribute("aria-live", "polite");
    bar.hidden = true;
    var text = document.createElement("p"); text.id = "command-summary";
    var more = document.createElement("ul"); more.id = "command-details";
    var ok = document.createElement("button"); ok.id = "command-confirm"; ok.textContent = "Confirm";
    var no = document.createElement("button"); no.id = "command-cancel"; no.textContent = "Cancel";
    ok.addEventListener("click", function () { if (chosen) { confirm(chosen); } });
    no.addEventListener("click", clear);
    bar.appendChild(text); bar.appendChild(more); bar.appendChild(ok); bar.appendChild(no);
    var place = document.querySelector(".board.card") || root;
    place.appendChild(bar);
  }

  function show(pv) {
    if (!bar) { makeBar(); }
    document.getElementById("command-summary").textContent = pv.summary;
    var more = document.getElementById("command-details");
    more.innerHTML = "";
    pv.details.forEach(function (line) {
      var li = document.createElement("li"); li.textContent = line; more.appendChild(li);
    });
    bar.hidden = false;
    document.getElementById("command-confirm").focus();
  }

  function preview(command) {
    clear();
    chosen = command;
    post("preview", { command: command }).then(function (pv) {
      if (chosen !== command) { return; }
      draw(pv.overlay);
      show(pv);
      say("");
    }).catch(function (err) { clear(); say(err.message); });
  }

  function confirm(command) {
    var version = parseInt(root.dataset.version || "0", 10);
    clear();
    post("move", { command: command, version: version }).catch(function (err) { say(err.message); });
  }

  function pick(target) {
    var command = target.getAttribute("data-command");
    if (chosen === command) { confirm(command); } else { preview(command); }
  }

  /* For survey.js: the same requests, and a click's preview-then-confirm by command. */
  window.motherlodeCommands = { post: post, pick: function (command) {
    if (chosen === command) { confirm(command); } else { preview(command); }
  }, clear: clear };

  var holder = document.getElementById("board");
  if (holder && window.MutationObserver) {  // a new position drawn: the preview is stale
    new MutationObserver(function () {
      if (!document.getElementById("command-overlay")) { chosen = null; if (bar) { bar.hidden = true; } }
    }).observe(holder, { childList: true });
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target.closest("[data-command]") : null;
    if (!t || !root.contains(t)) { return; }
    ev.preventDefault(); ev.stopImmediatePropagation();
    pick(t);
  }, true);
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { clear(); return; }
    if (ev.key !== "Enter" && ev.key !== " ") { return; }
    var t = ev.target.closest ? ev.target.closest("[data-command]") : null;
    if (!t || !root.contains(t)) { return; }
    ev.preventDefault(); ev.stopImmediatePropagation();
    pick(t);
  }, true);
})();
