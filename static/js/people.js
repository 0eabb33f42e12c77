/* A table for people: what the page does beside the game.
 *
 * - the waiting room becomes the game's board when the host starts: the page reloads once,
 *   so its toolbar and scripts are the running match's;
 * - the invitation link is shown absolute and copied with one click;
 * - the turn timer counts down to the deadline the server set (the server acts on it, this
 *   only shows it);
 * - quick reactions show as bubbles for a few seconds.
 */
(function () {
  "use strict";

  var page = window.CardTable.page, board = window.CardTable.board, myTurn = window.CardTable.myTurn;

  // The moment it becomes the player's turn: the board pulses once (a tab in the background
  // says so in its title and icon at every table: static/js/feel.js).
  var wasMyTurn = false;
  function cue() {
    var p = page();
    if (!p) return;
    var mine = myTurn();
    if (mine && !wasMyTurn) {
      var b = board();
      b.classList.add("turn-cue");
      setTimeout(function () { b.classList.remove("turn-cue"); }, 1400);
    }
    wasMyTurn = mine;
  }

  function tick() {
    var timers = document.querySelectorAll(".turn-timer[data-deadline]");
    for (var i = 0; i < timers.length; i++) {
      var left = Math.max(0, Math.round((Date.parse(timers[i].dataset.deadline) - Date.now()) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      timers[i].textContent = m + ":" + (s < 10 ? "0" : "") + s;
      timers[i].classList.toggle("is-short", left <= 10);
    }
  }

  function afterBoard() {
    var p = page(), b = board();
    if (p && p.hasAttribute("data-waiting") && b && !b.classList.contains("waiting-room")) {
      window.location.reload();
      return;
    }
    var links = document.querySelectorAll("input[data-absolute]");
    for (var i = 0; i < links.length; i++) {
      if (links[i].value.charAt(0) === "/") links[i].value = window.location.origin + links[i].value;
    }
    tick();
    cue();
  }

  document.addEventListener("click", function (evt) {
    var btn = evt.target.closest("[data-copy]");
    if (!btn) return;
    var input = document.querySelector(btn.dataset.copy);
    if (!input) return;
    input.select();
    var done = function () { btn.textContent = btn.dataset.copied; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
    } else {
      document.execCommand("copy");
      done();
    }
  });

  // A reaction's bubble stays a few seconds; a chosen reaction closes its menu.
  function fadeReactions() {
    var bubbles = document.querySelectorAll("#reactions .reaction:not([data-fading])");
    for (var i = 0; i < bubbles.length; i++) {
      (function (el) {
        el.dataset.fading = "1";
        setTimeout(function () { el.remove(); }, 4000);
      })(bubbles[i]);
    }
    var menus = document.querySelectorAll(".react-menu[open]");
    for (var j = 0; j < menus.length; j++) if (menus[j].querySelector(".is-sending")) menus[j].open = false;
  }
  document.addEventListener("htmx:wsAfterMessage", fadeReactions);
  document.addEventListener("submit", function (evt) {
    var menu = evt.target.closest && evt.target.closest(".react-menu");
    if (menu) menu.open = false;
  });

  // Someone's socket opening or closing (their presence) draws every board again at the same
  // version: the card the player had selected stays selected, tapped again through the
  // game's own script. (The multi-card tables keep their selection themselves, in table.js,
  // which runs first; a board that comes with a selection – a Hint – is left as it is.)
  var held = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var b = board();
    held = b && {
      hand: b.querySelector(".hand"),
      version: b.dataset.version,
      cards: [].map.call(b.querySelectorAll(".hand__card.is-selected"), function (c) { return c.dataset.card; }),
    };
  });
  function keepSelection() {
    var h = held, b = board();
    held = null;
    // The hand drawn again (a patch may leave it as it was, selection and all).
    if (!h || !h.cards.length || !b || b.querySelector(".hand") === h.hand || b.dataset.version !== h.version) return;
    if (!b.classList.contains("is-my-turn") || b.querySelector(".hand__card.is-selected")) return;
    h.cards.forEach(function (code) {
      var btn = b.querySelector('.hand__card.is-playable[data-card="' + code + '"]');
      if (btn) btn.click();
    });
  }

  document.addEventListener("DOMContentLoaded", afterBoard);
  document.addEventListener("htmx:wsAfterMessage", keepSelection);
  document.addEventListener("htmx:wsAfterMessage", afterBoard);
  setInterval(tick, 1000);
})();
