/* The Gong Zhu table: one card at a time (a tap selects it, a second tap or Play plays it),
 * and the exposure form's "Expose nothing". The rest is every table's (table.js).
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

  T.use({
    canTap: function (btn) { return btn.classList.contains("is-playable"); },
    tap: function (btn) {
      if (btn.classList.contains("is-selected")) playSelected(btn.closest("form"));
      else select(btn);
    },
    click: function (evt) {
      var none = evt.target.closest("[data-expose-none]");
      if (!none) return false;
      none.form.querySelectorAll("input[name=cards]").forEach(function (c) { c.checked = false; });
      return true; // the submit goes on with no card checked
    },
    // A selection made by a Hint arrives from the server already marked: keep the form in step.
    afterBoard: function () {
      var sel = document.querySelector("#board .hand__card.is-selected.is-playable");
      if (sel) select(sel);
    },
  });
})();
