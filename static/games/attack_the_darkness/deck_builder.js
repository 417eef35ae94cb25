// Attack the Darkness's deck builder in the lobby (templates/games/attack_the_darkness/
// option_deck.html): "+"/"−" per card, live counts, every broken rule as the server words
// it (POST …/options/deck/check, app/games/attack_the_darkness/builder.py), decks saved in
// this browser by name and shared as the short text. "Use this deck" hands the text to the
// lobby's field for the seat (the "umbra:option-value" event, static/umbra.js); the server
// checks it again when the table is made. Loaded with each builder panel: it wires only
// the panels not wired yet.
(function () {
  "use strict";
  var STORE = "umbra.attack_the_darkness.decks";

  function copyPile(p) {
    var out = {};
    Object.keys(p || {}).forEach(function (k) { out[k] = p[k]; });
    return out;
  }
  function savedDecks() {
    try {
      var all = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(all) ? all.filter(function (d) { return d && typeof d.name === "string" && typeof d.text === "string"; }) : [];
    } catch (err) {
      return [];
    }
  }
  function storeDecks(all) {
    try { localStorage.setItem(STORE, JSON.stringify(all)); return true; } catch (err) { return false; }
  }

  function init(root) {
    if (root.dataset.ready) return;
    root.dataset.ready = "1";
    var data = JSON.parse(root.querySelector(".atd-builder-data").textContent);
    var base = JSON.parse(root.querySelector(".atd-builder-check").textContent);
    var $ = function (sel) { return root.querySelector(sel); };
    var textBox = $(".atd-b-text"), problemsBox = $(".atd-b-problems"), said = $(".atd-b-said");
    var deck = { resources: copyPile(data.start.resources), actions: copyPile(data.start.actions) };
    var answer = null; // the server's last check of the current deck; null while one is on its way
    var asked = 0, timer = null, waiting = [];

    function pileOf(id) {
      if (id in deck.resources) return "resources";
      if (id in deck.actions) return "actions";
      return data.kinds[id] === "action" ? "actions" : "resources";
    }
    function count(id) { return deck[pileOf(id)][id] || 0; }
    function total(p) { return Object.keys(deck[p]).reduce(function (n, k) { return n + deck[p][k]; }, 0); }
    function deckText() {
      var part = function (p) {
        return Object.keys(deck[p]).filter(function (k) { return deck[p][k] > 0; })
          .map(function (k) { return deck[p][k] + " " + (data.names[k] || k); }).join(", ");
      };
      return part("resources") + "; " + part("actions");
    }
    function say(text) { said.textContent = text; }

    function draw() {
      root.querySelectorAll(".atd-b-card").forEach(function (li) {
        var id = li.dataset.card, n = count(id);
        li.querySelector(".atd-b-n").textContent = String(n);
        li.classList.toggle("atd-b-in", n > 0);
        li.querySelector(".atd-b-minus").setAttribute("aria-disabled", n > 0 ? "false" : "true");
        var full = n >= data.max[id] || !!data.refused[id];
        li.querySelector(".atd-b-plus").setAttribute("aria-disabled", full ? "true" : "false");
      });
      var counts = { resources: total("resources"), actions: total("actions") };
      Object.keys(data.cores).forEach(function (core) { counts["core:" + core] = deck.resources[core] || 0; });
      root.querySelectorAll("[data-count]").forEach(function (el) {
        var key = el.dataset.count, want = key.indexOf("core:") === 0 ? data.cores[key.slice(5)] : data.deckSize;
        el.querySelector("b").textContent = String(counts[key]);
        el.classList.toggle("atd-b-off", counts[key] !== want);
      });
      textBox.value = deckText();
    }

    function showProblems() {
      problemsBox.textContent = "";
      if (answer === null) {
        problemsBox.innerHTML = '<p class="atd-muted">Checking…</p>';
        return;
      }
      var list = answer.problems || [];
      if (!list.length) {
        var ok = document.createElement("p");
        ok.className = "atd-ok";
        ok.textContent = "A legal " + data.className + " deck: every rule of deck building is met (AtD L298-327).";
        problemsBox.appendChild(ok);
        return;
      }
      list.forEach(function (p) {
        var line = document.createElement("p");
        line.className = "summary-error";
        line.dataset.code = p.code;
        line.textContent = p.message;
        problemsBox.appendChild(line);
      });
    }

    // One check at a time matters: only the answer to the latest deck is shown.
    function check(text, then) {
      var mine = ++asked;
      answer = null;
      showProblems();
      var body = { value: text, seat: base.seat, seats: base.seats, options: base.options };
      fetch(root.dataset.checkUrl, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      }).then(function (r) {
        return r.json().then(function (j) { return { ok: r.ok, json: j }; });
      }).then(function (res) {
        if (mine !== asked) return;
        answer = res.ok ? res.json : { problems: [res.json.error || { code: "error", message: "the check failed" }] };
        showProblems();
        if (then) then(answer);
        var done = waiting; waiting = [];
        done.forEach(function (f) { f(); });
      }, function () {
        if (mine !== asked) return;
        answer = { problems: [{ code: "offline", message: "the server did not answer: the deck is not checked" }] };
        showProblems();
      });
    }
    function changed() {
      draw();
      answer = null;
      showProblems();
      clearTimeout(timer);
      timer = setTimeout(function () { check(deckText()); }, 150);
    }
    function loadDeck(text, name) {
      check(text, function (a) {
        if (!a.deck) { say("That text is not a deck: see the rule above."); return; }
        deck = { resources: copyPile(a.deck.resources), actions: copyPile(a.deck.actions) };
        draw();
        say("Loaded " + (name || "the text") + ".");
      });
    }

    function step(button, by) {
      var li = button.closest(".atd-b-card"), id = li.dataset.card, name = data.names[id] || id;
      var n = count(id), p = pileOf(id);
      if (by > 0 && data.refused[id]) { say(name + ": " + data.refused[id] + "."); return; }
      if (by > 0 && n >= data.max[id]) {
        say("At most " + data.max[id] + " " + name + (data.cores[id] ? " (AtD L317)." : " (AtD L318, L325)."));
        return;
      }
      if (by < 0 && n === 0) { say("No " + name + " in the deck."); return; }
      deck[p][id] = n + by;
      if (!deck[p][id]) delete deck[p][id];
      say((by > 0 ? "Added " : "Removed ") + name + " (" + (deck[p][id] || 0) + ").");
      changed();
    }

    function use() {
      if (answer === null) { waiting.push(use); say("Checking the deck…"); return; }
      var list = answer.problems || [];
      if (list.length) {
        say("Refused: this deck breaks " + list.length + " rule" + (list.length > 1 ? "s" : "") + " — " + list[0].message + ".");
        return;
      }
      document.dispatchEvent(new CustomEvent("umbra:option-value", {
        detail: { option: root.dataset.option, slot: Number(root.dataset.slot), value: deckText() },
      }));
      say("Written in the seat’s deck box: this deck will be played.");
    }

    function drawSaved() {
      var list = $(".atd-b-saved");
      list.textContent = "";
      savedDecks().forEach(function (d, i) {
        if (d.cls !== data.class) return;
        var li = document.createElement("li");
        var name = document.createElement("span");
        name.textContent = d.name;
        var load = document.createElement("button");
        load.type = "button"; load.textContent = "Load"; load.setAttribute("aria-label", "Load " + d.name);
        load.addEventListener("click", function () { loadDeck(d.text, d.name); });
        var del = document.createElement("button");
        del.type = "button"; del.textContent = "Delete"; del.setAttribute("aria-label", "Delete " + d.name);
        del.addEventListener("click", function () {
          var all = savedDecks(); all.splice(i, 1); storeDecks(all); drawSaved(); say("Deleted " + d.name + ".");
        });
        li.append(name, " ", load, " ", del);
        list.appendChild(li);
      });
      if (!list.children.length) {
        var none = document.createElement("li");
        none.className = "atd-muted";
        none.textContent = "No " + data.className + " deck saved in this browser yet.";
        list.appendChild(none);
      }
    }
    function save() {
      var field = $(".atd-b-name"), name = field.value.trim() || field.placeholder;
      var all = savedDecks().filter(function (d) { return !(d.name === name && d.cls === data.class); });
      all.push({ name: name, cls: data.class, text: deckText() });
      say(storeDecks(all) ? "Saved “" + name + "” in this browser." : "This browser refuses to save decks.");
      drawSaved();
    }
    function copyText() {
      textBox.select();
      var done = function () { say("Copied the deck text."); };
      if (navigator.clipboard) navigator.clipboard.writeText(textBox.value).then(done, function () { document.execCommand("copy"); done(); });
      else { document.execCommand("copy"); done(); }
    }
    function close() {
      var slot = root.dataset.slot, holder = root.parentElement;
      var opener = document.querySelector('.option-editor-open[data-editor-slot="' + slot + '"]');
      if (holder) holder.textContent = "";
      if (opener) opener.focus();
    }

    root.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b || !root.contains(b)) return;
      if (b.classList.contains("atd-b-plus")) step(b, 1);
      else if (b.classList.contains("atd-b-minus")) step(b, -1);
      else if (b.classList.contains("atd-b-use")) use();
      else if (b.classList.contains("atd-b-reset")) {
        deck = { resources: copyPile(data.sample.resources), actions: copyPile(data.sample.actions) };
        say("Back to the pre-constructed deck.");
        changed();
      } else if (b.classList.contains("atd-b-copy")) copyText();
      else if (b.classList.contains("atd-b-load")) loadDeck(textBox.value, "");
      else if (b.classList.contains("atd-b-save")) save();
      else if (b.classList.contains("atd-b-close")) close();
    });
    // The builder's fields are not the lobby's options: their typing must not refresh the
    // lobby's summary nor submit its form.
    ["input", "change"].forEach(function (type) {
      root.addEventListener(type, function (e) {
        e.stopPropagation();
        if (e.target.classList.contains("atd-b-filter")) filter(e.target.value);
      });
    });
    // A pasted text is loaded at once (the "Load this text" button does it for typed text).
    textBox.addEventListener("paste", function () {
      setTimeout(function () { loadDeck(textBox.value, "the pasted text"); }, 0);
    });
    root.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { close(); return; }
      if (e.key !== "Enter" || e.target.tagName !== "INPUT") return;
      e.preventDefault();
      if (e.target.classList.contains("atd-b-name")) save();
    });
    function filter(value) {
      var words = value.toLowerCase().split(/\s+/).filter(Boolean);
      root.querySelectorAll(".atd-b-card").forEach(function (li) {
        var text = li.dataset.search;
        li.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
      });
    }

    draw();
    drawSaved();
    check(deckText());
    var title = root.querySelector("h3");
    if (title) { title.focus(); if (title.scrollIntoView) title.scrollIntoView({ block: "start" }); }
  }

  function initAll() { document.querySelectorAll(".atd-builder").forEach(init); }
  if (!window.atdDeckBuilder) {
    window.atdDeckBuilder = true;
    document.addEventListener("htmx:afterSettle", initAll);
  }
  initAll();
})();
