/* The match's chat and rematch (server/chat.py, server/mygames.py), over match.js's
   socket: "chat_open" on every (re)connection brings the channel's history, then each
   message comes live. Messages are put in the page as text only (textContent), never as
   markup. A seat may mute one seat or the whole chat (kept on the server). */
(function () {
  "use strict";
  var root = document.getElementById("match");
  var ml = window.motherlode;
  if (!root || !ml) { return; }
  var logEl = document.getElementById("chat-log");
  var form = document.getElementById("chat-form");
  var input = document.getElementById("chat-input");
  var note = document.getElementById("chat-note");
  var title = document.getElementById("chat-title");
  var mutes = document.getElementById("chat-mutes");
  var muteAll = document.getElementById("mute-all");
  var seatsBox = document.getElementById("mute-seats");
  var card = document.getElementById("rematch-card");
  var button = document.getElementById("rematch");
  var watchLink = document.getElementById("rematch-watch");
  var muted = [], seen = {}, mutesFor = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = String(text); }
    return e;
  }
  function add(m) {
    if (seen[m.id]) { return; }
    seen[m.id] = true;
    var li = el("li", m.seat === null ? "spectator" : "p" + m.seat);
    li.appendChild(el("b", "author", m.author));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("span", "text", m.text));
    li.title = m.at;
    logEl.appendChild(li);
    logEl.scrollTop = logEl.scrollHeight;
  }
  function seatBoxes(s) {
    if (mutesFor === s.seat + "/" + s.players.length) { return; }
    mutesFor = s.seat + "/" + s.players.length;
    seatsBox.innerHTML = "";
    s.players.forEach(function (p) {
      if (p.seat === s.seat) { return; }
      var label = el("label"), box = el("input");
      box.type = "checkbox"; box.dataset.seat = String(p.seat); box.className = "mute-seat";
      label.appendChild(box); label.appendChild(document.createTextNode(" hide P" + (p.seat + 1)));
      seatsBox.appendChild(label); seatsBox.appendChild(document.createTextNode(" "));
    });
    showMutes();
  }
  function showMutes() {
    mutes.querySelectorAll("input[data-seat]").forEach(function (b) {
      b.checked = muted.indexOf(Number(b.dataset.seat)) >= 0;
    });
    form.hidden = muted.indexOf(-1) >= 0;
  }
  function history(msg) {
    logEl.innerHTML = ""; seen = {};
    muted = msg.muted || [];
    msg.messages.forEach(add);
    title.textContent = msg.channel === "players" ? "Chat (players)" : "Chat (spectators)";
    if (msg.channel === "players" && muted.indexOf(-1) >= 0) { note.textContent = "You muted the chat."; }
    else if (msg.channel === "spectators") { note.textContent = "Spectators talk here; the players do not see it."; }
    else { note.textContent = ""; }
    showMutes();
  }

  document.addEventListener("motherlode:open", function () { ml.send({ type: "chat_open" }); });
  /* the socket may have opened while this script was still loading */
  if (ml.live()) { ml.send({ type: "chat_open" }); }
  document.addEventListener("motherlode:message", function (ev) {
    var msg = ev.detail;
    if (msg.type === "chat_history") { history(msg); }
    else if (msg.type === "chat") { msg.messages.forEach(add); }
    else if (msg.type === "rematch") { offer(msg.match); }
    else if (msg.type === "error" && /^(chat|rate_limited|spectator)/.test(msg.code)) { note.textContent = msg.message; }
  });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var text = input.value.trim();
    if (!text) { return; }
    if (ml.send({ type: "chat", text: text })) { input.value = ""; note.textContent = ""; }
  });
  mutes.addEventListener("change", function (ev) {
    var b = ev.target;
    if (!b.dataset || b.dataset.seat === undefined) { return; }
    ml.send({ type: "chat_mute", seat: Number(b.dataset.seat), muted: b.checked });
  });

  /* The rematch: shown when the game is over; a player's click makes (or joins) it. */
  function offer(matchId) {
    card.dataset.rematch = matchId;
    document.getElementById("rematch-text").textContent = "A rematch has started.";
    button.textContent = "Play the rematch";
    watchLink.href = "/m/" + matchId; watchLink.hidden = false;
    card.hidden = false;
  }
  function onBoard() {
    var s = ml.state();
    if (!s) { return; }
    mutes.hidden = s.seat === null;
    if (s.seat !== null) { seatBoxes(s); }
    card.hidden = !s.terminal || (s.seat === null && !card.dataset.rematch);
    button.hidden = s.seat === null;
  }
  document.addEventListener("motherlode:board", onBoard);
  onBoard();  /* a state that came before this script */
  button.addEventListener("click", function () {
    var token = ml.token();
    if (!token) { return; }
    button.disabled = true;
    fetch("/api/matches/" + encodeURIComponent(root.dataset.match) + "/rematch", {
      method: "POST", headers: { "Authorization": "Bearer " + token }
    }).then(function (r) { return r.json(); }).then(function (data) {
      button.disabled = false;
      if (data.error) { note.textContent = data.error.message; return; }
      try { localStorage.setItem("motherlode:" + data.match, data.token); } catch (e) { /* private mode */ }
      location.href = data.url;
    });
  });
}());
