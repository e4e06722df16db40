/* The new-match form: seat rows follow the number of players; a bot's spec box shows
   only for a bot. */
(function () {
  var sel = document.getElementById("opt-players");
  function sync() {
    var n = sel ? parseInt(sel.value, 10) : parseInt(document.getElementById("new-match").dataset.minPlayers, 10);
    document.querySelectorAll(".seatrow").forEach(function (row) {
      row.classList.toggle("inactive", parseInt(row.dataset.seat, 10) >= n);
      var kind = row.querySelector("select").value;
      row.querySelector("input[name$=_spec]").hidden = kind !== "bot";
    });
    var first = document.getElementById("opt-first_player");  /* only the seats in play */
    if (first && first.tagName === "SELECT") {
      Array.prototype.forEach.call(first.options, function (o) { o.hidden = parseInt(o.value, 10) >= n; });
      if (parseInt(first.value, 10) >= n) { first.value = "0"; }
    }
  }
  if (sel) { sel.addEventListener("change", sync); }
  document.querySelectorAll(".seatrow select").forEach(function (s) { s.addEventListener("change", sync); });
  sync();
  var clock = document.getElementById("clock-kind");
  function clockSync() {
    document.querySelectorAll(".clock-fischer, .clock-days, .clock-bot").forEach(function (f) {
      f.hidden = clock.value === "none" || (f.classList.contains("clock-fischer") && clock.value !== "fischer") ||
        (f.classList.contains("clock-days") && clock.value !== "days");
    });
  }
  if (clock) { clock.addEventListener("change", clockSync); clockSync(); }
})();
