/* The Gong Zhu table: one card at a time (a tap selects it, a second tap or Play plays it),
 * and the exposure form's "Expose nothing". The rest is every table's (table.js).
 *
 * The exposure ticks are the player's until Confirm: kept in the tab's sessionStorage (by
 * table and hand), they survive a reload and every new board the socket sends meanwhile. A
 * Hint's ticks come from the server and replace them.
 */
(function () {
  "use strict";
  var T = window.CardTable;

  function select(btn) {
    T.cards().forEach(function (b) { if (b !== btn) T.setSelected(b, false); });
    T.setSelected(btn, true);
    var form = btn.closest("form");
    form.querySelector("input[name=card]").value = btn.dataset.card;
    var play = form.querySelector("[data-play]");
    if (play) play.disabled = false;
  }

  function playSelected(form) {
    var card = form.querySelector("input[name=card]").value;
    if (!card) { T.toast(T.page().dataset.reasonNone); return; }
    T.send(form);
  }

  function exposureKey() {
    var b = T.board();
    return "gz-expose:" + T.page().dataset.table + ":" + (b ? b.dataset.hand : "");
  }

  function store(fn) {
    try { return fn(window.sessionStorage); } catch (e) { return null; } // private mode
  }

  function saveTicks(form) {
    var ticked = Array.prototype.slice.call(form.querySelectorAll("input[name=cards]:checked"))
      .map(function (c) { return c.value; });
    store(function (s) { s.setItem(exposureKey(), JSON.stringify(ticked)); });
  }

  function restoreTicks() {
    var form = document.getElementById("exposure-form");
    if (!form) return;
    var saved = store(function (s) { return s.getItem(exposureKey()); });
    if (saved === null) return;
    var ticked = [];
    try { ticked = JSON.parse(saved) || []; } catch (e) { ticked = []; }
    form.querySelectorAll("input[name=cards]").forEach(function (c) {
      c.checked = ticked.indexOf(c.value) >= 0;
    });
  }

  document.addEventListener("change", function (evt) {
    var form = evt.target.closest && evt.target.closest("#exposure-form");
    if (form && evt.target.name === "cards") saveTicks(form);
  });

  // A decision sent while another player decided at the same moment comes back refused as
  // stale (the table's version moved on, though nothing this player sees changed): it is
  // sent again, once, on the new board with the same ticks.
  var sent = null;
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (form.id !== "exposure-form") return;
    saveTicks(form);
    sent = { key: exposureKey(), version: T.board().dataset.version, again: false };
  }, true);

  function decideAgain() {
    var form = document.getElementById("exposure-form");
    var b = T.board();
    if (!sent || !form || !b) { if (!form) sent = null; return; }
    if (sent.key !== exposureKey() || sent.again) { sent = null; return; }
    if (b.dataset.version === sent.version) return;
    sent.again = true;
    T.clearToast();
    // A moment later, on the form then on the page: the socket extension takes a new board's
    // forms in hand after the swap (a form it has not yet would submit as a page load).
    setTimeout(function () {
      var now = document.getElementById("exposure-form");
      if (!now) return;
      if (window.htmx) window.htmx.process(now);
      T.send(now);
    }, 120);
  }

  // The exposure form and the hand under it, on one screen while the player decides: where
  // the window is too short for the felt above them too (a phone), the page scrolls once per
  // hand so that the hand's bottom is in view, the form's top still in view.
  // Not before the page has loaded: a reload puts the window back where it was, after.
  var shownFor = null;
  function showExposure() {
    if (document.readyState !== "complete") return;
    var form = document.getElementById("exposure-form");
    var me = document.getElementById("me");
    var hand = document.querySelector("#board .hand");
    if (!form || !me || !hand || shownFor === exposureKey()) return;
    shownFor = exposureKey();
    var bottom = hand.getBoundingClientRect().bottom + 8 - window.innerHeight;
    var top = me.getBoundingClientRect().top - 4;
    var by = Math.min(bottom, top);
    if (by > 0) window.scrollBy({ top: by, behavior: "instant" });
  }

  window.addEventListener("load", function () { setTimeout(showExposure, 0); });

  T.use({
    canTap: function (btn) { return btn.classList.contains("is-playable"); },
    tap: function (btn) {
      if (btn.classList.contains("is-selected")) playSelected(btn.closest("form"));
      else select(btn);
    },
    click: function (evt) {
      if (evt.target.closest("#exposure-form button[data-hint]")) {
        // The Hint's ticks arrive with the next board: they replace the kept ones.
        store(function (s) { s.removeItem(exposureKey()); });
        return false; // table.js sends the hint
      }
      var none = evt.target.closest("[data-expose-none]");
      if (!none) return false;
      none.form.querySelectorAll("input[name=cards]").forEach(function (c) { c.checked = false; });
      saveTicks(none.form);
      return true; // the submit goes on with no card checked
    },
    // A selection made by a Hint arrives from the server already marked: keep the form in step.
    // The hand stays on the page from frame to frame (only its state and the cards played
    // change), so a card no longer selected or playable (played, or the turn gone) leaves the
    // form too.
    afterBoard: function () {
      restoreTicks();
      decideAgain();
      showExposure();
      var sel = document.querySelector("#board .hand__card.is-selected.is-playable");
      if (sel) { select(sel); return; }
      T.cards().forEach(function (b) { T.setSelected(b, false); });
      var form = document.getElementById("play-form");
      if (!form) return;
      form.querySelector("input[name=card]").value = "";
      var play = form.querySelector("[data-play]");
      if (play) play.disabled = true;
    },
  });
})();
