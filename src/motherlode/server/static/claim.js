/* The match page's "play this seat as <account>" form: the seat's token (from the
   invitation link or this browser's storage, as match.js keeps it) goes in the form,
   which proves the seat to the server. Shown only where this browser holds a token. */
(function () {
  "use strict";
  var form = document.getElementById("claim");
  var root = document.getElementById("match");
  if (!form || !root) { return; }
  var hash = /[#&]t=([^&]+)/.exec(location.hash);
  var token = hash ? decodeURIComponent(hash[1]) : null;
  if (!token) {
    try { token = localStorage.getItem("motherlode:" + root.dataset.match); } catch (e) { token = null; }
  }
  if (!token) { return; }
  document.getElementById("claim-token").value = token;
  form.hidden = false;
}());
