/* The Dou Dizhu table: bids are plain forms; in play, select several cards, choose a
 * reading when the selection reads more than one way, play, pass (P), clear (Esc).
 * The rest is every table's (table.js).
 */
(function () {
  "use strict";
  var T = window.CardTable;

  var ORDER = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ"];
  var kept = { version: null, cards: [] }; // the selection, kept across a refused play

  var board = T.board;
  var cards = T.cards;

  function selectedCodes() {
    return cards().filter(function (b) { return b.classList.contains("is-selected"); })
      .map(function (b) { return b.dataset.card; });
  }

  function rankOf(code) { return code === "BJ" || code === "RJ" ? code : code[0]; }

  // A selection up to suit, as the server writes it for each ambiguous play.
  function signature(codes) {
    return codes.map(rankOf).sort(function (a, b) { return ORDER.indexOf(a) - ORDER.indexOf(b); }).join("");
  }

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
    setCombo(null);
    showReadings(readingsOf(codes));
  }

  function showReadings(found) {
    var box = document.getElementById("readings");
    if (!box) return;
    var chips = box.querySelector(".readings__chips");
    chips.innerHTML = "";
    if (found.length < 2) { box.hidden = true; return; }
    var b = board();
    found.forEach(function (p) {
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "reading-chip";
      chip.dataset.combo = JSON.stringify(p.combo);
      chip.setAttribute("data-testid", "reading");
      chip.textContent = p.label;
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
    if (readingsOf(codes).length > 1) {
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

  function afterBoard() {
    var b = board();
    if (!b) return;
    var marked = cards().filter(function (c) { return c.classList.contains("is-selected"); });
    if (!marked.length && kept.version === b.dataset.version && kept.cards.length) {
      // A refused play: the board is unchanged, and so is the selection.
      cards().forEach(function (c) {
        if (kept.cards.indexOf(c.dataset.card) >= 0) T.setSelected(c, true);
      });
    }
    sync();
  }

  T.use({
    // While bidding the cards are only looked at.
    canTap: function (btn) {
      if (btn.closest(".hand").dataset.bidding === "1") {
        btn.dataset.reason = T.page().dataset.reasonBidding;
        return false;
      }
      return true;
    },
    tap: toggle,
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
