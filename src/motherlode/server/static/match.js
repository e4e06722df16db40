/* motherlode match page: game-agnostic. The server sends the seat's whole view once (a
   snapshot), then diffs: the fields that changed and the board's elements changed, added
   or removed by id inside #layer-public / #layer-seat (server/push.py). The static layer
   is fetched once from its cacheable URL. A click on any element with data-action (or on
   a move in the list) sends that action string. After every board update the page
   dispatches the event "motherlode:board" on the document (for zoom and the like).
   Where the browser has DecompressionStream the hello asks for compressed pushes: a large
   one then comes as a binary frame of raw deflate, inflated here; messages are handled in
   the order they came, whatever each takes to inflate. */
(function () {
  "use strict";
  var root = document.getElementById("match");
  var matchId = root.dataset.match;
  var key = "motherlode:" + matchId;
  var token = null;
  var hash = /[#&]t=([^&]+)/.exec(location.hash);
  var watch = /[?&]watch\b/.test(location.search);
  if (hash) {
    token = decodeURIComponent(hash[1]);
    try { localStorage.setItem(key, token); } catch (e) { /* private mode */ }
  } else if (!watch) {
    try { token = localStorage.getItem(key); } catch (e) { token = null; }
  }
  var host = document.getElementById("board");
  /* The page's own elements, never a board element that happens to share the id. */
  var $ = function (id) {
    var all = document.querySelectorAll('[id="' + id + '"]');
    for (var i = 0; i < all.length; i++) { if (!host.contains(all[i])) { return all[i]; } }
    return null;
  };
  var state = null, ws = null, pending = false, retry = 500, seq = 0, msgTimer = null;
  var SVGNS = "http://www.w3.org/2000/svg";
  var layers = null; /* {public: {el, nodes: {id: node}}, seat: {...}} */

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function who(seat) {
    if (seat === null || seat === undefined || seat < 0) { return "chance"; }
    var p = state && state.players[seat];
    return p ? p.name : "P" + (seat + 1);
  }
  function say(text) {
    var m = $("message");
    m.textContent = text; m.hidden = !text;
    clearTimeout(msgTimer);
    if (text) { msgTimer = setTimeout(function () { m.hidden = true; }, 6000); }
  }
  /* A refusal in the player's words: the server's reason without its code and the game's
     name ("yukon: illegal action 'a1' for P1: ..." -> "Illegal action 'a1' for P1: ..."). */
  function refusal(msg) {
    if (msg.code === "stale_state") { return "The position changed before your move arrived: here it is again."; }
    var text = String(msg.message || msg.code).replace(/^[a-z]+: /, "");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  function myTurn() { return state && state.seat !== null && state.seat === state.to_move && !pending; }

  function send(obj) {
    if (!ws || ws.readyState !== 1) { say("not connected"); return false; }
    obj.id = ++seq;
    ws.send(JSON.stringify(obj));
    return true;
  }
  function move(action) {
    if (!myTurn()) { return; }
    if (send({ type: "move", action: action, version: state.version })) {
      pending = true; root.classList.add("pending");
    }
  }

  function scalar(x) { return x === null || typeof x !== "object"; }
  function short(items) {
    return items.length > 12 ? items.slice(0, 12).join(", ") + " … (" + items.length + ")" : items.join(", ");
  }
  function renderValue(v, depth) {
    if (scalar(v)) { return el("span", "v", v === null ? "–" : v); }
    if (depth > 6) { return el("span", "muted", "…"); }
    if (Array.isArray(v)) {
      if (v.length === 0) { return el("span", "muted", "none"); }
      if (v.every(scalar)) { return el("span", "v", short(v)); }
      if (v.every(function (x) { return Array.isArray(x) && x.every(scalar); })) {
        return el("span", "v", short(v.map(function (x) { return x.join("-"); })));
      }
      var keys = !Array.isArray(v[0]) && typeof v[0] === "object" && v[0] ? Object.keys(v[0]) : null;
      if (keys && v.every(function (x) {
        return x && typeof x === "object" && !Array.isArray(x) &&
          Object.keys(x).join() === keys.join() && keys.every(function (k) { return scalar(x[k]); });
      })) {
        var table = el("table", "rows"), head = el("tr");
        keys.forEach(function (k) { head.appendChild(el("th", null, k)); });
        table.appendChild(head);
        v.slice(0, 80).forEach(function (x) {
          var tr = el("tr");
          keys.forEach(function (k) { tr.appendChild(el("td", null, x[k] === null ? "–" : x[k])); });
          table.appendChild(tr);
        });
        return table;
      }
      var box = el("div", "items");
      v.slice(0, 80).forEach(function (x, i) {
        var d = el("details"); d.open = depth < 2;
        var label = scalar(x) ? String(x) : Object.keys(x).filter(function (k) { return scalar(x[k]); })
          .slice(0, 2).map(function (k) { return k + " " + x[k]; }).join(" · ");
        d.appendChild(el("summary", null, (i + 1) + ". " + label));
        d.appendChild(renderValue(x, depth + 1)); box.appendChild(d);
      });
      return box;
    }
    var dl = el("dl");
    Object.keys(v).forEach(function (k) {
      var complex = !scalar(v[k]) && !(Array.isArray(v[k]) && v[k].every(scalar));
      dl.appendChild(el("dt", complex ? "wide" : null, k));
      var dd = el("dd", complex ? "wide" : null); dd.appendChild(renderValue(v[k], depth + 1)); dl.appendChild(dd);
    });
    return dl;
  }

  /* The narrated log: one line per step, the set-up's chance steps folded into one. */
  function renderLog(log, entries) {
    log.innerHTML = "";
    var setup = entries.filter(function (e) { return e.setup; });
    var shown = entries.filter(function (e) { return !e.setup; });
    if (setup.length > 1) {  // before the first move as well: one line, not 49
      shown.unshift({ n: setup[0].n + "–" + setup[setup.length - 1].n, seat: -1,
        said: "the set-up is dealt (" + setup.length + " draws)" });
    } else { shown = entries; }
    shown.forEach(function (e) {
      var li = el("li", (e.seat < 0 ? "chance" : "p" + e.seat) + (e.clock ? " clock-event" : ""));
      li.appendChild(el("span", "n", e.label || e.n));
      li.appendChild(document.createTextNode(" " + (e.said || e.text)));
      if (e.said && e.said !== e.text) { li.title = e.text; }
      log.appendChild(li);
    });
    log.scrollTop = log.scrollHeight;
  }

  /* The end of the game: why it ended, each seat's score and its breakdown, the winners. */
  function renderSummary(s) {
    var box = $("summary");
    box.hidden = !s.summary;
    if (!s.summary) { return; }
    $("summary-reason").textContent = "The game is over: " + s.summary.reason + ".";
    var table = $("summary-table"); table.innerHTML = "";
    var head = el("tr");
    ["", "seat", "score", "how it was scored"].forEach(function (h) { head.appendChild(el("th", null, h)); });
    table.appendChild(head);
    s.summary.rows.forEach(function (r) {
      var tr = el("tr", (r.winner ? "winner " : "") + "p" + r.seat);
      tr.appendChild(el("td", "mark", r.winner ? "★" : ""));
      tr.appendChild(el("td", "pname", who(r.seat) + (r.seat === s.seat ? " (you)" : "")));
      tr.appendChild(el("td", "score", r.score));
      /* a part that states its own sum ("1 robber × 2 =") takes its points without a colon */
      tr.appendChild(el("td", "breakdown", r.breakdown.map(function (b) {
        return b[0] + (/=$/.test(b[0]) ? " " : ": ") + b[1];
      }).join(", ")));
      table.appendChild(tr);
    });
    $("summary-winners").textContent = s.summary.lines[s.summary.lines.length - 1];
  }

  /* Every clickable board element is a button for the keyboard and screen readers too. */
  function focusable(board, mine) {
    board.querySelectorAll("[data-action]").forEach(function (node) {
      node.classList.toggle("clickable", mine);
      if (mine) {
        var title = node.querySelector("title");
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", title ? title.textContent : node.getAttribute("data-action"));
      } else {
        node.removeAttribute("tabindex"); node.removeAttribute("role");
      }
    });
  }

  /* One element from its markup, parsed in its layer's namespace (SVG, or HTML for the
     single-element fallback of a game without layers). */
  function parse(container, markup) {
    var tmp = container.namespaceURI === SVGNS ? document.createElementNS(SVGNS, "g") : document.createElement("div");
    tmp.innerHTML = markup;
    return tmp.firstElementChild || document.createTextNode("");
  }
  function setElement(layer, id, markup) {
    var node = parse(layer.el, markup), old = layer.nodes[id];
    if (old && old.parentNode) { old.parentNode.replaceChild(node, old); } else { layer.el.appendChild(node); }
    layer.nodes[id] = node;
  }
  function fetchStatic(url, g) {
    fetch(url).then(function (r) { return r.ok ? r.text() : ""; }).then(function (text) {
      if (!text) { return; }
      var doc = new DOMParser().parseFromString(text, "image/svg+xml");
      g.innerHTML = "";
      Array.prototype.forEach.call(doc.documentElement.childNodes, function (n) {
        g.appendChild(document.importNode(n, true));
      });
      document.dispatchEvent(new CustomEvent("motherlode:board"));
    });
  }
  /* A snapshot's board: the three layers built afresh (the static one kept when the page
     already drew it, else fetched), every element filled in. */
  function buildBoard(b) {
    var svg = host.querySelector("svg");
    var keep = b.width > 0 && layers === null && svg && svg.querySelector("#layer-static");
    if (keep) {
      svg.querySelector("#layer-public").innerHTML = ""; svg.querySelector("#layer-seat").innerHTML = "";
    } else if (b.width > 0) {
      var same = layers && layers.shape === b.width + "x" + b.height + " " + b.static;
      var staticLayer = same ? host.querySelector("#layer-static") : null;
      host.innerHTML = '<svg xmlns="' + SVGNS + '" viewBox="0 0 ' + b.width + " " + b.height + '" width="' + b.width +
        '" height="' + b.height + '" font-family="Georgia, serif"><g id="layer-static"></g><g id="layer-public"></g><g id="layer-seat"></g></svg>';
      if (staticLayer) { host.querySelector("#layer-static").replaceWith(staticLayer); }
      else if (b.static) { fetchStatic(b.static, host.querySelector("#layer-static")); }
    } else {
      host.innerHTML = '<div id="layer-public"></div><div id="layer-seat"></div>';
    }
    layers = { shape: b.width + "x" + b.height + " " + b.static };
    ["public", "seat"].forEach(function (name) {
      var layer = layers[name] = { el: host.querySelector("#layer-" + name), nodes: {} };
      b[name].forEach(function (pair) { setElement(layer, pair[0], pair[1]); });
    });
  }
  /* A diff's change of one layer: removed, set (changed or new), then the new order. */
  function patchLayer(layer, change) {
    if (!change) { return; }
    (change.removed || []).forEach(function (id) {
      var node = layer.nodes[id];
      if (node && node.parentNode) { node.parentNode.removeChild(node); }
      delete layer.nodes[id];
    });
    var set = change.set || {};
    Object.keys(set).forEach(function (id) { setElement(layer, id, set[id]); });
    (change.order || []).forEach(function (id) { if (layer.nodes[id]) { layer.el.appendChild(layer.nodes[id]); } });
  }
  function snapshot(msg) {
    buildBoard(msg.board);
    delete msg.board;
    render(msg);
  }
  function applyDiff(msg) {
    if (!state || !layers || msg.base !== state.rev) { send({ type: "sync" }); return; }
    var s = state;
    Object.keys(msg.fields).forEach(function (k) { s[k] = msg.fields[k]; });
    if (msg.log_add) { s.log = s.log.concat(msg.log_add); }
    s.version = msg.version; s.rev = msg.rev;
    var b = msg.board || {};
    patchLayer(layers.public, b.public);
    patchLayer(layers.seat, b.seat);
    render(s);
  }

  function fitBoard() {
    /* the board's own size (its width and height attributes), not the zoomed view box */
    var svg = host.querySelector("svg");
    var w = svg ? parseFloat(svg.getAttribute("width")) : 0, h = svg ? parseFloat(svg.getAttribute("height")) : 0;
    if (w > 0 && h > 0) { svg.classList.toggle("tall", h / w > 1.25); }
  }
  function render(s) {
    state = s; pending = false; root.classList.remove("pending");
    fitBoard();
    root.dataset.version = s.version; root.dataset.terminal = s.terminal;
    var mine = s.seat !== null && s.seat === s.to_move;
    root.classList.toggle("my-turn", mine);
    focusable(host, mine);
    document.dispatchEvent(new CustomEvent("motherlode:board"));
    $("whoami").textContent = s.seat === null ? "spectator" : "you are " + who(s.seat);
    var turn;
    if (s.terminal) {
      var w = s.outcome ? s.outcome.winners.map(who).join(" & ") : "";
      turn = "Game over" + (w ? " — " + (s.outcome.winners.length > 1 ? "shared victory: " : "winner: ") + w : "");
      if (s.summary) { turn = "Game over — " + s.summary.lines[s.summary.lines.length - 1]; }
    } else if (mine) { turn = "Your turn"; } else { turn = who(s.to_move) + " to move"; }
    $("turn").textContent = turn;
    document.title = (mine ? "● " : "") + s.game + " · motherlode";
    $("undo").disabled = !s.can_undo;
    var players = $("players"); players.innerHTML = "";
    s.players.forEach(function (p) {
      var tr = el("tr", (p.seat === s.to_move ? "to-move " : "") + (p.seat === s.seat ? "me " : "") + "p" + p.seat);
      tr.appendChild(el("td", "mark", p.seat === s.to_move ? "▶" : ""));
      var pname = el("td", "pname", p.name + (p.seat === s.seat ? " (you)" : ""));
      if (p.account) {
        var a = el("a", "account", p.account); a.href = "/u/" + encodeURIComponent(p.account);
        pname.appendChild(document.createTextNode(" ")); pname.appendChild(a);
      }
      tr.appendChild(pname);
      tr.appendChild(el("td", "kind", p.kind === "bot" ? "bot " + p.spec : (p.joined ? "player" : "open seat")));
      tr.appendChild(el("td", "score", s.scores ? s.scores[p.seat] : ""));
      players.appendChild(tr);
    });
    var legal = $("legal"); legal.innerHTML = "";
    $("moves-card").hidden = s.seat === null || s.terminal;
    if (mine) {
      s.legal.forEach(function (a) {
        var li = el("li"); var b = el("button", "act", a.text);
        b.dataset.action = a.text; li.appendChild(b); legal.appendChild(li);
      });
    } else if (!s.terminal && s.seat !== null) {
      legal.appendChild(el("li", "muted", "waiting for " + who(s.to_move)));
    }
    renderLog($("log"), s.log);
    renderSummary(s);
    var details = $("details"); details.innerHTML = "";
    details.appendChild(renderValue(s.view, 0));
    if (s.seed) {
      $("seed").textContent = "Seed (revealed): " + s.seed;
      $("after-end").hidden = false;
    }
    document.dispatchEvent(new CustomEvent("motherlode:state", { detail: { state: s, send: send } }));
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target.closest("[data-action]") : null;
    if (t && (root.contains(t))) { ev.preventDefault(); move(t.getAttribute("data-action")); }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== " ") { return; }
    var t = ev.target.closest ? ev.target.closest("#board [data-action]") : null;
    if (t && root.contains(t)) { ev.preventDefault(); move(t.getAttribute("data-action")); }
  });
  $("undo").addEventListener("click", function () {
    if (state && state.can_undo) { send({ type: "undo", version: state.version }); }
  });

  var inflates = typeof DecompressionStream === "function";
  /* A frame's text: a text frame as it is, a binary one (an ArrayBuffer) inflated. */
  function frameText(data) {
    if (typeof data === "string") { return Promise.resolve(data); }
    var stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }
  function connect() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = ws = new WebSocket(proto + location.host + "/ws/" + encodeURIComponent(matchId));
    var inOrder = Promise.resolve();
    ws.binaryType = "arraybuffer";
    ws.onopen = function () {
      var hello = { type: "hello", token: token };
      if (inflates) { hello.compress = "deflate-raw"; }
      ws.send(JSON.stringify(hello));
      $("conn").textContent = "live"; $("conn").className = "conn live"; retry = 500;
      document.dispatchEvent(new CustomEvent("motherlode:open"));
    };
    ws.onmessage = function (ev) {
      inOrder = inOrder.then(function () { return frameText(ev.data); }).then(function (text) {
        if (ws === socket) { handle(JSON.parse(text)); }
      }).catch(function (e) { say("a message from the server cannot be read (" + e + ")"); });
    };
    function handle(msg) {
      if (msg.type === "state") { snapshot(msg); say(""); }
      else if (msg.type === "diff") { applyDiff(msg); say(""); }
      else if (msg.type === "error") {
        pending = false; root.classList.remove("pending");
        say(refusal(msg));
        if (msg.code === "invalid_token") { try { localStorage.removeItem(key); } catch (e) { /* */ } token = null; }
        if (msg.code === "stale_state") { send({ type: "sync" }); }
        document.dispatchEvent(new CustomEvent("motherlode:message", { detail: msg }));
      } else { document.dispatchEvent(new CustomEvent("motherlode:message", { detail: msg })); }
    }
    ws.onclose = function () {
      $("conn").textContent = "reconnecting…"; $("conn").className = "conn";
      setTimeout(connect, retry); retry = Math.min(retry * 2, 10000);
    };
  }
  /* For the page's other scripts (chat.js): send a message on the match's socket, read
     the view (the seat, the players, whether the game is over). */
  window.motherlode = {
    send: send, state: function () { return state; }, token: function () { return token; },
    live: function () { return !!ws && ws.readyState === 1; }
  };
  connect();
})();
