/* The Dou Dizhu table: bids are plain forms, and while bidding the cards are only looked
 * at; a selection is known up to suit. Selecting, reading chips, Play, Pass and Clear are
 * every multi-card table's (CardTable.multiSelect in table.js).
 */
(function () {
  "use strict";
  var T = window.CardTable;

  var ORDER = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ"];

  function rankOf(code) { return code === "BJ" || code === "RJ" ? code : code[0]; }

  // A selection up to suit, as the server writes it for each ambiguous play.
  function signature(codes) {
    return codes.map(rankOf).sort(function (a, b) { return ORDER.indexOf(a) - ORDER.indexOf(b); }).join("");
  }

  // A bomb or the rocket gets a short flare, once per play (not again on the next frame).
  var flared = null;
  function flare() {
    var play = document.querySelector("#board [data-boom]");
    if (!play || play.dataset.boom === flared) return;
    flared = play.dataset.boom;
    play.classList.add("is-flaring");
    setTimeout(function () { play.classList.remove("is-flaring"); }, 1200);
  }

  T.use(T.multiSelect({
    signature: signature,
    afterBoard: flare,
    // While bidding the cards are only looked at.
    canTap: function (btn) {
      if (T.handState().bidding === "1") {
        btn.dataset.reason = T.page().dataset.reasonBidding;
        return false;
      }
      return true;
    },
  }));
})();
