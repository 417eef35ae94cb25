// Umbra's small client: live-connection status, resuming from the last seq, copy buttons,
// retrying a command the server could not store yet, and the replay scrubber. Everything
// else is htmx. The Content-Security-Policy allows no inline script, so behaviour lives here
// (keyed on data-* attributes), never in on*= or hx-on attributes.
(function () {
  "use strict";

  // Nothing here needs eval (hx-on, js: in hx-vals, trigger filters), and the CSP forbids it.
  htmx.config.allowEval = false;

  // Swap error responses too: the server answers a refused command with the reason.
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "[45]..", swap: true, error: true },
  ];

  // After a lost connection (a server restart, a network blip) try again soon, backing off
  // to at most 8 s between attempts (the extension's default waits up to 64 s).
  htmx.config.wsReconnectDelay = function (retries) {
    var cap = Math.min(8000, 250 * Math.pow(2, retries));
    return cap / 2 + Math.random() * cap / 2;
  };

  // On every (re)connect ask only for what this page has not seen yet.
  htmx.createWebSocket = function (url) {
    var marker = document.getElementById("seq");
    if (marker) {
      var u = new URL(url, window.location.href);
      u.searchParams.set("after", marker.dataset.seq || "0");
      url = u.toString();
    }
    return new WebSocket(url);
  };

  function setConn(state, text) {
    var el = document.getElementById("conn");
    if (el) { el.dataset.state = state; el.textContent = text; }
  }
  document.addEventListener("htmx:wsConnecting", function () { setConn("connecting", "connecting…"); });
  document.addEventListener("htmx:wsOpen", function () {
    setConn("live", "live");
    var flash = document.getElementById("flash");
    if (flash && flash.dataset.offline) { flash.className = "flash"; flash.textContent = ""; delete flash.dataset.offline; }
  });

  // An error the page tells the reader of itself, in the flash a refusal is shown in.
  function say(text) {
    var flash = document.getElementById("flash");
    if (!flash) return;
    flash.className = "flash flash-error";
    flash.textContent = text;
  }

  // A button pressed while the server is unreachable: say so instead of doing nothing.
  function offline() {
    say("Could not reach the server, so nothing was done. Try again once the page shows “live”.");
    var flash = document.getElementById("flash");
    if (flash) flash.dataset.offline = "1";
    answered(false, null);
  }
  document.addEventListener("htmx:sendError", offline);
  document.addEventListener("htmx:timeout", offline);
  // 4409: this seat was opened on another device or handed to a new player. A seat page
  // drops to the live spectator page (which says why) rather than stay with dead buttons.
  var CLOSE_SEAT_MOVED = 4409;
  document.addEventListener("htmx:wsClose", function (e) {
    var code = e.detail && e.detail.event ? e.detail.event.code : 0;
    var moved = document.querySelector("[data-seat-moved]");
    if (code === CLOSE_SEAT_MOVED && moved) {
      setConn("closed", "seat moved");
      window.location.replace(moved.dataset.seatMoved);
      return;
    }
    if (code >= 4000) { setConn("closed", "disconnected"); }
    else { setConn("reconnecting", "reconnecting…"); }
  });

  // A seat page that reconnects after its seat moved (it was offline when the socket would
  // have said so) is sent the players panel of a spectator, with no seat of its own in it:
  // it drops to the watch page the same way.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var moved = document.querySelector("[data-seat-moved]");
    if (moved && document.getElementById("seats") && !document.querySelector("#seats .seat-mine")) {
      window.location.replace(moved.dataset.seatMoved);
    }
  });

  // A refused click (someone else moved first, say) is said in #flash until the next update:
  // the server stamps the seq it refused at (data-seq; else the page's seq when it showed),
  // and the first live update past that seq clears the message.
  function pageSeq() {
    var marker = document.getElementById("seq");
    return marker ? Number(marker.dataset.seq || "0") : 0;
  }
  function stampFlash() {
    var flash = document.getElementById("flash");
    if (flash && flash.classList.contains("flash-error") && !flash.dataset.seq) flash.dataset.seq = String(pageSeq());
  }
  function clearPassedFlash() {
    var flash = document.getElementById("flash");
    if (!flash || !flash.classList.contains("flash-error") || flash.dataset.offline || !flash.dataset.seq) return;
    if (pageSeq() > Number(flash.dataset.seq)) {
      flash.className = "flash";
      flash.textContent = "";
      delete flash.dataset.seq;
    }
  }
  document.addEventListener("htmx:afterSwap", stampFlash);
  document.addEventListener("htmx:wsAfterMessage", clearPassedFlash);

  // A form with data-command-id="<prefix>" sends a command_id made here with each message;
  // a retry below resends it unchanged, so the server stores the message once.
  function newCommandId(prefix) {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return prefix + "-" + Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt;
    if (elt.dataset && elt.dataset.commandId && !e.detail.parameters.command_id) {
      e.detail.parameters.command_id = newCommandId(elt.dataset.commandId);
    }
  });
  // A choice's button carries no seq (it stays the same HTML while its choice is offered, so
  // a live update need not redraw it): the click sends the seq the page shows (#seq, kept
  // current by the live updates). The server makes the command id from it and the command,
  // so a double click (or a retry below, which resends these very parameters) acts once,
  // and a click on a page the table has moved past is refused as stale. The seq goes first
  // (the command set again after it), the order a retry's form has too: the very same body.
  document.addEventListener("htmx:configRequest", function (e) {
    var params = e.detail.parameters;
    if (/\/act$/.test(e.detail.path || "") && params.command && !params.seq) {
      var command = params.command;
      delete params.command;
      params.seq = String(pageSeq());
      params.command = command;
    }
  });

  // A form with data-reset-on-success empties once the server took it (the chat box), unless
  // the reader typed something else meanwhile.
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt, sent = e.detail.requestConfig && e.detail.requestConfig.formData;
    if (!e.detail.successful || !form.matches || !form.matches("form[data-reset-on-success]")) return;
    var unchanged = true;
    new FormData(form).forEach(function (value, name) {
      if (sent && sent.has(name) && sent.get(name) !== value) unchanged = false;
    });
    if (unchanged) form.reset();
  });

  // A setting's checkbox (.switch) the server refused goes back to how it was; a taken one
  // is redrawn by the live update that follows.
  document.addEventListener("htmx:afterRequest", function (e) {
    var box = e.detail.elt;
    if (e.detail.successful || !box.matches || !box.matches(".switch input[type=checkbox]")) return;
    if (e.detail.xhr && e.detail.xhr.status === 503) return; // retried below, as sent
    box.checked = !box.checked;
  });

  // 503 + Retry-After: the server is reconnecting to its database and stored nothing. Send
  // the very same request again (same element, same parameters; commands carry a fixed
  // command_id, so a retry cannot act twice) after Retry-After seconds, up to MAX_RETRIES.
  var RETRY_HEADER = "X-Umbra-Retry";
  var MAX_RETRIES = 10;
  function retryDelay(xhr) {
    var seconds = Number(xhr.getResponseHeader("Retry-After"));
    if (!(seconds > 0)) seconds = 1;
    return Math.min(seconds, 10) * 1000;
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    var d = e.detail, xhr = d.xhr, config = d.requestConfig;
    if (!xhr || xhr.status !== 503 || !config || !d.target || d.target.id !== "flash") return;
    d.shouldSwap = false;
    var tries = Number(config.headers[RETRY_HEADER] || 0);
    if (tries >= MAX_RETRIES) {
      say("The server could not reach its database, so nothing was done. Try again in a while.");
      return;
    }
    say("The server is reconnecting to its database; retrying…");
    var values = new FormData();
    config.formData.forEach(function (value, name) { values.append(name, value); });
    var headers = {};
    headers[RETRY_HEADER] = String(tries + 1);
    var elt = config.elt;
    setTimeout(function () {
      // A live update may have replaced the button meanwhile: then send from the page itself.
      var source = elt && elt.isConnected ? elt : document.body;
      htmx.ajax(config.verb, config.path, {
        source: source, values: values, headers: headers, target: "#flash", swap: "outerHTML",
      });
    }, retryDelay(xhr));
  });

  document.addEventListener("click", function (e) {
    var copy = e.target.closest("[data-copy]");
    if (copy) {
      var input = document.querySelector(copy.dataset.copy);
      if (!input) return;
      input.select();
      var done = function () { copy.textContent = "Copied"; setTimeout(function () { copy.textContent = "Copy"; }, 1500); };
      if (navigator.clipboard) { navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); }); }
      else { document.execCommand("copy"); done(); }
      return;
    }
    var step = e.target.closest("[data-step], [data-move]");
    if (step) {
      var range = document.getElementById("replay-seq");
      if (!range) return;
      var at = Number(range.value), next = at;
      if (step.dataset.step) {
        next = at + Number(step.dataset.step);
      } else {
        // To the end of the next (or previous) command: a whole move at a time.
        var form = step.closest("[data-moves]");
        var ends = form && form.dataset.moves ? form.dataset.moves.split(",").map(Number) : [];
        if (Number(step.dataset.move) > 0) {
          next = ends.find(function (s) { return s > at; });
          if (next === undefined) next = Number(range.max);
        } else {
          var before = ends.filter(function (s) { return s < at; });
          next = before.length ? before[before.length - 1] : 0;
        }
      }
      range.value = String(Math.max(0, Math.min(Number(range.max), next)));
      range.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });

  // Keep a <details> the reader opened open when a live update replaces its fragment.
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var d = e.detail;
    if (!d || !d.target || !d.fragment) return;
    d.target.querySelectorAll("details[id]").forEach(function (el) {
      var twin = d.fragment.querySelector("#" + CSS.escape(el.id));
      if (twin) twin.open = el.open;
    });
  });

  // Boards you click. A board marks what a command may act on with data-target (the same
  // render for every viewer); this page's prompt buttons carry the data-target of the board
  // element they stand for. Each marked element with a live button here becomes a button
  // itself (focusable, role, label, a visible style) that presses the same prompt button,
  // so it sends the very same command. Several choices on one element open a small menu.
  var TARGET_BUTTONS = "#prompts button.choice[data-target]";
  function targetButtons() {
    var byTarget = {};
    document.querySelectorAll(TARGET_BUTTONS).forEach(function (b) {
      if (b.disabled) return;
      (byTarget[b.dataset.target] = byTarget[b.dataset.target] || []).push(b);
    });
    return byTarget;
  }
  function buttonLabel(b) {
    var label = b.querySelector(".label");
    return (label ? label.textContent : b.textContent).trim();
  }
  function wireTargets() {
    var byTarget = targetButtons();
    document.querySelectorAll("[data-target]").forEach(function (el) {
      if (el.closest("#prompts") || el.closest(".target-menu")) return;
      var buttons = byTarget[el.dataset.target];
      if (buttons) {
        el.classList.add("is-target");
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", buttons.map(buttonLabel).join(" or "));
        if (buttons.length > 1) el.setAttribute("aria-haspopup", "menu");
        else el.removeAttribute("aria-haspopup");
      } else if (el.classList.contains("is-target")) {
        el.classList.remove("is-target");
        ["tabindex", "role", "aria-label", "aria-haspopup"].forEach(function (a) { el.removeAttribute(a); });
      }
    });
  }
  function closeTargetMenu(refocus) {
    var menu = document.getElementById("target-menu");
    if (!menu) return;
    var owner = menu.owner;
    menu.remove();
    if (refocus && owner && owner.isConnected) owner.focus({ preventScroll: true });
  }
  function openTargetMenu(el, buttons) {
    closeTargetMenu(false);
    var menu = document.createElement("div");
    menu.id = "target-menu";
    menu.className = "target-menu";
    menu.setAttribute("role", "menu");
    menu.setAttribute("aria-label", el.getAttribute("aria-label") || "Choose");
    menu.owner = el;
    buttons.forEach(function (b) {
      var item = document.createElement("button");
      item.type = "button";
      item.setAttribute("role", "menuitem");
      item.textContent = buttonLabel(b);
      item.addEventListener("click", function () {
        closeTargetMenu(false);
        pressChoice(b);
      });
      menu.appendChild(item);
    });
    var box = el.getBoundingClientRect();
    menu.style.left = Math.max(4, box.left + window.scrollX) + "px";
    menu.style.top = (box.bottom + window.scrollY + 4) + "px";
    document.body.appendChild(menu);
    menu.querySelector("button").focus();
  }
  function pressChoice(button) {
    // The button itself sends the command (same hx-vals, same command_id); the focus comes
    // back to its id (or its board element) after the update that follows.
    lastPressed = pressed(button, button.dataset.target || null, true, button.id);
    button.click();
  }
  function activateTarget(el) {
    var buttons = targetButtons()[el.dataset.target] || [];
    if (buttons.length === 1) {
      pressChoice(buttons[0]);
      lastPressed = pressed(el, el.dataset.target, false, buttons[0].id);
    } else if (buttons.length > 1) {
      openTargetMenu(el, buttons);
    }
  }
  document.addEventListener("click", function (e) {
    var el = e.target.closest && e.target.closest(".is-target[data-target]");
    if (el && !el.closest("#prompts")) { e.preventDefault(); activateTarget(el); return; }
    var menu = document.getElementById("target-menu");
    if (menu && !menu.contains(e.target)) closeTargetMenu(false);
    var choice = e.target.closest && e.target.closest("#prompts button.choice");
    if (choice) lastPressed = pressed(choice, null, true, choice.id);
  });
  document.addEventListener("keydown", function (e) {
    var menu = document.getElementById("target-menu");
    if (menu && menu.contains(e.target)) {
      var items = Array.prototype.slice.call(menu.querySelectorAll("button"));
      var at = items.indexOf(e.target);
      if (e.key === "Escape") { e.preventDefault(); closeTargetMenu(true); }
      else if (e.key === "ArrowDown") { e.preventDefault(); items[(at + 1) % items.length].focus(); }
      else if (e.key === "ArrowUp") { e.preventDefault(); items[(at - 1 + items.length) % items.length].focus(); }
      return;
    }
    var el = e.target.closest && e.target.closest(".is-target[data-target]");
    if (el && el === e.target && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      activateTarget(el);
    }
  });

  // Focus kept across live swaps: a live update replaces fragments whole, and the element
  // that had the focus with them. Remember it (by its stable id, or the board element's
  // target) before the swap and give the focus back after: to the same id if it is still
  // offered, else the same board target, else the first choice of the prompts.
  // A press the server has not answered yet waits for its answer (the live update of someone
  // else's move may come first): taken, the focus comes back as above; refused, it goes to
  // the refusal in #flash, never to another action the player did not choose (Enter there
  // would send it).
  var lastPressed = null;
  var savedFocus = null;
  // What was pressed: the element (a choice, or the board element standing for it), its id
  // and target as the focus is kept, and the id of the choice that sends the command.
  function pressed(el, target, inPrompts, choice) {
    return {
      el: el, id: el.id || null, target: target, inPrompts: inPrompts, at: Date.now(),
      choice: choice, pending: true, deferred: false,
    };
  }
  function waiting() {
    return lastPressed && lastPressed.pending && Date.now() - lastPressed.at < 30000;
  }
  function focusRefusal(press) {
    var a = document.activeElement;
    var lost = !a || a === document.body || !a.isConnected || a.disabled;
    if (!lost && a !== press.el) return; // the reader has put the focus elsewhere meanwhile
    var flash = document.getElementById("flash");
    if (flash && flash.textContent.trim()) flash.focus();
    else if (!lost) a.blur();
  }
  function answered(taken, sender) {
    var press = lastPressed;
    if (!press || !press.pending || (sender && sender !== press.choice)) return;
    press.pending = false;
    if (!taken) {
      lastPressed = null;
      focusRefusal(press);
    } else if (press.deferred) {
      lastPressed = null;
      restoreFocus(press);
    }
  }
  function focusNow() {
    var a = document.activeElement;
    if (a && a !== document.body && a.isConnected && !a.disabled) {
      return { id: a.id || null, target: a.dataset ? a.dataset.target || null : null, inPrompts: !!a.closest("#prompts") };
    }
    // A pressed button is disabled while its command is sent and may have lost the focus.
    if (lastPressed && Date.now() - lastPressed.at < 30000) return lastPressed;
    return null;
  }
  function restoreFocus(saved) {
    if (!saved) return;
    var a = document.activeElement;
    if (a && a !== document.body && a.isConnected && !a.disabled) return; // still has it
    if (waiting()) { lastPressed.deferred = true; return; } // the press's answer decides
    var el = saved.id ? document.getElementById(saved.id) : null;
    if (el && (el.disabled || (el.dataset.target && !el.closest("#prompts") && !el.classList.contains("is-target")))) el = null;
    if (!el && saved.target) el = document.querySelector('.is-target[data-target="' + CSS.escape(saved.target) + '"]');
    if (!el) el = document.querySelector("#prompts button.choice:not([disabled])");
    if (el) el.focus({ preventScroll: true });
  }
  // The server's answer to a choice is swapped into #flash (a 503 is not: it is sent again,
  // from the page itself if the button has gone): below 400, the command was taken.
  document.addEventListener("htmx:afterSwap", function (e) {
    var d = e.detail, config = d && d.requestConfig;
    if (!config || !d.xhr || e.target.id !== "flash" || !/\/act$/.test(config.path || "")) return;
    answered(d.xhr.status < 400, config.headers[RETRY_HEADER] ? null : config.elt && config.elt.id);
  });
  // A click elsewhere (not on a choice, a board target or its menu) means the reader moved
  // on: a later update then leaves the focus where the reader put it.
  document.addEventListener("pointerdown", function (e) {
    if (!e.target.closest || !e.target.closest("#prompts button.choice, .is-target, .target-menu")) lastPressed = null;
  });
  document.addEventListener("htmx:wsBeforeMessage", function () {
    savedFocus = focusNow();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    wireTargets();
    var menu = document.getElementById("target-menu");
    if (menu && !(menu.owner && menu.owner.isConnected && menu.owner.classList.contains("is-target"))) closeTargetMenu(false);
    restoreFocus(savedFocus);
    if (lastPressed && savedFocus === lastPressed && !lastPressed.pending) lastPressed = null;
    savedFocus = null;
  });
  document.addEventListener("htmx:afterSettle", wireTargets);
  document.addEventListener("DOMContentLoaded", wireTargets);

  // Undone moves struck through: an undo's log line names the seqs it took back
  // (data-undone="first-last"); mark those lines wherever they are, including older lines a
  // "Show earlier entries" page brings in after the undo's own line.
  function strikeUndone() {
    var spans = [];
    document.querySelectorAll("#log-entries [data-undone]").forEach(function (undo) {
      var bounds = undo.dataset.undone.split("-").map(Number);
      if (bounds.length === 2 && bounds[0] <= bounds[1]) spans.push(bounds);
    });
    if (!spans.length) return;
    document.querySelectorAll("#log-entries .log-entry[data-seq]").forEach(function (li) {
      var seq = Number(li.dataset.seq);
      var undone = spans.some(function (s) { return seq >= s[0] && seq <= s[1]; });
      li.classList.toggle("log-undone", undone);
      if (undone) li.setAttribute("title", "Taken back");
    });
  }
  document.addEventListener("htmx:wsAfterMessage", strikeUndone);
  document.addEventListener("htmx:afterSettle", strikeUndone);
  document.addEventListener("DOMContentLoaded", strikeUndone);

  // "Your turn" noticed in a background tab. When this seat's page gets a new prompt while
  // the tab is hidden, the title says so until the tab is seen again; a short beep (only if
  // the player switched the sound on: remembered in localStorage, off by default) and a
  // system notification (only once the player granted it with the button: never asked on
  // load). The prompt's choices make its signature, so a repeated update does not alert twice.
  var SOUND_KEY = "umbra.turnSound";
  var TURN_MARK = "\u25cf Your turn \u2014 ";
  var plainTitle = document.title;
  var alertedFor = "";
  var audio = null;
  function promptSignature() {
    var ids = [];
    document.querySelectorAll("#prompts button.choice").forEach(function (b) { ids.push(b.id); });
    return ids.join(",");
  }
  function soundOn() {
    try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (err) { return false; }
  }
  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume();
    var osc = audio.createOscillator(), gain = audio.createGain(), now = audio.currentTime;
    osc.type = "sine";
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.3);
  }
  function notifyTurn() {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try {
      var note = new Notification("Your turn", { body: plainTitle, tag: "umbra-turn-" + location.pathname });
      note.onclick = function () { window.focus(); note.close(); };
    } catch (err) { /* some browsers allow notifications only from a service worker */ }
  }
  function checkTurn() {
    if (!document.querySelector("[data-turn-alerts]")) return;
    var signature = promptSignature();
    if (!signature) { alertedFor = ""; return; }
    if (!document.hidden || signature === alertedFor) return;
    alertedFor = signature;
    // The player handed their seat to the bot: it answers, so the tab need not call them.
    if (document.querySelector("#seats .seat-mine .tag-bot")) return;
    document.title = TURN_MARK + plainTitle;
    if (soundOn()) beep();
    notifyTurn();
  }
  function syncTurnControls() {
    var sound = document.getElementById("turn-sound");
    if (sound) sound.checked = soundOn();
    var ask = document.getElementById("turn-notify");
    if (ask) {
      var state = "Notification" in window ? Notification.permission : "unsupported";
      ask.hidden = state !== "default";
      ask.dataset.permission = state;
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && document.title.indexOf(TURN_MARK) === 0) document.title = plainTitle;
  });
  document.addEventListener("change", function (e) {
    if (e.target.id !== "turn-sound") return;
    try { localStorage.setItem(SOUND_KEY, e.target.checked ? "on" : "off"); } catch (err) { /* private mode */ }
    if (e.target.checked) beep(); // a gesture unlocks the audio and lets the player hear it
  });
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("#turn-notify") || !("Notification" in window)) return;
    Notification.requestPermission().then(syncTurnControls, syncTurnControls);
  });
  document.addEventListener("htmx:wsAfterMessage", checkTurn);
  document.addEventListener("DOMContentLoaded", function () {
    plainTitle = document.title;
    syncTurnControls();
    if (document.hidden) checkTurn(); else alertedFor = promptSignature();
  });

  // The lobby, for any game's options (templates/lobby.html draws them from their schema):
  // name each seat choice after the player typed for it (seats are numbered in the order of
  // the names given, empty ones skipped, as the server reads them); offer only as many
  // choices as a count option asks for (one per thing counted); show a per-seat pick only for
  // seats that will exist; hide (and leave out) an option while the option it depends on
  // has another value.
  function fieldValue(field) {
    if (!field) return undefined;
    if (field.type === "checkbox") return field.checked;
    if (field.type === "number") return field.value === "" ? undefined : Number(field.value);
    return field.value;
  }
  function setApplies(box, on) {
    box.hidden = !on;
    box.querySelectorAll("input, select").forEach(function (f) { f.disabled = !on; });
  }
  function syncLobby(form) {
    var inputs = Array.prototype.slice.call(form.querySelectorAll('input[name="seat"]'));
    var typed = inputs.map(function (i) { return i.value.trim(); });
    var names = typed.filter(Boolean);
    form.querySelectorAll("option[data-seat]").forEach(function (opt) {
      var i = Number(opt.dataset.seat);
      opt.textContent = names[i] || "Seat " + (i + 1);
    });
    form.querySelectorAll("[data-depends-on]").forEach(function (box) {
      var controller = form.querySelector('[name="opt_' + box.dataset.dependsOn + '"]');
      var wanted = JSON.parse(box.dataset.dependsValues || "[]");
      var value = fieldValue(controller);
      var on = !!controller && !controller.disabled && wanted.some(function (v) { return v === value || String(v) === String(value); });
      setApplies(box, on);
    });
    form.querySelectorAll("[data-count-option]").forEach(function (box) {
      if (box.hidden) return;
      var field = form.querySelector('[name="opt_' + box.dataset.countOption + '"]');
      var count = field && field.value !== "" ? Number(field.value) : Infinity;
      box.querySelectorAll("[data-slot]").forEach(function (slot) {
        var off = Number(slot.dataset.slot) >= count;
        slot.hidden = off;
        slot.querySelector("select").disabled = off;
      });
    });
    form.querySelectorAll("[data-per-seat]").forEach(function (box) {
      if (box.hidden) return;
      box.querySelectorAll("[data-seat-slot]").forEach(function (slot) {
        var i = Number(slot.dataset.seatSlot);
        // Hidden but still sent: the server pairs each pick with the name field beside it.
        slot.hidden = !typed[i] && !(inputs[i] && inputs[i].required);
        var who = typed[i] || "Seat " + (i + 1);
        slot.querySelectorAll("[data-seat-name]").forEach(function (label) { label.textContent = who; });
        var select = slot.querySelector("select");
        if (select) select.setAttribute("aria-label", box.querySelector("legend").textContent + ": " + who);
      });
    });
  }
  function syncFrom(e) {
    var form = e.target.closest && e.target.closest(".lobby-form");
    if (form) syncLobby(form);
  }
  document.addEventListener("input", syncFrom);
  document.addEventListener("change", syncFrom);
  document.addEventListener("htmx:afterSettle", syncFrom);
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".lobby-form").forEach(syncLobby);
  });

  // A game's editor of a lobby option (a deck builder, app/web/option_editors.py) hands its
  // text back as an "umbra:option-value" event {option, slot, value}: it goes into that
  // seat's field, and the summary is refreshed as if it had been typed there.
  document.addEventListener("umbra:option-value", function (e) {
    var d = e.detail || {};
    var box = document.querySelector('[data-per-seat="' + CSS.escape(String(d.option)) + '"]');
    var slot = box && box.querySelector('[data-seat-slot="' + Number(d.slot) + '"]');
    var field = slot && slot.querySelector('[name="opt_' + CSS.escape(String(d.option)) + '"]');
    if (!field) return;
    field.value = d.value;
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
  });

  document.addEventListener("input", function (e) {
    if (e.target.id === "replay-seq") {
      var out = document.getElementById("replay-pos");
      if (out) out.textContent = e.target.value + " / " + e.target.max;
    }
  });

  document.addEventListener("keydown", function (e) {
    var range = document.getElementById("replay-seq");
    if (!range || e.target.tagName === "INPUT" && e.target !== range) return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (e.target === range) return; // the slider handles its own arrows
      var attr = e.shiftKey ? "data-move" : "data-step";
      var btn = document.querySelector("[" + attr + '="' + (e.key === "ArrowLeft" ? "-1" : "1") + '"]');
      if (btn) { btn.click(); e.preventDefault(); }
    }
  });
})();
