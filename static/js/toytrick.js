/* Toy Trick (the game for the tests only): a card is tapped to choose it and tapped again,
 * or Play pressed, to play it. Everything else is every table's (table.js). */
(function () {
  "use strict";
  var T = window.CardTable;

  function form() { return document.getElementById("play-form"); }

  function choose(card) {
    var f = form();
    T.cards().forEach(function (other) { T.setSelected(other, other === card); });
    f.querySelector("input[name=card]").value = card ? card.dataset.card : "";
    var play = f.querySelector("[data-play]");
    if (play) play.disabled = !card;
  }

  T.use({
    canTap: function (card) { return card.classList.contains("is-playable"); },
    tap: function (card) {
      if (!card.classList.contains("is-selected")) { choose(card); return; }
      var f = form();
      if (!f.querySelector("input[name=card]").value) { T.toast(T.page().dataset.reasonNone); return; }
      T.send(f);
    },
    // A Hint's card comes marked from the server; a card played or no longer playable is
    // chosen no more.
    afterBoard: function () {
      if (!form()) return;
      choose(document.querySelector("#board .hand__card.is-selected.is-playable"));
    },
  });
})();
