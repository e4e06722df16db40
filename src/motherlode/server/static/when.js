/* Times as people say them ("3 min ago"), the exact time kept in the tooltip. */
(function () {
  "use strict";
  function ago(iso) {
    var then = Date.parse(/Z|[+-]\d\d:?\d\d$/.test(iso) ? iso : iso + "Z");
    if (isNaN(then)) { return null; }
    var s = Math.max(0, Math.round((Date.now() - then) / 1000));
    if (s < 45) { return "just now"; }
    var m = Math.round(s / 60); if (m < 60) { return m + " min ago"; }
    var h = Math.round(m / 60); if (h < 24) { return h + (h === 1 ? " hour ago" : " hours ago"); }
    var d = Math.round(h / 24); if (d < 30) { return d + (d === 1 ? " day ago" : " days ago"); }
    return new Date(then).toLocaleDateString();
  }
  function update() {
    document.querySelectorAll("time[datetime]").forEach(function (t) {
      var text = ago(t.getAttribute("datetime")); if (text) { t.textContent = text; }
    });
  }
  update(); setInterval(update, 30000);
  document.addEventListener("motherlode:times", update);  /* rows added by a script */
})();
