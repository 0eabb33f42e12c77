/* The Gan Deng Yan table: a joker stands for any rank, so a selection is known up to suit
 * and joker; the deal is shown once per round, a tap skips it. Selecting, reading chips,
 * Play, Pass and Clear are every multi-card table's (CardTable.multiSelect in table.js).
 */
(function () {
  "use strict";
  var T = window.CardTable;

  var ORDER = "3456789TJQKA2";
  var dealTimer = null;
  var dealStart = 0;
  var dealRound = null;

  var board = T.board;

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
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
    var n = T.cards().length;
    b.classList.add("is-dealing");
    dealStart = Date.now();
    dealRound = b.dataset.round;
    var veil = document.getElementById("deal-veil");
    if (veil) veil.hidden = false;
    dealTimer = window.setTimeout(endDeal, 160 * n + 500);
  }

  // After every board the server sends: a board that arrives during the deal carries it on
  // where it was; a new round's board starts its own.
  function afterBoard() {
    var b = board();
    if (!b) return;
    if (dealTimer) {
      if (b.dataset.round === dealRound) {
        b.classList.add("is-dealing");
        b.style.setProperty("--deal-elapsed", (Date.now() - dealStart) + "ms");
      } else {
        endDeal();
      }
    }
    maybeDeal();
  }

  T.use(T.multiSelect({ signature: signature, intercept: skipDeal, afterBoard: afterBoard }));
})();
