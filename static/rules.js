// Rules at hand (issue 28), on a table page: every citation of the game's rules on the page
// (a greyed-out action's rule, a refusal, a prompt's stakes, a log line) becomes a link that
// opens its entry in a side panel, without leaving or reloading the table; the log can show
// the rule each line applied; a player's first game shows a short guide to the current step.
// The game's data comes in #rules-panel's data-rules (prefix, guides); entries are fetched from
// /games/<game>/rules/entry. Without script the links still lead to the rules page.
(function () {
  "use strict";
  var data = null;
  var pattern = null;
  var lastOpener = null;
  var LINKED = "#prompts .detail, #prompts .reason, #prompts cite, #prompts h3, #flash, #log-entries .text, #status, main.board";
  var GUIDE_KEY = "umbra.guide.";
  var LOG_KEY = "umbra.logRules";

  function readData() {
    var node = document.getElementById("rules-panel");
    if (!node || !node.dataset.rules) return false;
    try { data = JSON.parse(node.dataset.rules); } catch (err) { return false; }
    var prefix = data.prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    pattern = new RegExp("\\b" + prefix + " (?:L\\d+(?:\\s?[–-]\\s?L?\\d+)?|\\d+(?:\\.\\d+)*)(?![\\w.]*\\d)", "g");
    return true;
  }

  function ruleLink(ref, text) {
    var a = document.createElement("a");
    a.className = "rule-ref";
    a.href = "/games/" + data.game + "/rules/go?ref=" + encodeURIComponent(ref);
    a.dataset.ruleRef = ref;
    a.textContent = text || ref;
    a.setAttribute("aria-haspopup", "dialog");
    a.title = "What " + ref + " says";
    return a;
  }

  // Wrap each citation in the text nodes of ``root`` (once: links are skipped).
  function linkify(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        // Not inside a link or a button (a link in a button would steal its click), nor in
        // a drawing (an SVG text cannot hold an HTML link).
        if (n.parentNode && n.parentNode.closest && n.parentNode.closest("a, button, script, svg, .rule-ref")) return NodeFilter.FILTER_REJECT;
        pattern.lastIndex = 0;
        return pattern.test(n.nodeValue) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      }
    });
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var text = node.nodeValue, at = 0, frag = document.createDocumentFragment(), m;
      pattern.lastIndex = 0;
      while ((m = pattern.exec(text))) {
        if (m.index > at) frag.appendChild(document.createTextNode(text.slice(at, m.index)));
        frag.appendChild(ruleLink(m[0]));
        at = m.index + m[0].length;
      }
      if (at < text.length) frag.appendChild(document.createTextNode(text.slice(at)));
      node.parentNode.replaceChild(frag, node);
    });
  }

  function logRules() {
    var on = localStorage.getItem(LOG_KEY) === "on";
    var list = document.getElementById("log-entries");
    var box = document.getElementById("log-rules");
    if (box) box.checked = on;
    if (!list) return;
    list.classList.toggle("show-rules", on);
    if (!on) return;
    list.querySelectorAll("li[data-rule]").forEach(function (li) {
      if (li.querySelector(".log-rule")) return;
      var link = ruleLink(li.dataset.rule);
      link.classList.add("log-rule");
      li.appendChild(document.createTextNode(" "));
      li.appendChild(link);
    });
  }

  function refresh() {
    if (!data) return;
    document.querySelectorAll(LINKED).forEach(linkify);
    logRules();
    guide();
  }

  // -- the side panel ------------------------------------------------------------------------

  function panel() { return document.getElementById("rules-panel"); }

  function openPanel(ref, opener) {
    var aside = panel();
    if (!aside) return false;
    lastOpener = opener || document.activeElement;
    var body = document.getElementById("rules-panel-content");
    var url = "/games/" + data.game + "/rules/entry" + (ref ? "?ref=" + encodeURIComponent(ref) : "");
    aside.hidden = false;
    aside.setAttribute("aria-busy", "true");
    fetch(url, { headers: { "Accept": "text/html" } }).then(function (r) { return r.text(); }).then(function (html) {
      body.innerHTML = html;
      aside.removeAttribute("aria-busy");
      var title = document.getElementById("rules-panel-title") || aside.querySelector(".rules-close");
      if (title) title.focus();
    }, function () {
      body.textContent = "The rules could not be loaded; the connection may be down.";
      aside.removeAttribute("aria-busy");
    });
    return true;
  }

  function closePanel() {
    var aside = panel();
    if (!aside || aside.hidden) return;
    aside.hidden = true;
    if (lastOpener && lastOpener.isConnected && lastOpener.focus) lastOpener.focus();
    lastOpener = null;
  }

  document.addEventListener("click", function (e) {
    if (!data || !e.target.closest) return;
    var link = e.target.closest("a.rule-ref[data-rule-ref]");
    if (link && !e.ctrlKey && !e.metaKey && !e.shiftKey && panel()) {
      e.preventDefault();
      openPanel(link.dataset.ruleRef, link);
      return;
    }
    if (e.target.closest("[data-rules-open]")) { e.preventDefault(); openPanel("", e.target.closest("[data-rules-open]")); return; }
    if (e.target.closest("[data-rules-close]")) { closePanel(); return; }
    if (e.target.closest("[data-guide-dismiss]")) { setGuide(false); return; }
    if (e.target.closest("[data-guide-show]")) { setGuide(true); }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && panel() && !panel().hidden) { e.preventDefault(); closePanel(); }
  });

  document.addEventListener("change", function (e) {
    if (e.target && e.target.id === "log-rules") {
      localStorage.setItem(LOG_KEY, e.target.checked ? "on" : "off");
      logRules();
    }
  });

  // -- your first game -----------------------------------------------------------------------

  function guideWanted() {
    var box = document.getElementById("first-game-guide");
    if (!box) return false;
    var saved = localStorage.getItem(GUIDE_KEY + data.game);
    if (saved) return saved === "on";
    return box.dataset.default === "on"; // players: on until dismissed; GM and spectators: off
  }

  function setGuide(on) {
    localStorage.setItem(GUIDE_KEY + data.game, on ? "on" : "off");
    guide();
    var target = on ? document.getElementById("first-game-guide") : document.querySelector("[data-guide-show]");
    if (target && target.focus) target.focus();
  }

  function guide() {
    var box = document.getElementById("first-game-guide");
    var show = document.querySelector("[data-guide-show]");
    if (!box) return;
    var wanted = guideWanted();
    if (show) show.hidden = wanted;
    var step = document.querySelector("#prompts .prompt:not(.prompt-optional)[data-step]");
    var g = step && data.guides[step.dataset.step];
    if (!wanted || !g) { box.hidden = true; return; }
    var text = box.querySelector(".guide-text");
    if (box.dataset.step !== step.dataset.step) {
      text.textContent = g.text + " ";
      text.appendChild(ruleLink(g.ref, "Read " + g.ref));
      box.dataset.step = step.dataset.step;
    }
    box.hidden = false;
  }

  function start() { if (readData()) refresh(); }
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("htmx:wsAfterMessage", refresh);
})();
