/* The Gan Deng Yan table: select several cards, choose a reading when a joker makes the
 * selection ambiguous, play, pass (P), clear (Esc); the deal shown with a tap to skip it.
 * The rest is every table's (table.js).
 */
(function () {
  "use strict";
  var T = window.CardTable;

  var ORDER = "3456789TJQKA2";
  var kept = { version: null, cards: [] }; // the selection, kept across a refused play
  var dealTimer = null;
  var dealStart = 0;
  var dealRound = null;

  var board = T.board;
  var cards = T.cards;
  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  function selectedCodes() {
    return cards().filter(function (b) { return b.classList.contains("is-selected"); })
      .map(function (b) { return b.dataset.card; });
  }

  // A selection up to suit and joker, as the server writes it for each legal play.
  function signature(codes) {
    var ranks = [], jokers = 0;
    codes.forEach(function (c) {
      if (c === "BJ" || c === "RJ") jokers += 1; else ranks.push(ORDER.indexOf(c[0]));
    });
    ranks.sort(function (a, b) { return a - b; });
    return ranks.map(function (r) { return ORDER[r]; }).join("") + "*".repeat(jokers);
  }

  // The selections that read more than one way, with their readings (from the server).
  function readingsData() {
    var el = document.querySelector("#board .readings-data");
    if (!el) return {};
    try { return JSON.parse(el.textContent || "{}"); } catch (e) { return {}; }
  }

  function readingsOf(codes) {
    if (!codes.length) return [];
    return readingsData()[signature(codes)] || [];
  }

  function setCombo(combo) {
    var form = document.getElementById("play-form");
    if (form) form.querySelector("input[name=combo]").value = combo ? JSON.stringify(combo) : "";
  }

  // Keep the form's card inputs, the Play button and the reading chips in step with the
  // selection on screen.
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
    var found = readingsOf(codes);
    setCombo(null); // one reading or none: the server reads it, or says why not
    showReadings(found);
  }

  function showReadings(found) {
    var box = document.getElementById("readings");
    if (!box) return;
    var chips = box.querySelector(".readings__chips");
    chips.innerHTML = "";
    if (found.length < 2) { box.hidden = true; return; }
    found.forEach(function (p) {
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "reading-chip";
      chip.dataset.combo = JSON.stringify(p.combo);
      chip.dataset.testid = "reading";
      chip.setAttribute("data-testid", "reading");
      chip.textContent = p.label;
      // The reading Hint chose is marked; it is still the player who plays it.
      var b = board();
      var key = p.combo.kind + ":" + p.combo.low + ":" + p.combo.high;
      if (b && b.dataset.hintCombo === key) chip.classList.add("is-suggested");
      chips.appendChild(chip);
    });
    box.hidden = false;
  }

  function toggle(btn) {
    T.setSelected(btn, !btn.classList.contains("is-selected"));
    sync();
  }

  function clearSelection() {
    cards().forEach(function (b) { T.setSelected(b, false); });
    sync();
  }

  function play() {
    var form = document.getElementById("play-form");
    if (!form || !form.querySelector("[data-play]")) return;
    var codes = selectedCodes();
    if (!codes.length) { T.toast(T.page().dataset.reasonNone); return; }
    var found = readingsOf(codes);
    if (found.length > 1) {
      // Several readings: the chips above the hand say which one is meant.
      T.toast(T.page().dataset.reasonAmbiguous);
      var first = document.querySelector("#readings .reading-chip");
      if (first) first.focus();
      return;
    }
    T.send(form); // one reading, or none: then the server says why, and nothing changes
  }

  function pass() {
    var form = document.getElementById("pass-form");
    if (form && document.querySelector("#board [data-pass]")) { T.clearToast(); T.send(form); }
  }

  // -- the deal, shown once per round, skipped by a tap or a key

  function skipDeal() {
    var b = board();
    if (!b || !b.classList.contains("is-dealing")) return false;
    endDeal();
    return true;
  }

  function endDeal() {
    if (dealTimer) { window.clearTimeout(dealTimer); dealTimer = null; }
    var b = board();
    if (b) b.classList.remove("is-dealing");
    var veil = document.getElementById("deal-veil");
    if (veil) veil.hidden = true;
  }

  function maybeDeal() {
    var b = board();
    var p = T.page();
    if (!b || !p) return;
    var key = "gdy-dealt-" + p.dataset.table;
    var seen = null;
    try { seen = sessionStorage.getItem(key); } catch (e) { /* private mode */ }
    if (seen === b.dataset.round) return;
    try { sessionStorage.setItem(key, b.dataset.round); } catch (e) { /* ignore */ }
    if (b.dataset.fresh !== "1" || reducedMotion()) return;
    var n = cards().length;
    b.classList.add("is-dealing");
    dealStart = Date.now();
    dealRound = b.dataset.round;
    var veil = document.getElementById("deal-veil");
    if (veil) veil.hidden = false;
    dealTimer = window.setTimeout(endDeal, 160 * n + 500);
  }

  // -- after every board the server sends

  function afterBoard() {
    var b = board();
    if (!b) return;
    if (dealTimer) {
      // A board that arrives during the deal carries it on where it was.
      if (b.dataset.round === dealRound) {
        b.classList.add("is-dealing");
        b.style.setProperty("--deal-elapsed", (Date.now() - dealStart) + "ms");
      } else {
        endDeal();
      }
    }
    var marked = cards().filter(function (c) { return c.classList.contains("is-selected"); });
    if (!marked.length && kept.version === b.dataset.version && kept.cards.length) {
      // A refused play: the board is unchanged, and so is the selection.
      cards().forEach(function (c) {
        if (kept.cards.indexOf(c.dataset.card) >= 0) T.setSelected(c, true);
      });
    }
    sync();
    maybeDeal();
  }

  T.use({
    intercept: skipDeal,
    tap: toggle, // a dimmed card too: the server says why the play it makes is refused
    click: function (evt) {
      var chip = evt.target.closest(".reading-chip");
      if (chip) {
        setCombo(JSON.parse(chip.dataset.combo));
        T.send(document.getElementById("play-form"));
        return true;
      }
      if (evt.target.closest("[data-play]")) { evt.preventDefault(); play(); return true; }
      if (evt.target.closest("[data-pass]")) { pass(); return true; }
      if (evt.target.closest("[data-clear]")) { clearSelection(); return true; }
      return false;
    },
    // Enter plays, P passes, Esc clears (Space on a card selects it, as a click).
    key: function (evt, card) {
      if (card && evt.key === "Enter") { evt.preventDefault(); play(); return; }
      var typing = evt.target.closest && evt.target.closest("input, select, textarea");
      if (typing || evt.ctrlKey || evt.metaKey || evt.altKey) return;
      if (evt.key === "p" || evt.key === "P") { pass(); return; }
      if (evt.key === "Escape") { clearSelection(); }
    },
    afterBoard: afterBoard,
  });
})();
