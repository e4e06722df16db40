/* motherlode match clocks (server/clocks.py): each seat's time, ticking. The server sends,
   with every state, each seat's bank in seconds as of `since` (epoch seconds) and the seat
   whose clock runs; the page subtracts the time since then, on the server's clock (the page
   was served with the server's time: data-server-now). A seat out of time is `late`: the
   other players get "skip the turn" (or "hand the seat to the bot") and "end the match". */
(function () {
  "use strict";
  var root = document.getElementById("match");
  if (!root) { return; }
  var skew = (Number(root.dataset.serverNow) || Date.now()) - Date.now();
  var card = document.getElementById("clock-card");
  var table = document.getElementById("clocks");
  var actions = document.getElementById("clock-actions");
  var skip = document.getElementById("clock-skip");
  var end = document.getElementById("clock-end");
  var state = null, send = null, cells = [];

  function nowS() { return (Date.now() + skew) / 1000; }
  function left(c, seat) {
    var r = c.remaining[seat];
    if (c.running === seat && c.since !== null) { r -= nowS() - c.since; }
    return r;
  }
  function fmt(s, kind) {
    var out;
    if (kind === "days" && s >= 3600) {
      var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
      out = d ? d + " d " + h + " h" : h + " h " + m + " min";
    } else if (s < 10) {
      out = "0:0" + s.toFixed(1);
    } else {
      var hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = Math.floor(s % 60);
      out = (hh ? hh + ":" + (mm < 10 ? "0" : "") : "") + mm + ":" + (ss < 10 ? "0" : "") + ss;
    }
    return out;
  }
  function who(seat) { var p = state.players[seat]; return p ? p.name : "P" + (seat + 1); }

  function tick() {
    if (!state || !state.clock) { return; }
    var c = state.clock;
    cells.forEach(function (cell, seat) {
      /* a seat the server has flagged is out of time, whatever this page's clock (its
         skew is measured from when the page was served) still makes of it */
      var t = seat === c.late ? 0 : left(c, seat), over = state.status === "running";
      cell.time.textContent = c.bots.indexOf(seat) >= 0 ? "bot" : fmt(Math.max(t, 0), c.kind);
      cell.row.classList.toggle("out", over && t <= 0 && c.running === seat);
    });
  }

  function render(s) {
    state = s;
    var c = s.clock;
    card.hidden = !c;
    if (!c) { return; }
    root.dataset.forfeit = c.forfeit !== null; /* over on time: the seat's buttons go (style.css) */
    table.innerHTML = ""; cells = [];
    s.players.forEach(function (p) {
      var tr = document.createElement("tr");
      tr.className = "p" + p.seat + (p.seat === c.running ? " running" : "") + (p.seat === s.to_move ? " to-move" : "") +
        (p.seat === c.late ? " late" : "") + (p.seat === c.forfeit ? " forfeit" : "");
      tr.dataset.seat = p.seat;
      var mark = document.createElement("td"); mark.className = "mark"; mark.textContent = p.seat === c.running ? "▶" : "";
      var name = document.createElement("td"); name.className = "pname"; name.textContent = p.name + (p.seat === s.seat ? " (you)" : "");
      var time = document.createElement("td"); time.className = "time";
      tr.appendChild(mark); tr.appendChild(name); tr.appendChild(time);
      table.appendChild(tr);
      cells.push({ row: tr, time: time });
    });
    document.getElementById("clock-kind").textContent = c.describe;
    var rule = c.rule;
    if (c.late !== null) { rule = who(c.late) + " is out of time. " + (c.can_skip ? "The others may " + c.skip_label + " or end the match." : "The others may end the match."); }
    if (c.forfeit !== null) { rule = who(c.forfeit) + " forfeited on time."; }
    /* the engine's board still draws whose turn it was: a note over it says the match ended */
    var note = document.getElementById("board-note");
    if (note) {
      note.hidden = c.forfeit === null;
      note.textContent = c.forfeit === null ? "" : "Game over: " + who(c.forfeit) +
        " forfeited on time. The board shows the position when the match ended; nobody is to move.";
    }
    document.getElementById("clock-rule").textContent = rule;
    var mayAct = c.late !== null && s.seat !== null && s.seat !== c.late && s.status === "running";
    actions.hidden = !mayAct;
    skip.hidden = !c.can_skip;
    var late = c.late !== null ? who(c.late) : "";
    skip.textContent = c.skip_label === "skip the turn" ? "Skip " + late + "'s turn" : "Hand " + late + "'s seat to the bot";
    tick();
  }

  function ask(what) {
    if (state && send) { send({ type: "clock", what: what, version: state.version }); }
  }
  skip.addEventListener("click", function () { ask("skip"); });
  end.addEventListener("click", function () { ask("end"); });
  document.addEventListener("motherlode:state", function (ev) { send = ev.detail.send; render(ev.detail.state); });
  setInterval(tick, 200);
})();
