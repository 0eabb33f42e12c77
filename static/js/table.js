/* What every card table does in the browser; each game's own script (static/js/<game>.js)
 * adds what only it does, through CardTable.use(hooks).
 *
 * The server decides everything: these scripts only collect the player's choice and send it
 * through the htmx ws extension (forms with ws-send), explain refusals in the toast, move the
 * keyboard focus over the hand, and keep the socket connected.
 *
 * Hooks (all optional; the game's script runs after this one, before the page is ready):
 *   intercept()      before any click or key: true swallows it (a deal being shown skips);
 *   canTap(card)     on the player's turn, may this card be tapped? (else its reason shows);
 *   tap(card)        what a tap on an allowed card does (select, play, toggle…);
 *   click(evt)       the game's own buttons: true when it handled the click;
 *   key(evt, card)   a key the arrows did not take (card: the focused hand card, or null);
 *   afterBoard()     after the page loads and after every frame, before the focus returns.
 *
 * A game whose plays take several cards hands over CardTable.multiSelect({signature, …}):
 * the selection with its play form, reading chips, Play, Pass and Clear (see below).
 */
(function () {
  "use strict";

  var game = {};

  function board() { return document.getElementById("board"); }
  function page() { return document.querySelector(".table-page"); }
  function cards() { return Array.prototype.slice.call(document.querySelectorAll("#board .hand__card")); }
  // The hand's state as the server sent it (#hand-state): myTurn, bidding, playable, …
  function handState() {
    var st = document.getElementById("hand-state");
    return st ? st.dataset : {};
  }
  // The player is wanted: their turn to play, or a turn timer running for them (at a table
  // for people, also where everyone decides at once, as Gong Zhu's exposures).
  function myTurn() {
    var b = board();
    return !!(b && (b.classList.contains("is-my-turn") || b.querySelector(".turn-timer")));
  }

  // A key meant for the table: not typed into a field, not with a modifier (a browser's own).
  function plainKey(evt) {
    var typing = evt.target.closest && evt.target.closest("input, select, textarea");
    return !typing && !evt.ctrlKey && !evt.metaKey && !evt.altKey;
  }

  function setSelected(btn, on) {
    btn.classList.toggle("is-selected", on);
    btn.setAttribute("aria-selected", on ? "true" : "false");
  }

  function toast(text) {
    var el = document.getElementById("toast");
    if (!el || !text) return;
    el.innerHTML = "";
    var p = document.createElement("p");
    p.className = "toast__msg";
    p.textContent = text;
    el.appendChild(p);
  }

  function clearToast() {
    var el = document.getElementById("toast");
    if (el) el.innerHTML = "";
  }

  function send(form) {
    form.classList.add("is-sending");
    form.requestSubmit();
  }

  // A form for the socket never loads a page: one sent before htmx has taken it would load
  // the table again with its fields in the address. In the page's first moments (no socket
  // yet) it is dropped: the socket's first board makes the page take input again. A form of a
  // board the socket swapped in a moment ago, sent before htmx took it in hand (a busy
  // machine's few milliseconds: the click was lost, seen in CI), is taken in hand now and
  // sent, once. (htmx's own handler, where it has one, has cancelled the submit already.)
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!form.hasAttribute("ws-send") || evt.defaultPrevented) return;
    evt.preventDefault();
    if (!socketUp || form.__sentAgain || !window.htmx) return;
    form.__sentAgain = true;
    window.htmx.process(form);
    setTimeout(function () { if (form.isConnected) form.requestSubmit(); }, 0);
  });

  function call(name) {
    var hook = game[name];
    return hook ? hook.apply(null, Array.prototype.slice.call(arguments, 1)) : undefined;
  }

  // -- Several cards to a play (Gan Deng Yan, Dou Dizhu): a tap selects or unselects a card
  // (a dimmed one too: the server says why the play it makes is refused). The selection is
  // the play form's hidden "cards" inputs; one that reads more than one way (the board's
  // .readings-data, keyed by the game's signature of a selection) offers its readings as
  // chips above the hand, and a chip plays its reading. Play (Enter on a card), Pass (P),
  // Clear (Esc); a refused play leaves the selection as it was.
  //   signature(codes)  the key the server writes for a selection's readings;
  //   intercept, canTap, click, key, afterBoard (optional): the game's own, as for use();
  //                     its click and key come after the selection's, its afterBoard after
  //                     the selection is back in step with the new board.
  // Returns the hooks for CardTable.use.
  function multiSelect(own) {
    var kept = { version: null, cards: [] }; // the selection, kept across a refused play

    function selectedCodes() {
      return cards().filter(function (b) { return b.classList.contains("is-selected"); })
        .map(function (b) { return b.dataset.card; });
    }

    // The selections that read more than one way, with their readings (from the server).
    function readingsOf(codes) {
      if (!codes.length) return [];
      var el = document.querySelector("#board .readings-data");
      var data = {};
      if (el) { try { data = JSON.parse(el.textContent || "{}"); } catch (e) { data = {}; } }
      return data[own.signature(codes)] || [];
    }

    function setCombo(combo) {
      var form = document.getElementById("play-form");
      if (form) form.querySelector("input[name=combo]").value = combo ? JSON.stringify(combo) : "";
    }

    // Keep the form's card inputs, the Play and Clear buttons and the reading chips in step
    // with the selection on screen.
    function sync() {
      var form = document.getElementById("play-form");
      if (!form) return;
      var codes = selectedCodes();
      form.querySelectorAll("input[name=cards]").forEach(function (i) { i.remove(); });
      codes.forEach(function (c) {
        var input = document.createElement("input");
        input.type = "hidden"; input.name = "cards"; input.value = c;
        form.appendChild(input);
      });
      var b = board();
      kept = { version: b ? b.dataset.version : null, cards: codes };
      var play = form.querySelector("[data-play]");
      if (play) play.disabled = codes.length === 0;
      var clear = form.querySelector("[data-clear]");
      if (clear) clear.hidden = codes.length === 0;
      setCombo(null); // one reading or none: the server reads it, or says why not
      showReadings(readingsOf(codes));
      askReading(codes);
    }

    // What the selection is as a play ("airplane with wings", "not a combination", "cannot
    // beat pair of 9s"): asked of the server a moment after the selection settles (a read
    // request, not a move), shown in #selection-reading.
    var reading = { timer: null, asked: "", line: null };
    function askReading(codes) {
      clearTimeout(reading.timer);
      var line = document.getElementById("selection-reading");
      var key = codes.slice().sort().join(" ");
      if (!codes.length) {
        if (line) line.textContent = "";
        reading.asked = "";
        var asked = document.getElementById("read-form");
        if (asked) asked.querySelectorAll("input[name=cards]").forEach(function (i) { i.remove(); });
        return;
      }
      // Asked already, and the line is still the one the answer goes to (a new board brings
      // a new, empty line: then ask again).
      if (key === reading.asked && line === reading.line) return;
      reading.timer = setTimeout(function () {
        var form = document.getElementById("read-form");
        if (!form) return;
        form.querySelectorAll("input[name=cards]").forEach(function (i) { i.remove(); });
        codes.forEach(function (c) {
          var input = document.createElement("input");
          input.type = "hidden"; input.name = "cards"; input.value = c;
          form.appendChild(input);
        });
        reading.asked = key;
        reading.line = document.getElementById("selection-reading");
        form.requestSubmit();
      }, 150);
    }

    // The cards a Hint selected carry the reading it chose (the board's data-hint-combo, its
    // chip marked): played as they stand, they are played as that reading.
    // A hint's board comes whole (a new #board): its selection is the hint's, noted once (the
    // frames after it, a selection's reading among them, leave the player's own taps).
    var hinted = { version: null, key: "", cards: "" };
    var noted = new WeakMap();
    function noteHint(b, codes) {
      if (!b.dataset.hintCombo || noted.get(b) === b.dataset.hintCombo) return;
      noted.set(b, b.dataset.hintCombo);
      hinted = { version: b.dataset.version, key: b.dataset.hintCombo, cards: codes.slice().sort().join(" ") };
    }
    function hintedReading(codes, found) {
      var b = board();
      if (found.length < 2 || !b || hinted.version !== b.dataset.version) return null;
      if (codes.slice().sort().join(" ") !== hinted.cards) return null;
      return found.filter(function (p) {
        return p.combo.kind + ":" + p.combo.low + ":" + p.combo.high === hinted.key;
      })[0] || null;
    }

    function showReadings(found) {
      var box = document.getElementById("readings");
      if (!box) return;
      var chips = box.querySelector(".readings__chips");
      var b = board();
      // The same chips stay (every frame calls this): drawn again, a chip being clicked was
      // taken from under the pointer, and a frame that changed nothing here made it miss.
      var shown = JSON.stringify([found, b && b.dataset.hintCombo]);
      if (found.length > 1 && box.dataset.shown === shown && chips.children.length) return;
      box.dataset.shown = shown;
      chips.innerHTML = "";
      if (found.length < 2) { box.hidden = true; return; }
      found.forEach(function (p) {
        var chip = document.createElement("button");
        chip.type = "button";
        chip.className = "reading-chip";
        chip.dataset.combo = JSON.stringify(p.combo);
        chip.setAttribute("data-testid", "reading");
        chip.textContent = p.label;
        // The reading Hint chose is marked; it is still the player who plays it.
        var key = p.combo.kind + ":" + p.combo.low + ":" + p.combo.high;
        if (b && b.dataset.hintCombo === key) chip.classList.add("is-suggested");
        chips.appendChild(chip);
      });
      box.hidden = false;
    }

    function toggle(btn) {
      setSelected(btn, !btn.classList.contains("is-selected"));
      sync();
    }

    // Drag across a run of cards (mouse or finger): every card passed over takes the state
    // the first one takes, as one selection; the click that ends a drag is not a tap.
    var drag = null;
    function cardAt(evt) {
      var el = document.elementFromPoint(evt.clientX, evt.clientY);
      return el && el.closest ? el.closest("#board .combo-hand .hand__card") : null;
    }
    document.addEventListener("pointerdown", function (evt) {
      drag = null;
      var card = evt.target.closest && evt.target.closest("#board .combo-hand .hand__card");
      if (!card || evt.button > 0) return;
      if (handState().myTurn !== "1" || own.canTap && own.canTap(card) === false) return;
      drag = { on: !card.classList.contains("is-selected"), start: card, last: card, moved: false };
    });
    document.addEventListener("pointermove", function (evt) {
      if (!drag) return;
      var card = cardAt(evt);
      if (!card || card === drag.last) return;
      if (!drag.moved) { drag.moved = true; setSelected(drag.start, drag.on); }
      drag.last = card;
      setSelected(card, drag.on);
      evt.preventDefault();
    });
    document.addEventListener("pointerup", function () {
      if (drag && drag.moved) { drag.swallowUntil = Date.now() + 100; sync(); }
      else drag = null;
    });
    document.addEventListener("pointercancel", function () { drag = null; });
    // The click that ends a drag is not a tap: stopped on the window, before the page's own
    // click handlers (on the document) see it.
    window.addEventListener("click", function (evt) {
      if (drag && drag.swallowUntil && Date.now() <= drag.swallowUntil) {
        evt.preventDefault();
        evt.stopPropagation();
      }
      drag = null;
    }, true);

    function clearSelection() {
      cards().forEach(function (b) { setSelected(b, false); });
      sync();
    }

    function play() {
      var form = document.getElementById("play-form");
      if (!form || !form.querySelector("[data-play]")) return;
      var codes = selectedCodes();
      if (!codes.length) { toast(page().dataset.reasonNone); return; }
      var found = readingsOf(codes);
      var pick = hintedReading(codes, found);
      if (pick) { setCombo(pick.combo); send(form); return; }
      if (found.length > 1) {
        // Several readings: the chips above the hand say which one is meant.
        toast(page().dataset.reasonAmbiguous);
        var first = document.querySelector("#readings .reading-chip");
        if (first) first.focus();
        return;
      }
      send(form); // one reading, or none: then the server says why, and nothing changes
    }

    // Options > "Pass by itself": when nothing in the hand can beat the table, pass after a
    // moment (long enough to see why), unless the board has moved on meanwhile.
    function autoPass() {
      var b = board();
      var on = false;
      try { on = localStorage.getItem("autoPass") === "1"; } catch (e) { /* private mode */ }
      if (!on || !b || !b.querySelector("[data-pass][data-nothing-beats]")) return;
      var version = b.dataset.version;
      setTimeout(function () {
        var now = board();
        if (now && now.dataset.version === version && now.querySelector("[data-pass][data-nothing-beats]")) pass();
      }, 900);
    }

    function pass() {
      var form = document.getElementById("pass-form");
      if (form && document.querySelector("#board [data-pass]")) { clearToast(); send(form); }
    }

    return {
      intercept: own.intercept,
      canTap: own.canTap,
      tap: toggle,
      click: function (evt) {
        var chip = evt.target.closest(".reading-chip");
        if (chip) {
          setCombo(JSON.parse(chip.dataset.combo));
          send(document.getElementById("play-form"));
          return true;
        }
        if (evt.target.closest("[data-play]")) { evt.preventDefault(); play(); return true; }
        if (evt.target.closest("[data-pass]")) { pass(); return true; }
        if (evt.target.closest("[data-clear]")) { clearSelection(); return true; }
        return own.click ? own.click(evt) : false;
      },
      // Enter plays, P passes, Esc clears (Space on a card selects it, as a click).
      key: function (evt, card) {
        // Once per press: a held key's repeats would each be a frame refused as out of turn.
        if (card && evt.key === "Enter") { evt.preventDefault(); if (!evt.repeat) play(); return; }
        if (plainKey(evt)) {
          if (evt.key === "p" || evt.key === "P") { if (!evt.repeat) pass(); return; }
          if (evt.key === "Escape") { clearSelection(); return; }
        }
        if (own.key) own.key(evt, card);
      },
      afterBoard: function () {
        var b = board();
        if (!b) return;
        var marked = cards().filter(function (c) { return c.classList.contains("is-selected"); });
        noteHint(b, marked.map(function (c) { return c.dataset.card; }));
        if (!marked.length && kept.version === b.dataset.version && kept.cards.length) {
          // A refused play: the board is unchanged, and so is the selection.
          cards().forEach(function (c) {
            if (kept.cards.indexOf(c.dataset.card) >= 0) setSelected(c, true);
          });
        }
        sync();
        autoPass();
        if (own.afterBoard) own.afterBoard();
      },
    };
  }

  window.CardTable = {
    use: function (hooks) { game = hooks; },
    multiSelect: multiSelect,
    board: board,
    page: page,
    cards: cards,
    handState: handState,
    myTurn: myTurn,
    setSelected: setSelected,
    toast: toast,
    clearToast: clearToast,
    send: send,
  };

  // A tap on a card: refused with its reason while it is not the player's turn (the card's
  // own reason, or the page's) or when the game says no; otherwise the game's tap.
  function tapCard(btn) {
    var mine = handState().myTurn === "1";
    if (!mine || call("canTap", btn) === false) {
      var b = board();
      toast(btn.dataset.reason || (b && b.dataset.waitReason) || page().dataset.reasonWait);
      return;
    }
    clearToast();
    call("tap", btn);
  }

  var hints = { version: null, n: 0 };

  // The capture phase: a swallowed click (the deal skipped) reaches nothing else on the page.
  document.addEventListener("click", function (evt) {
    if (call("intercept")) { evt.preventDefault(); evt.stopPropagation(); return; }
    var btn = evt.target.closest(".hand__card");
    if (btn) { tapCard(btn); return; }
    if (evt.target.closest("[data-summary-close]")) { showSummary(false, true); return; }
    if (evt.target.closest("[data-summary-open]")) { showSummary(true, true); return; }
    if (call("click", evt)) return;
    // The Hint button (the board itself names the hint it shows: data-hint, no button).
    if (evt.target.closest("button[data-hint]")) {
      // Hint again on the same board: the next suggestion (the form's n counts the presses).
      var hf = document.getElementById("hint-form");
      if (hf) {
        var version = board() ? board().dataset.version : null;
        hints.n = hints.version === version ? hints.n + 1 : 0;
        hints.version = version;
        var count = hf.querySelector("input[name=n]");
        if (count) count.value = String(hints.n);
        hf.requestSubmit();
        // Sent (the socket reads the form as it submits): the form is as the server drew it
        // again, since it stays on the page from frame to frame.
        if (count) count.value = "0";
      }
      return;
    }
    var auto = evt.target.closest("[data-auto-pass]");
    if (auto) {
      try { localStorage.setItem("autoPass", auto.checked ? "1" : "0"); } catch (e) { /* private mode */ }
      return;
    }
    if (evt.target.closest("[data-four-colour]")) {
      var on = !document.body.classList.contains("four-colour");
      document.body.classList.toggle("four-colour", on);
      try { localStorage.setItem("fourColour", on ? "1" : "0"); } catch (e) { /* private mode */ }
    }
  }, true);

  // Keyboard: the arrows move between the cards of the hand (Enter and Space press the
  // focused card like a click); the game's own keys after that.
  document.addEventListener("keydown", function (evt) {
    if (call("intercept")) { evt.preventDefault(); return; }
    // Esc closes the table's menu if it is open, else hides a summary on screen.
    if (evt.key === "Escape") {
      var menu = document.querySelector(".table-menu[open]");
      if (menu) { menu.open = false; menu.querySelector("summary").focus(); evt.preventDefault(); return; }
      var box = summaryBox();
      if (box && !box.classList.contains("is-closed")) { showSummary(false, true); evt.preventDefault(); return; }
    }
    var card = (evt.target.closest && evt.target.closest(".hand__card")) || null;
    if (card && (evt.key === "ArrowRight" || evt.key === "ArrowLeft")) {
      evt.preventDefault();
      var all = Array.prototype.slice.call(card.closest(".hand").querySelectorAll(".hand__card"));
      var i = all.indexOf(card);
      all[(i + (evt.key === "ArrowRight" ? 1 : all.length - 1)) % all.length].focus();
      return;
    }
    // H asks for a hint, as the Hint button does: once per press, not once per repeat of a
    // held key (each repeat was a hint asked for, and a flood of them is refused).
    if (plainKey(evt) && (evt.key === "h" || evt.key === "H")) {
      var hint = document.querySelector("#board button[data-hint]");
      if (hint) { evt.preventDefault(); if (!evt.repeat) hint.click(); return; }
    }
    call("key", evt, card);
  });

  // A new board replaces the focused card: on the player's turn the focus goes back to the
  // hand (the selection, else the first playable card), so a keyboard player can go on
  // without reaching for the mouse.
  function afterBoard() {
    call("afterBoard");
    if (openSummary()) return;
    var active = document.activeElement;
    if (active && active !== document.body) return;
    var b = board();
    if (!b || !b.classList.contains("is-my-turn")) return;
    var focus = b.querySelector(".hand__card.is-selected") || b.querySelector(".hand__card.is-playable");
    if (focus) focus.focus({ preventScroll: true });
  }

  // A summary that has just opened starts at its top, the verdict in view, however long it
  // is; its first button takes the focus without scrolling the panel to it. One the player
  // hid stays hidden through the frames that bring it again (until the next deal).
  function openSummary() {
    var panel = document.querySelector("#board .summary__panel");
    if (!panel) { hidden.key = null; return false; }
    placeSummary();
    var hide = hidden.key !== null && hidden.key === summaryKey();
    showSummary(!hide, false);
    if (panel.dataset.opened) return false;
    panel.dataset.opened = "1";
    if (hide) return false;
    var active = document.activeElement;
    var first = panel.querySelector(".button-row .btn");
    if (first && (!active || active === document.body || !panel.contains(active))) first.focus({ preventScroll: true });
    panel.scrollTop = 0;
    return true;
  }

  // The summary as a dialog: × or Esc hides it (the table, its menu and Leave are there
  // again), a button at the bottom of the window shows it again. It sits below the table's
  // bar (--summary-top, the bar's bottom in the window), so the menu stays in reach.
  var hidden = { key: null };
  function summaryBox() { return document.querySelector("#board .summary"); }
  function summaryKey() {
    var box = summaryBox();
    var title = box && box.querySelector("h2");
    return title ? title.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function showSummary(show, focus) {
    var box = summaryBox();
    if (!box) return;
    var panel = box.querySelector(".summary__panel");
    var again = box.querySelector("[data-summary-open]");
    box.classList.toggle("is-closed", !show);
    if (panel) panel.hidden = !show;
    if (again) again.hidden = show;
    hidden.key = show ? null : summaryKey();
    if (!focus) return;
    if (show) {
      placeSummary();
      var first = panel && panel.querySelector(".button-row .btn");
      if (first) first.focus({ preventScroll: true });
    } else if (again) {
      again.focus({ preventScroll: true });
    }
  }
  function placeSummary() {
    var box = summaryBox();
    var bar = document.querySelector(".table-toolbar");
    if (!box || !bar) return;
    box.style.setProperty("--summary-top", Math.max(0, Math.round(bar.getBoundingClientRect().bottom)) + "px");
  }
  window.addEventListener("scroll", placeSummary, { passive: true });
  window.addEventListener("resize", placeSummary);

  // A board the socket sent is marked: the page's own first board can be overtaken by the
  // connect snapshot a moment later (which also clears the toast), so whoever acts on the
  // table first (the browser tests) waits for a board marked synced.
  // The hand's state (#hand-state, a region of its own): which cards may be played now, why
  // the others may not, whose turn. A turn that comes or goes sends that one element, not
  // the hand again; here it is set on the cards (classes, data-playable, data-reason, the
  // words a screen reader adds), before any other script looks at the new board.
  function applyHandState() {
    var st = document.getElementById("hand-state");
    var hand = st && document.querySelector("#board .hand");
    if (!hand) return;
    var playable = (st.dataset.playable || "").split(" ");
    var dim = st.hasAttribute("data-dim");
    var why = st.dataset.why || "";
    var reasons = {};
    try {
      var grouped = JSON.parse(st.dataset.reasons || "{}");
      Object.keys(grouped).forEach(function (r) {
        grouped[r].split(" ").forEach(function (code) { reasons[code] = r; });
      });
    } catch (e) { /* no reasons */ }
    var handCards = hand.querySelectorAll(".hand__card");
    // How many cards the hand holds, for the overlap of the cards (table.css); set here, as
    // the Content-Security-Policy allows no style attribute in the markup.
    hand.style.setProperty("--n", handCards.length);
    handCards.forEach(function (btn, i) {
      var code = btn.dataset.card;
      btn.style.setProperty("--i", i); // its place, for the deal's animation
      var ok = playable.indexOf(code) >= 0;
      btn.classList.toggle("is-playable", ok);
      btn.classList.toggle("is-dimmed", dim && !ok);
      btn.toggleAttribute("data-playable", ok);
      if (reasons[code]) btn.dataset.reason = reasons[code];
      else delete btn.dataset.reason;
      var words = btn.querySelector("[data-why]");
      if (words) words.textContent = !ok && why ? " – " + why : "";
    });
  }
  document.addEventListener("htmx:wsAfterMessage", applyHandState, true);
  document.addEventListener("DOMContentLoaded", applyHandState);

  // A lesson's guide names the parts of the board it speaks of (its data-point: selectors
  // joined by " | "): they glow until the guide moves on.
  function applyPointing() {
    document.querySelectorAll(".is-pointed").forEach(function (el) { el.classList.remove("is-pointed"); });
    var guide = document.getElementById("guide");
    if (!guide || !guide.dataset.point) return;
    guide.dataset.point.split(" | ").forEach(function (selector) {
      try {
        document.querySelectorAll(selector).forEach(function (el) { el.classList.add("is-pointed"); });
      } catch (e) { /* not a selector this browser reads */ }
    });
  }
  document.addEventListener("htmx:wsAfterMessage", applyPointing);
  document.addEventListener("DOMContentLoaded", applyPointing);

  // At a table for people: a person a computer plays for because their turn timer ran out
  // while the page stayed open is back as soon as they touch the page or return to its tab,
  // without having to find the badge's button (opening the page again does it on the server:
  // services.socket_opened).
  function comeBack(evt) {
    var form = document.querySelector("#board form.take-back");
    if (!form || form.classList.contains("is-sending")) return;
    if (evt && evt.target && evt.target.closest && evt.target.closest("form.take-back")) return;
    send(form);
  }
  document.addEventListener("pointerdown", comeBack, true);
  document.addEventListener("keydown", comeBack, true);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) comeBack(); });

  // A <details> of the board with an id (the last trick, the collected cards) that the player
  // opened stays open when a frame brings it again.
  var opened = {};
  document.addEventListener("toggle", function (evt) {
    var d = evt.target;
    if (d.tagName === "DETAILS" && d.id && d.closest("#board")) opened[d.id] = d.open;
    if (d.tagName === "DETAILS" && d.dataset.opens) sendOpen(d);
  }, true);

  // A part the socket sends only while it is open (data-opens: a round's log): the page says
  // when it opens or closes, and again on a new socket (a reconnect starts without it). Only
  // a change is said: a whole board (a hint's, a resync's) brings the part again, open, and
  // its toggle event must not ask for a board again (which would draw it without the hint).
  // Said only on an open socket: before it, htmx may not have taken the form yet, whose
  // submission would then load the page again with the form's fields in its address (and the
  // part closed); the socket's opening says it for every part open by then.
  var told = {};
  var socketUp = false;
  function sendOpen(d) {
    var form = document.getElementById("open-form");
    var part = d.dataset.opens;
    if (!form || !socketUp || told[part] === d.open) return;
    told[part] = d.open;
    form.elements.part.value = part;
    form.elements.open.value = d.open ? "1" : "0";
    form.requestSubmit();
  }
  document.addEventListener("htmx:wsOpen", function () {
    socketUp = true;
    told = {};
    // One opened before this script ran (the page's first moments) stays open too.
    document.querySelectorAll("#board details[id][open]").forEach(function (d) { opened[d.id] = true; });
    document.querySelectorAll("#board details[data-opens][open]").forEach(sendOpen);
  });
  document.addEventListener("htmx:wsClose", function () { socketUp = false; }, true);

  document.addEventListener("htmx:wsAfterMessage", function () {
    Object.keys(opened).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && opened[id] && !d.open) d.open = true;
    });
    var b = board();
    if (b) b.dataset.synced = "1";
    afterBoard();
    // A form sent and answered without being drawn again (a refusal, when its part of the
    // board did not change) takes clicks again, once every other listener has seen it.
    setTimeout(function () {
      document.querySelectorAll("#board .is-sending").forEach(function (f) { f.classList.remove("is-sending"); });
    }, 0);
  });

  // Most frames after the first carry only what changed (games/frames.py): a patch starts
  // with <template data-patch data-base="V"> holding the board element's new opening tag and
  // those of elements where nothing else changed (set in place, by id); the regions that
  // follow replace the elements with their ids (the ws extension swaps them). A patch fits
  // only the board it was made against (version V, every element it names there): otherwise
  // nothing is applied and the page asks for the whole board.
  if (window.htmx) {
    htmx.defineExtension("board-patch", {
      transformResponse: function (text) {
        if (text.lastIndexOf("<template data-patch", 0) !== 0) return text;
        var parsed = document.createElement("template");
        parsed.innerHTML = text;
        var nodes = parsed.content.children;
        var patch = nodes[0];
        var tags = patch.content.children;
        var next = tags[0];
        var b = board();
        var fits = !!(b && next && b.dataset.version === patch.dataset.base);
        for (var i = 1; fits && i < nodes.length; i++) fits = !!document.getElementById(nodes[i].id);
        for (var j = 1; fits && j < tags.length; j++) fits = !!document.getElementById(tags[j].id);
        if (!fits) {
          var resync = document.getElementById("resync-form");
          if (resync) resync.requestSubmit();
          return "";
        }
        // The board element's attributes as the server wrote them, in its order (a fresh
        // render and a patched page must be the same board, attribute for attribute).
        var names = function (el) {
          return Array.prototype.map.call(el.attributes, function (a) { return a.name; });
        };
        var retag = function (el, tag) {
          if (names(el).join(" ") !== names(tag).join(" ")) {
            names(el).forEach(function (n) { el.removeAttribute(n); });
          }
          Array.prototype.forEach.call(tag.attributes, function (a) {
            if (el.getAttribute(a.name) !== a.value) el.setAttribute(a.name, a.value);
          });
        };
        retag(b, next);
        for (var k = 1; k < tags.length; k++) retag(document.getElementById(tags[k].id), tags[k]);
        return text.slice(text.indexOf("</template>") + "</template>".length);
      },
    });
  }

  // A person's move, at a table where they may show the computer players' replies at once
  // (fast-forward), is answered, right after its board, with those replies too in a message
  // of their own (games/frames.py, Frames.ahead): each after a <template data-after="MS">
  // mark, to show MS milliseconds after the message came.
  // They wait here in order and each goes, at its time, through the socket's own path (the
  // ws extension's swap and every listener, as if it had just come). A board that comes
  // first, or the fast-forward button, shows them all at once; a closed socket drops them
  // (the board drawn on reconnecting is the table as shown).
  var AFTER = /<template data-after="(\d+)"><\/template>/;
  var tableSocket = null;
  var waiting = [];
  var waitTimer = null;
  var passing = false;
  document.addEventListener("htmx:wsOpen", function (evt) {
    if (evt.target.matches && evt.target.matches(".table-page[ws-connect]")) tableSocket = evt.detail.event.target;
  }, true);
  function deliver(text) {
    passing = true;
    try { tableSocket.dispatchEvent(new MessageEvent("message", { data: text })); } finally { passing = false; }
  }
  function showDue() {
    waitTimer = null;
    while (waiting.length && waiting[0].at <= performance.now()) deliver(waiting.shift().text);
    if (waiting.length) waitTimer = setTimeout(showDue, Math.max(0, waiting[0].at - performance.now()));
  }
  function showAll() {
    clearTimeout(waitTimer);
    waitTimer = null;
    var all = waiting;
    waiting = [];
    all.forEach(function (w) { deliver(w.text); });
  }
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var text = evt.detail.message;
    if (passing || typeof text !== "string" || !tableSocket) return;
    var split = text.split(AFTER); // [first, ms, step, ms, step, …]
    if (split.length === 1) {
      var isBoard = text.lastIndexOf("<template data-patch", 0) === 0 || text.indexOf('id="board"') >= 0;
      if (waiting.length && isBoard) showAll();
      return;
    }
    evt.preventDefault();
    evt.stopPropagation();
    showAll();
    var now = performance.now();
    if (split[0]) deliver(split[0]);
    for (var i = 1; i + 1 < split.length; i += 2) waiting.push({ at: now + Number(split[i]), text: split[i + 1] });
    showDue();
  }, true);
  document.addEventListener("htmx:wsClose", function () {
    clearTimeout(waitTimer);
    waitTimer = null;
    waiting = [];
  }, true);
  document.addEventListener("submit", function (evt) {
    if (evt.target.classList && evt.target.classList.contains("fast-form")) showAll();
  }, true);

  // The version a move is made on is the board's on screen (the forms' version fields are
  // left empty, so that a part of the board that did not change need not be sent again).
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    var params = evt.detail.parameters;
    var b = board();
    if (params && params.version === "" && b) params.version = b.dataset.version;
  });

  document.addEventListener("DOMContentLoaded", function () {
    try { if (localStorage.getItem("fourColour") === "1") document.body.classList.add("four-colour"); } catch (e) { /* ignore */ }
    try {
      var auto = document.querySelector("[data-auto-pass]");
      if (auto) auto.checked = localStorage.getItem("autoPass") === "1";
    } catch (e) { /* ignore */ }
    afterBoard();
  });

  // The live connection. A table page must come back after every close except the two
  // refusals the server means (4401: log in; 4404: no such table): 1011 from a crash, 4503
  // while the server's database is away, 1000/1001 from a restart or a proxy timeout. The
  // connect snapshot then makes the board whole. The htmx ws extension reconnects by itself
  // only after 1006, 1011, 1012 and 1013, and site.js's page-wide handler gives up on every
  // 44xx, so this script owns the table's socket: its close events stop here (site.js does
  // not see them), it reconnects where the extension does not, and the extension waits with
  // the same capped backoff.
  var REFUSALS = [4401, 4403, 4404];
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013];
  var retries = new WeakMap();

  // 0.25–0.5 s, doubling up to 4–8 s: quick after a blip, never hammering a server that is down.
  function backoff(n) {
    var cap = Math.min(8000, 500 * Math.pow(2, n));
    return cap / 2 + Math.random() * cap / 2;
  }
  if (window.htmx) htmx.config.wsReconnectDelay = backoff;

  function isTableSocket(elt) {
    return elt && elt.matches && elt.matches(".table-page[ws-connect]");
  }

  // online: a dot (its words for screen readers); offline: the words too; closed: refused.
  function setLive(state) {
    var el = document.getElementById("live-status");
    if (!el) return;
    el.dataset.state = state;
    var label = el.querySelector(".live-status__label");
    if (!label) return;
    label.textContent = el.dataset["label" + state.charAt(0).toUpperCase() + state.slice(1)] || "";
    label.classList.toggle("sr-only", state !== "offline");
  }

  document.addEventListener("htmx:wsOpen", function (evt) {
    if (!isTableSocket(evt.target)) return;
    retries.set(evt.target, 0);
    setLive("online");
  }, true);

  document.addEventListener("htmx:wsClose", function (evt) {
    var elt = evt.target;
    if (!isTableSocket(elt)) return;
    evt.stopPropagation(); // capture phase on document: site.js's handler must not reconnect too
    var code = evt.detail.event.code;
    if (REFUSALS.indexOf(code) >= 0) { setLive("closed"); return; }
    setLive("offline");
    if (EXTENSION_RETRIES.indexOf(code) >= 0) return; // the extension reconnects, after backoff()
    var n = retries.get(elt) || 0;
    retries.set(elt, n + 1);
    window.setTimeout(function () {
      if (document.body.contains(elt) && evt.detail.socketWrapper) evt.detail.socketWrapper.reconnect();
    }, backoff(n));
  }, true);
})();
