// "Your tables": this browser remembers every table it opened as a player or game master,
// so /tables can list them after the tab was closed. Only table ids and titles are kept
// here (localStorage); the seat and game-master tokens stay in the table's HttpOnly
// cookie, which the browser sends along when /tables asks the server about the tables.
//
// On a table page the script tag carries data-remember="<table id>" and data-title; on
// /tables it fills #your-tables with the rows POST /tables/rows renders.
(function () {
  "use strict";

  var KEY = "umbra.tables.v1";
  var KEEP = 200; // the server answers about at most this many tables at once
  var TABLE_ID = /^[A-Za-z0-9_-]{1,32}$/;
  var script = document.currentScript;

  function load() {
    try {
      var data = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      return data && typeof data === "object" && !Array.isArray(data) ? data : {};
    } catch (e) {
      return {}; // storage off (private mode) or garbage: nothing remembered
    }
  }

  function save(data) {
    try { window.localStorage.setItem(KEY, JSON.stringify(data)); } catch (e) { /* storage off or full */ }
  }

  function remember(tableId, title) {
    if (!TABLE_ID.test(tableId)) return;
    var data = load();
    data[tableId] = { title: String(title || "").slice(0, 120), seen: Date.now() };
    var kept = {};
    remembered(KEEP, data).forEach(function (id) { kept[id] = data[id]; });
    save(kept);
  }

  function forget(tableId) {
    var data = load();
    delete data[tableId];
    save(data);
  }

  // The remembered tables, most recently opened first, at most `max` of them.
  function remembered(max, data) {
    data = data || load();
    return Object.keys(data)
      .filter(function (id) { return TABLE_ID.test(id) && data[id] && typeof data[id] === "object"; })
      .sort(function (a, b) { return (Number(data[b].seen) || 0) - (Number(data[a].seen) || 0); })
      .slice(0, max);
  }

  function showRows(box) {
    var data = load();
    var ids = remembered(Number(box.dataset.max) || KEEP, data);
    fetch("/tables/rows", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "text/html" },
      credentials: "same-origin",
      body: JSON.stringify({ links: ids.map(function (id) { return { table_id: id }; }) }),
    }).then(function (response) {
      return response.text();
    }).then(function (html) {
      box.innerHTML = html; // rendered by the server's (autoescaping) template
      box.querySelectorAll("[data-title-of]").forEach(function (el) {
        var entry = data[el.dataset.titleOf];
        if (entry && entry.title) el.textContent = entry.title;
      });
    }).catch(function () {
      box.innerHTML = "";
      var p = document.createElement("p");
      p.className = "flash flash-error";
      p.textContent = "Could not reach the server to look your tables up. Reload the page to try again.";
      box.appendChild(p);
    });
  }

  var here = script && script.dataset.remember;
  if (here) remember(here, script.dataset.title);

  var box = document.getElementById("your-tables");
  if (!box) return;
  box.addEventListener("click", function (e) {
    var button = e.target.closest("[data-forget]");
    if (!button) return;
    forget(button.dataset.forget);
    var row = button.closest("li");
    if (row) row.remove();
    if (!box.querySelector("li")) showRows(box);
  });
  showRows(box);
})();
