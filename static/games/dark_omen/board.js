/* Dark Omen: an Obstacle Throw (or a runehenge) turns the obstacle layers, and every page
   sees them turn (issue 15). A layer is one <g class="do-turn"> rotated by its position
   (templates/games/dark_omen/board.html); a live update swaps it for one at the new
   position. Before the update, remember each layer's position; after it, start the new
   element at the old angle and let the CSS transition turn it by the rolled number of
   sectors: 1–6 clockwise or counter-clockwise (DO L169-171), the short way otherwise.
   Also: a lit element's choices and costs as a tip on hover or focus, and on a narrow
   screen the scrolling map starts with this page's hero in view. */
(function () {
  "use strict";
  if (window.umbraDarkOmenBoard) return; // a swapped fragment may bring this script again
  window.umbraDarkOmenBoard = true;
  var SECTORS = 37;
  var STEP = 360 / SECTORS;
  var before = {};

  function positions() {
    var out = {};
    document.querySelectorAll(".do-turn[data-layer]").forEach(function (g) {
      out[g.dataset.layer] = Number(g.dataset.pos);
    });
    return out;
  }

  function steps(was, now) {
    var clockwise = ((now - was) % SECTORS + SECTORS) % SECTORS;
    if (clockwise <= 6) return clockwise;
    if (SECTORS - clockwise <= 6) return clockwise - SECTORS;
    return clockwise <= SECTORS / 2 ? clockwise : clockwise - SECTORS;
  }

  function turn(g, was) {
    var now = Number(g.dataset.pos);
    var by = steps(was, now);
    var to = now * STEP;
    g.classList.remove("do-turning");
    g.style.transform = "rotate(" + (to - by * STEP) + "deg)";
    g.getBoundingClientRect(); // the start angle takes effect before the transition
    g.classList.add("do-turning");
    g.style.transform = "rotate(" + to + "deg)";
    g.dataset.turned = String(by);
  }

  // On a narrow screen the map scrolls (its numbers stay readable): start with this
  // page's own hero in the middle of the view.
  function centreMine() {
    var box = document.querySelector(".do-map-scroll");
    var mine = box && box.querySelector(".do-figure-mine");
    if (!mine || box.scrollWidth <= box.clientWidth) return;
    var b = box.getBoundingClientRect();
    var m = mine.getBoundingClientRect();
    box.scrollLeft += m.left + m.width / 2 - (b.left + b.width / 2);
    box.scrollTop += m.top + m.height / 2 - (b.top + b.height / 2);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", centreMine);
  else centreMine();

  // A lit space, place or token says what clicking it does and costs before the click
  // (its choices' labels and costs, from this page's prompt buttons).
  var tip = null;
  function hideTip() {
    if (tip) tip.remove();
    tip = null;
  }
  function showTip(el) {
    var selector = '#prompts button.choice[data-target="' + CSS.escape(el.dataset.target) + '"]';
    var lines = Array.prototype.map.call(document.querySelectorAll(selector), function (b) {
      var label = b.querySelector(".label");
      var detail = b.querySelector(".detail");
      return (label ? label.textContent : b.textContent).trim() + (detail ? " · " + detail.textContent.trim() : "");
    });
    if (!lines.length) return hideTip();
    tip = tip || document.createElement("div");
    tip.className = "do-tip";
    tip.setAttribute("role", "tooltip");
    tip.textContent = lines.join("\n");
    document.body.appendChild(tip);
    var box = el.getBoundingClientRect();
    tip.style.left = box.left + window.scrollX + box.width / 2 + "px";
    tip.style.top = box.top + window.scrollY - 6 + "px";
  }
  function onPoint(e) {
    var el = e.target.closest && e.target.closest(".do-map .is-target[data-target]");
    if (el) showTip(el);
    else hideTip();
  }
  document.addEventListener("mouseover", onPoint);
  document.addEventListener("focusin", onPoint);

  document.addEventListener("htmx:wsBeforeMessage", function () {
    hideTip();
    before = positions();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.querySelectorAll(".do-turn[data-layer]").forEach(function (g) {
      var was = before[g.dataset.layer];
      if (was !== undefined && was !== Number(g.dataset.pos)) turn(g, was);
    });
    before = {};
  });
})();
