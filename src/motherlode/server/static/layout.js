/* motherlode board layout for a narrow page (a phone). Game-agnostic: a board SVG may
   carry, anywhere in it, an element with
     data-narrow="x y w h"  the view box of its layout for a narrow page,
     data-shift="dx dy"     how far its side elements (those with data-side) move there,
     data-below="700"       the page width (CSS pixels) under which that layout is used.
   Under that width the board gets the narrow view box (and its width and height) and its
   side elements the shift (an element's own data-side="dx dy" wins); above it, its own.
   Applied whenever a board is drawn or patched (the "motherlode:board" event of match.js and replay.js) and when the window
   is resized. (Yukon: its side panel goes under the grid, so the grid takes a phone's
   width; Chinagold: its panel and legend under the hexagon.) */
(function () {
  "use strict";
  var host = document.getElementById("board");
  if (!host) { return; }

  function apply() {
    var svg = host.querySelector("svg");
    var hint = svg && svg.querySelector("[data-narrow]");
    if (!hint) { return; }
    if (!svg.dataset.wideView) {
      svg.dataset.wideView = [svg.getAttribute("viewBox"), svg.getAttribute("width"), svg.getAttribute("height")].join("|");
    }
    var narrow = window.innerWidth < (parseFloat(hint.getAttribute("data-below")) || 700);
    var wide = svg.dataset.wideView.split("|");
    var box = narrow ? hint.getAttribute("data-narrow") : wide[0];
    var v = box.trim().split(/\s+/);
    svg.setAttribute("viewBox", box);
    svg.setAttribute("width", narrow ? v[2] : wide[1]);
    svg.setAttribute("height", narrow ? v[3] : wide[2]);
    svg.classList.toggle("tall", parseFloat(svg.getAttribute("height")) / parseFloat(svg.getAttribute("width")) > 1.25);
    var shift = narrow ? "translate(" + hint.getAttribute("data-shift") + ")" : null;
    svg.querySelectorAll("[data-side]").forEach(function (el) {
      var own = el.getAttribute("data-side").trim().split(/\s+/);
      var move = own.length === 2 ? "translate(" + own.join(" ") + ")" : shift;
      if (narrow) { el.setAttribute("transform", move); } else { el.removeAttribute("transform"); }
    });
    svg.dataset.layout = narrow ? "narrow" : "wide";
  }

  document.addEventListener("motherlode:board", apply);
  window.addEventListener("resize", apply);
  apply();
}());
