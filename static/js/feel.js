/* The feel of a card table, at every table (after table.js, before the game's script):
 *
 * - your turn: a turn that begins while the tab is in the background marks the tab's title
 *   and icon; both are restored when the player returns (the board's own cue stays);
 * - sound: a card laid down, a trick taken, your turn, a bomb, the end of a hand; off until
 *   the player turns it on with the toolbar's toggle (the choice kept on the device and with
 *   the account); the files are loaded only once sound is on;
 *
 * What happened is read from the board before and after each patch the socket sends (its
 * regions, games/frames.py): a whole board (a connect, a reconnect, a resync, a Hint) is
 * the truth at once, with no sound and nothing moving.
 *
 * Nothing here decides or delays anything: the board on screen is always the server's, and a
 * click or key goes where it goes whatever moves on screen.
 */
(function () {
  "use strict";

  function page() { return document.querySelector(".table-page"); }
  function board() { return document.getElementById("board"); }

  function myTurn() {
    var b = board();
    return !!(b && b.classList.contains("is-my-turn"));
  }

  // -- Your turn: the tab's title and icon while it is in the background.

  var baseTitle = document.title;
  var baseIcon = null;
  function icon() { return document.querySelector("link[rel=icon]"); }

  function markTab(on) {
    var p = page(), link = icon();
    if (on && p) {
      document.title = "● " + (p.dataset.yourTurn || "") + " – " + baseTitle;
      if (link && p.dataset.turnIcon) {
        if (baseIcon === null) baseIcon = link.getAttribute("href");
        if (link.getAttribute("href") !== p.dataset.turnIcon) link.setAttribute("href", p.dataset.turnIcon);
      }
      return;
    }
    if (document.title !== baseTitle) document.title = baseTitle;
    if (link && baseIcon !== null && link.getAttribute("href") !== baseIcon) link.setAttribute("href", baseIcon);
  }

  function tabCue() { markTab(document.hidden && myTurn()); }

  document.addEventListener("visibilitychange", tabCue);
  document.addEventListener("DOMContentLoaded", tabCue);

  // -- Sound: the toolbar's toggle (aria-pressed), its sounds (data-src-*), each an <audio>
  // made the first time it plays.

  function toggle() { return document.querySelector("[data-sound]"); }
  function soundOn() { var t = toggle(); return !!t && t.getAttribute("aria-pressed") === "true"; }

  var audio = {};
  function sound(name) {
    var t = toggle();
    if (!soundOn()) return;
    var src = t.dataset["src" + name.charAt(0).toUpperCase() + name.slice(1)];
    if (!src) return;
    var a = audio[name] || (audio[name] = new Audio(src));
    try { a.currentTime = 0; } catch (e) { /* not loaded yet */ }
    var played = a.play();
    if (played && played.catch) played.catch(function () { /* the browser said no: silence */ });
  }

  function setSound(on, save) {
    var t = toggle();
    if (!t) return;
    t.setAttribute("aria-pressed", on ? "true" : "false");
    if (!save) return;
    try { localStorage.setItem("sound", on ? "1" : "0"); } catch (e) { /* private mode */ }
    // The account's choice too (a guest is an account): for the next device it plays on.
    var headers = {};
    try { headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { headers = {}; }
    var body = new FormData();
    body.append("on", on ? "1" : "0");
    if (window.fetch && t.dataset.save) {
      fetch(t.dataset.save, { method: "POST", body: body, headers: headers, credentials: "same-origin" })
        .catch(function () { /* kept on this device anyway */ });
    }
  }

  document.addEventListener("click", function (evt) {
    var t = evt.target.closest && evt.target.closest("[data-sound]");
    if (t) setSound(!soundOn(), true);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var kept = null;
    try { kept = localStorage.getItem("sound"); } catch (e) { /* private mode */ }
    if (kept !== null) setSound(kept === "1", false);
  });

  // -- What a frame changed: the board read before a patch is applied and after.

  // The cards on the table now: Gong Zhu's trick, or a play in a multi-card game's centre.
  function tableCards() {
    return Array.prototype.slice.call(document.querySelectorAll(
      "#board #trick .card, #board #center .combo-play .card"));
  }
  function codes(els) { return els.map(function (c) { return c.dataset.card || c.textContent; }).join(" "); }

  function look() {
    var b = board();
    if (!b) return null;
    var boom = b.querySelector("[data-boom]");
    return {
      version: b.dataset.version,
      mine: myTurn(),
      table: codes(tableCards()),
      closed: !!b.querySelector(".trick--closed, .combo-play--closed"),
      boom: boom ? boom.dataset.boom : "",
      over: !!b.querySelector(".summary__panel"),
    };
  }

  var before = null;  // the board as it was, when the message is a patch
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var msg = (evt.detail && evt.detail.message) || "";
    before = msg.lastIndexOf("<template data-patch", 0) === 0 ? look() : null;
  });

  function afterFrame() {
    var was = before, now = look();
    before = null;
    if (!now) return;
    if (was && now.version !== was.version) {
      if (now.over && !was.over) sound("end");
      else if (now.boom && now.boom !== was.boom) sound("bomb");
      else if (now.closed && !was.closed) sound("trick");
      else if (now.table && now.table !== was.table) sound("card");
      // The player's turn begins: a new version that is theirs to move (it may come back in
      // the same frame as the move that ended it, the computer players' replies made at once).
      if (now.mine) sound("turn");
    }
    tabCue();
  }
  document.addEventListener("htmx:wsAfterMessage", afterFrame);
})();
