/* Site behaviour that htmx does not cover.
 *
 * Reconnect: the htmx ws extension retries only after closes 1006, 1011, 1012 and 1013.
 * After any other close that is not ours to honour (44xx: "log in", "not your table"…),
 * a clean 1000/1001 from a server restart or a proxy timeout, we reconnect ourselves with
 * a growing, jittered delay.
 */
(function () {
  "use strict";
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013];
  var attempts = new WeakMap();

  function delayFor(n) {
    var cap = 1000 * Math.pow(2, Math.min(n, 5)); // 1 s … 32 s
    return cap / 2 + Math.random() * cap / 2;
  }

  function setStatus(state) {
    var el = document.getElementById("live-status");
    if (!el) return;
    el.dataset.state = state;
    var label = el.querySelector("span:last-child");
    var text = document.body.dataset["live" + state.charAt(0).toUpperCase() + state.slice(1)];
    if (label && text) label.textContent = text;
  }

  document.addEventListener("htmx:wsOpen", function (evt) {
    attempts.set(evt.target, 0);
  });

  document.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail.event.code;
    var elt = evt.target;
    if (code >= 4400 && code < 4500) return; // the server said why; retrying would not help
    setStatus("offline");
    if (EXTENSION_RETRIES.indexOf(code) >= 0) return; // the extension retries by itself
    var n = (attempts.get(elt) || 0) + 1;
    attempts.set(elt, n);
    window.setTimeout(function () {
      if (document.body.contains(elt) && evt.detail.socketWrapper) {
        evt.detail.socketWrapper.reconnect();
      }
    }, delayFor(n));
  });

  // Forms that ask before they are sent (data-confirm: the question) and menus that send their
  // form as soon as a choice is made (data-autosubmit): listeners here, as the
  // Content-Security-Policy allows no event attribute (onsubmit=, onchange=) in the markup.
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) {
      evt.preventDefault();
      evt.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("change", function (evt) {
    var field = evt.target;
    if (field.matches("[data-autosubmit]") && field.form) field.form.requestSubmit();
  });

  // Close the account menu when clicking elsewhere.
  document.addEventListener("click", function (evt) {
    document.querySelectorAll("details.account-menu[open]").forEach(function (d) {
      if (!d.contains(evt.target)) d.removeAttribute("open");
    });
  });
})();
