/* The card table: select a card, play it, ask for a hint, explain refusals.
 * The server decides everything; this only collects the player's choice and sends it
 * through the htmx ws extension (forms with ws-send).
 */
(function () {
  "use strict";

  function board() { return document.getElementById("board"); }

  function showReason(text) {
    var toast = document.getElementById("toast");
    if (!toast || !text) return;
    toast.innerHTML = "";
    var p = document.createElement("p");
    p.className = "toast__msg";
    p.textContent = text;
    toast.appendChild(p);
  }

  function clearToast() {
    var toast = document.getElementById("toast");
    if (toast) toast.innerHTML = "";
  }

  function select(btn) {
    var hand = btn.closest(".hand");
    hand.querySelectorAll(".hand__card.is-selected").forEach(function (b) {
      b.classList.remove("is-selected");
      b.setAttribute("aria-selected", "false");
    });
    btn.classList.add("is-selected");
    btn.setAttribute("aria-selected", "true");
    var form = btn.closest("form");
    form.querySelector("input[name=card]").value = btn.dataset.card;
    var play = form.querySelector("[data-play]");
    if (play) play.disabled = false;
  }

  function playSelected(form) {
    var card = form.querySelector("input[name=card]").value;
    if (!card) { showReason(document.querySelector(".table-page").dataset.reasonNone); return; }
    form.classList.add("is-sending");
    form.requestSubmit();
  }

  document.addEventListener("click", function (evt) {
    var btn = evt.target.closest(".hand__card");
    if (btn) {
      var hand = btn.closest(".hand");
      if (hand.dataset.myTurn !== "1" || !btn.classList.contains("is-playable")) {
        showReason(btn.dataset.reason);
        return;
      }
      clearToast();
      if (btn.classList.contains("is-selected")) {
        playSelected(btn.closest("form"));
      } else {
        select(btn);
      }
      return;
    }
    var hint = evt.target.closest("[data-hint]");
    if (hint) {
      var hf = document.getElementById("hint-form");
      if (hf) hf.requestSubmit();
      return;
    }
    var none = evt.target.closest("[data-expose-none]");
    if (none) {
      none.form.querySelectorAll("input[name=cards]").forEach(function (c) { c.checked = false; });
      return; // the submit goes on with no card checked
    }
    var four = evt.target.closest("[data-four-colour]");
    if (four) {
      var on = !document.body.classList.contains("four-colour");
      document.body.classList.toggle("four-colour", on);
      try { localStorage.setItem("fourColour", on ? "1" : "0"); } catch (e) { /* private mode */ }
    }
  });

  // A selection made by a Hint arrives from the server already marked: keep the form in step.
  document.addEventListener("htmx:oobAfterSwap", function () { syncSelection(); });
  document.addEventListener("htmx:wsAfterMessage", function () { syncSelection(); });

  function syncSelection() {
    var sel = document.querySelector(".hand__card.is-selected.is-playable");
    if (sel) select(sel);
    // A new board replaces the focused card: give the focus back to the hand, so a keyboard
    // player can go on without reaching for the mouse.
    if (document.activeElement === document.body) {
      var focus = document.querySelector(".hand__card.is-selected") ||
        document.querySelector(".hand[data-my-turn='1'] .hand__card.is-playable");
      if (focus) focus.focus({ preventScroll: true });
    }
  }

  // Keyboard: arrows move between cards, Enter/Space selects, Enter on the selected card plays.
  document.addEventListener("keydown", function (evt) {
    var btn = evt.target.closest && evt.target.closest(".hand__card");
    if (!btn) return;
    var cards = Array.prototype.slice.call(btn.closest(".hand").querySelectorAll(".hand__card"));
    var i = cards.indexOf(btn);
    if (evt.key === "ArrowRight" || evt.key === "ArrowLeft") {
      evt.preventDefault();
      var next = cards[(i + (evt.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
      next.focus();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    try { if (localStorage.getItem("fourColour") === "1") document.body.classList.add("four-colour"); } catch (e) { /* ignore */ }
    syncSelection();
  });
})();
