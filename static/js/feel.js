/* The feel of a card table, at every table (after table.js, before the game's script):
 *
 * - your turn: a turn that begins while the tab is in the background marks the tab's title
 *   and icon; both are restored when the player returns (the board's own cue stays);
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
  document.addEventListener("htmx:wsAfterMessage", tabCue);
  document.addEventListener("DOMContentLoaded", tabCue);
})();
