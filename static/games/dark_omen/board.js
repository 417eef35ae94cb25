/* Dark Omen: an Obstacle Throw (or a runehenge) turns the obstacle layers, and every page
   sees them turn (issue 15). A layer is one <g class="do-turn"> rotated by its position
   (templates/games/dark_omen/board.html); a live update swaps it for one at the new
   position. Before the update, remember each layer's position; after it, start the new
   element at the old angle and let the CSS transition turn it by the rolled number of
   sectors: 1–6 clockwise or counter-clockwise (DO L169-171), the short way otherwise.
   The Underworld's vortices (chapter 4) glide from their old spaces to their new ones the
   round the middle ring (DO L534-535): each is remembered by its place in the list.
   Also: a lit element's choices and costs as a tip on hover or focus, on a narrow
   screen the scrolling map starts with this page's hero in view, and in one column the
   market starts folded. */
(function () {
  "use strict";
  if (window.umbraDarkOmenBoard) return; // a swapped fragment may bring this script again
  window.umbraDarkOmenBoard = true;
  var SECTORS = 37;
  var STEP = 360 / SECTORS;
  var before = {};
  var vorticesBefore = {};

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

  // A vortex's transform is rotate · translate · rotate back: a pure move, whose matrix's
  // e and f say where it stands in the map's coordinates.
  function vortexSpots() {
    var out = {};
    document.querySelectorAll(".do-vortex[data-vortex]").forEach(function (g) {
      var m = g.transform.baseVal.consolidate();
      if (m) out[g.dataset.vortex] = [m.matrix.e, m.matrix.f];
    });
    return out;
  }

  // Along the ring, the short way (a vortex moves 2–12 spaces round the middle ring, DO
  // L534-535), from the map's centre, where the layers turn too.
  function glide(g, from) {
    var m = g.transform.baseVal.consolidate();
    if (!m || typeof g.animate !== "function") return;
    var to = [m.matrix.e, m.matrix.f];
    if (Math.abs(to[0] - from[0]) < 0.5 && Math.abs(to[1] - from[1]) < 0.5) return;
    if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    var a0 = Math.atan2(from[1], from[0]);
    var a1 = Math.atan2(to[1], to[0]);
    var turn = a1 - a0;
    if (turn > Math.PI) turn -= 2 * Math.PI;
    if (turn < -Math.PI) turn += 2 * Math.PI;
    var r0 = Math.hypot(from[0], from[1]);
    var r1 = Math.hypot(to[0], to[1]);
    var frames = [];
    for (var i = 0; i <= 12; i++) {
      var t = i / 12;
      var a = a0 + turn * t;
      var r = r0 + (r1 - r0) * t;
      frames.push({ transform: "translate(" + r * Math.cos(a) + "px," + r * Math.sin(a) + "px)" });
    }
    g.dataset.moved = "1";
    g.animate(frames, { duration: 1200, easing: "cubic-bezier(.45, .05, .35, 1)" });
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

  // One column (a phone): the market's stock, open for the page's shopper, starts folded
  // when it first appears (its buy buttons are its prices, not the side panel's choices),
  // so the hero's sheet follows the map; once there, the reader's open or closed stays
  // (static/umbra.js keeps a <details> as it was across live updates).
  var ONE_COLUMN = "(max-width: 900px)";
  var hadMarket = false;
  function foldNewMarket() {
    var market = document.getElementById("do-market-stock");
    if (market && !hadMarket && window.matchMedia && window.matchMedia(ONE_COLUMN).matches) market.open = false;
    hadMarket = !!market;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", foldNewMarket);
  else foldNewMarket();

  document.addEventListener("htmx:wsBeforeMessage", function () {
    hideTip();
    before = positions();
    vorticesBefore = vortexSpots();
    hadMarket = !!document.getElementById("do-market-stock");
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.querySelectorAll(".do-turn[data-layer]").forEach(function (g) {
      var was = before[g.dataset.layer];
      if (was !== undefined && was !== Number(g.dataset.pos)) turn(g, was);
    });
    before = {};
    document.querySelectorAll(".do-vortex[data-vortex]").forEach(function (g) {
      var was = vorticesBefore[g.dataset.vortex];
      if (was) glide(g, was);
    });
    vorticesBefore = {};
    foldNewMarket();
  });
})();
