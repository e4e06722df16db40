/* The invitation links: one click selects a link for copying. */
document.querySelectorAll("input.link").forEach(function (input) {
  input.addEventListener("click", function () { input.select(); });
});
