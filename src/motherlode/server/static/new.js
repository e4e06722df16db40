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
