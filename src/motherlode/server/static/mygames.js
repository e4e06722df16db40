/* For a logged-in visitor, on every page: how many of their games wait for them (the tab
   title's "(2) ...", the "My games" link), polled from /api/me/games. When a game starts
   waiting, the page says so and, if the visitor allowed it (asked on a click of
   #notify-on, never on load), a browser notification too. On /me the table follows. */
(function () {
  "use strict";
  var STORE = "motherlode:waiting";
  var onDashboard = !!document.getElementById("dashboard");
  var every = onDashboard ? 4000 : 15000;
  var count = 0;
  var notice = document.getElementById("turn-notice");

  function setTitle() {
    var want = (count ? "(" + count + ") " : "") + document.title.replace(/^\(\d+\) /, "");
    if (document.title !== want) { document.title = want; }
  }
  var titleEl = document.querySelector("title");
  if (titleEl && window.MutationObserver) {  /* match.js rewrites the title: keep the count */
    new MutationObserver(setTitle).observe(titleEl, { childList: true, characterData: true, subtree: true });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = String(text); }
    return e;
  }
  function stored() {
    try { var v = localStorage.getItem(STORE); return v === null ? null : JSON.parse(v); } catch (e) { return null; }
  }
  function store(ids) { try { localStorage.setItem(STORE, JSON.stringify(ids)); } catch (e) { /* */ } }
  function here(id) { return location.pathname === "/m/" + id && document.visibilityState === "visible"; }

  function tell(m) {
    var text = "Your turn in " + m.game + " (" + m.seats.join(", ") + ")";
    if (notice) {
      notice.textContent = "";
      var a = el("a", null, text); a.href = m.url;
      notice.appendChild(a); notice.hidden = false;
    }
    if (window.Notification && Notification.permission === "granted") {
      var n = new Notification("motherlode: your turn", { body: text, tag: "motherlode-" + m.id });
      n.onclick = function () { window.focus(); location.href = m.url; };
    }
  }
  function table(matches) {
    var body = document.querySelector("#my-matches tbody");
    if (!body) { return; }
    body.innerHTML = "";
    matches.forEach(function (m) {
      var tr = el("tr", m.your_turn ? "waiting" : ""); tr.dataset.match = m.id;
      tr.appendChild(el("td", "mark", m.your_turn ? "▶ your turn" : ""));
      var td = el("td"), a = el("a", null, m.game); a.href = m.url; td.appendChild(a); tr.appendChild(td);
      var ps = el("td");
      m.players.forEach(function (p) {
        var own = "P" + (p.seat + 1);
        ps.appendChild(el("span", "seat", own + (p.account ? " " + p.account : (p.name !== own ? " " + p.name : ""))));
        ps.appendChild(document.createTextNode(" "));
      });
      tr.appendChild(ps);
      tr.appendChild(el("td", "mine", m.seats.join(", ")));
      tr.appendChild(el("td", null, m.to_move || ""));
      var tl = el("td", "time-left" + (m.ticking ? " ticking" : ""), m.clock ? m.time_text : "—");
      if (m.clock) { tl.dataset.left = m.time_left; tl.dataset.kind = m.clock; tl.title = m.clock_describe; }
      tr.appendChild(tl);
      var when = el("td", "when"), t = el("time", null, m.updated_at);
      t.setAttribute("datetime", m.updated_at); t.title = m.updated_at + " UTC";
      when.appendChild(t); tr.appendChild(when);
      body.appendChild(tr);
    });
  }
  /* each running clock of the account ticks down between polls (as static/clock.js) */
  var polled = Date.now();
  function fmt(s, kind) {
    if (kind === "days" && s >= 3600) {
      var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), mi = Math.floor((s % 3600) / 60);
      return d ? d + " d " + h + " h" : h + " h " + mi + " min";
    }
    if (s < 9.95) { return "0:0" + s.toFixed(1); }
    var hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = Math.floor(s % 60);
    return (hh ? hh + ":" + (mm < 10 ? "0" : "") : "") + mm + ":" + (ss < 10 ? "0" : "") + ss;
  }
  function tick() {
    var gone = (Date.now() - polled) / 1000;
    document.querySelectorAll("#my-matches td.time-left.ticking").forEach(function (td) {
      td.textContent = fmt(Math.max(0, Number(td.dataset.left) - gone), td.dataset.kind);
    });
  }
  if (onDashboard) { setInterval(tick, 250); }
  function poll() {
    fetch("/api/me/games", { credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (data) {
      if (!data) { return; }
      count = data.waiting;
      var link = document.getElementById("waiting-count");
      if (link) { link.textContent = count ? " (" + count + ")" : ""; }
      setTitle();
      var now = data.matches.filter(function (m) { return m.your_turn; });
      var before = stored();
      if (before !== null) {
        now.forEach(function (m) { if (before.indexOf(m.id) < 0 && !here(m.id)) { tell(m); } });
      }
      store(now.map(function (m) { return m.id; }));
      if (onDashboard) { polled = Date.now(); table(data.matches); document.dispatchEvent(new CustomEvent("motherlode:times")); }
    }).catch(function () { /* offline: next time */ }).then(function () { setTimeout(poll, every); });
  }

  var button = document.getElementById("notify-on");
  var state = document.getElementById("notify-state");
  function showPermission() {
    if (!state) { return; }
    if (!window.Notification) { state.textContent = "this browser has no notifications"; return; }
    state.textContent = { granted: "notifications are on", denied: "notifications are blocked in this browser", "default": "" }[Notification.permission] || "";
    if (button) { button.hidden = Notification.permission === "granted"; }
  }
  if (button) {
    button.addEventListener("click", function () {
      if (!window.Notification) { showPermission(); return; }
      Notification.requestPermission().then(showPermission);
    });
  }
  showPermission();
  poll();
}());
