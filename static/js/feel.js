/* The feel of a card table, at every table (after table.js, before the game's script):
 *
 * - your turn: a turn that begins while the tab is in the background marks the tab's title
 *   and icon; both are restored when the player returns (the board's own cue stays);
 * - sound: a card laid down, a trick taken, your turn, a bomb, the end of a hand; off until
 *   the player turns it on with the toolbar's toggle (the choice kept on the device and with
 *   the account); the files are loaded only once sound is on;
 * - motion (the Web Animations API): a card played travels from its seat (or from the hand)
 *   to its place on the table; a closed trick gathers and goes to its winner's seat; a new
 *   hand fans in (Gan Deng Yan's deal is its own, gandengyan.js); Dou Dizhu's kitty turns
 *   over. prefers-reduced-motion turns it off. Only transforms move, over the board as it is:
 *   a click during an animation is taken at once, and the next frame replaces what moves.
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

  var page = window.CardTable.page, board = window.CardTable.board, myTurn = window.CardTable.myTurn;

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
      hand: b.dataset.hand || "",
      kittyDown: !!b.querySelector("#info-kitty .back"),
      where: motion() ? places(b) : null,
    };
  }

  // -- Motion.

  function motion() {
    return !!(Element.prototype.animate && !(window.matchMedia &&
      window.matchMedia("(prefers-reduced-motion: reduce)").matches));
  }

  function centre(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }
  function rect(el) { return el ? el.getBoundingClientRect() : null; }

  // Where things are on screen before a frame: each seat (by index and by position), the
  // player's own place and hand cards, the table's cards (a closed trick's, to gather them).
  function places(b) {
    var seats = {}, hand = {};
    b.querySelectorAll(".seat[data-seat]").forEach(function (el) {
      var r = rect(el);
      seats[el.dataset.seat] = r;
      var pos = /seat--(\w+)/.exec(el.className);
      if (pos) seats[pos[1]] = r;
    });
    b.querySelectorAll(".hand__card[data-card]").forEach(function (el) { hand[el.dataset.card] = rect(el); });
    var closed = b.querySelector(".trick--closed, .combo-play--closed");
    // The seat to move (the board's data-to-move: the seats' indexes), or the player's own.
    var next = (b.dataset.toMove || "").split(" ")[0];
    var winner = (next && b.querySelector("#seat-" + next)) || (b.classList.contains("is-my-turn") ? b.querySelector("#me") : null);
    return {
      // The page's scroll then: a frame that shortens the page (a hand's card played) may
      // scroll it, and what was where on screen is then that much elsewhere (``moved``).
      sx: window.scrollX,
      sy: window.scrollY,
      seats: seats,
      hand: hand,
      me: rect(b.querySelector("#me")),
      felt: rect(b.querySelector(".trick")),
      // A closed trick's cards (their looks and places): the winner, who leads next, is
      // the seat to move.
      gather: closed ? {
        cards: tableCards().map(function (c) { return { el: c.cloneNode(true), at: rect(c) }; }),
        to: rect(winner),
      } : null,
    };
  }

  // Where a card on the table came from: the seat its place names (Gong Zhu's trick__card--
  // top/left/right/bottom; a multi-card game's play, data-seat), or the player's own hand.
  function origin(card, where) {
    var slot = card.closest(".trick__card");
    var pos = slot && /trick__card--(\w+)/.exec(slot.className);
    var play = card.closest(".combo-play[data-seat]");
    var seat = pos ? pos[1] : play ? play.dataset.seat : null;
    if (seat === null) return null;
    if (where.seats[seat]) return where.seats[seat];
    return where.hand[card.dataset.card] || where.me;
  }

  // How far the page scrolled since ``where`` was taken: its places, on screen now.
  function moved(where) {
    return { x: where.sx - window.scrollX, y: where.sy - window.scrollY };
  }
  // The centre of a place taken with ``where``, where it is on screen now.
  function centreNow(r, where) {
    var c = centre(r), by = moved(where);
    return { x: c.x + by.x, y: c.y + by.y };
  }

  var TRAVEL = { duration: 420, easing: "cubic-bezier(.2,.8,.25,1)", composite: "add", fill: "backwards" };

  function travel(was, now) {
    var before = was.table ? was.table.split(" ") : [];
    var fresh = tableCards().filter(function (c) { return before.indexOf(c.dataset.card) < 0; });
    fresh.forEach(function (card, i) {
      var from = origin(card, was.where);
      if (!from) return;
      var mover = card.closest(".trick__card") || card;
      var a = centreNow(from, was.where), b = centre(rect(mover));
      var opts = Object.assign({}, TRAVEL, { delay: i * 70 });
      mover.animate([
        { transform: "translate(" + (a.x - b.x) + "px, " + (a.y - b.y) + "px) scale(.7)" },
        { transform: "translate(0px, 0px) scale(1)" },
      ], opts);
    });
  }

  // A closed trick that left the table: its cards, drawn where they were, gather and go to
  // the winner's seat (copies over the page: the board below is already the new one).
  function gather(was) {
    var g = was.where.gather;
    if (!g || !g.to || !g.cards.length) return;
    var now = codes(tableCards()).split(" ");
    if (g.cards.some(function (c) { return now.indexOf(c.el.dataset.card) >= 0; })) return;
    var layer = ghosts();
    var by = moved(was.where);
    var mid = centre(was.where.felt || g.cards[0].at), to = centre(g.to);
    g.cards.forEach(function (c) {
      var el = c.el;
      el.classList.add("feel-ghost");
      el.style.left = c.at.left + by.x + "px";
      el.style.top = c.at.top + by.y + "px";
      el.style.setProperty("--w", c.at.width + "px");
      layer.appendChild(el);
      var at = centre(c.at);
      var anim = el.animate([
        { transform: "translate(0px, 0px)", opacity: 1 },
        { transform: "translate(" + (mid.x - at.x) + "px, " + (mid.y - at.y) + "px) scale(.9)", opacity: 1, offset: 0.35 },
        { transform: "translate(" + (to.x - at.x) + "px, " + (to.y - at.y) + "px) scale(.35)", opacity: 0 },
      ], { duration: 650, easing: "ease-in-out", fill: "forwards" });
      anim.onfinish = function () { el.remove(); };
      anim.oncancel = function () { el.remove(); };
    });
  }

  function ghosts() {
    var layer = document.getElementById("feel-ghosts");
    if (!layer) {
      layer = document.createElement("div");
      layer.id = "feel-ghosts";
      layer.className = "feel-ghosts";
      layer.setAttribute("aria-hidden", "true");
      document.body.appendChild(layer);
    }
    return layer;
  }
  function dropGhosts() {
    var layer = document.getElementById("feel-ghosts");
    if (layer) layer.innerHTML = "";
  }

  // A new hand: its cards fan in from the table's middle, one after another.
  function fanIn(was, now) {
    if (!now.hand || now.hand === was.hand) return;
    var from = was.where.felt && centreNow(was.where.felt, was.where);
    if (!from) return;
    board().querySelectorAll(".hand__card").forEach(function (card, i) {
      var b = centre(rect(card));
      card.animate([
        { transform: "translate(" + (from.x - b.x) + "px, " + (from.y - b.y) + "px) rotate(-12deg) scale(.6)", opacity: 0 },
        { transform: "translate(0px, 0px) rotate(0deg) scale(1)", opacity: 1 },
      ], { duration: 360, delay: i * 35, easing: "ease-out", composite: "add", fill: "backwards" });
    });
  }

  // Dou Dizhu's kitty, face down until the landlord takes it: its cards turn over.
  function turnKitty(was) {
    if (!was.kittyDown) return;
    var cards = document.querySelectorAll("#board #info-kitty .card");
    cards.forEach(function (card, i) {
      card.animate([
        { transform: "perspective(20rem) rotateY(90deg)" },
        { transform: "perspective(20rem) rotateY(0deg)" },
      ], { duration: 420, delay: i * 120, easing: "ease-out", composite: "add", fill: "backwards" });
    });
  }

  function move(was, now) {
    if (!was || !was.where || !motion()) return;
    gather(was);
    travel(was, now);
    fanIn(was, now);
    turnKitty(was);
  }

  var before = null;  // the board as it was, when the message is a patch
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var msg = (evt.detail && evt.detail.message) || "";
    before = msg.lastIndexOf("<template data-patch", 0) === 0 ? look() : null;
    // A whole board is the truth at once: what was still moving over it goes.
    if (!before && msg.indexOf('id="board"') >= 0) dropGhosts();
  });

  function afterFrame() {
    var was = before, now = look();
    before = null;
    if (!now) return;
    if (was && now.version !== was.version) {
      move(was, now);
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
