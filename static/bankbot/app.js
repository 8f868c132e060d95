/* BankBot chat page behaviour. Loaded as a file (CSP: script-src 'self'); the
   page works without it, as plain form posts. */
(function () {
  "use strict";

  function randomId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function messages() {
    return document.getElementById("messages");
  }

  function nearBottom(list) {
    return list.scrollHeight - list.scrollTop - list.clientHeight < 160;
  }

  function scrollToEnd() {
    var list = messages();
    if (list) list.scrollTop = list.scrollHeight;
  }

  function setConnection(online) {
    var chat = document.getElementById("chat");
    var status = document.getElementById("connection");
    if (!chat || !status) return;
    chat.classList.toggle("is-offline", !online);
    status.textContent = online ? chat.dataset.online : chat.dataset.offline;
  }

  // A sent chat form gets a fresh message id (the server stores a resent frame
  // once), and the composer is emptied.
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest ? event.target.closest("form") : null;
    if (!form) return;
    var id = form.querySelector('input[name="client_message_id"]');
    if (id) id.value = randomId();
    if (form.id === "composer") {
      form.querySelector("textarea").value = "";
    }
    scrollToEnd();
  });

  var stickToBottom = true;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var list = messages();
    stickToBottom = !list || nearBottom(list);
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (stickToBottom) scrollToEnd();
  });
  // 4013: the server is up but cannot serve the chat just now (Redis or the
  // database down); it said so in a notice. The ws extension only retries
  // standard codes, so try again here, after a pause, and clear the notice once
  // the socket is back.
  var LIVE_CHAT_UNAVAILABLE = 4013;
  var RETRY_AFTER_MS = 20000;
  document.addEventListener("htmx:wsOpen", function () {
    setConnection(true);
    var notices = document.getElementById("notices");
    if (notices) notices.replaceChildren();
  });
  document.addEventListener("htmx:wsClose", function (event) {
    setConnection(false);
    var detail = event.detail || {};
    if (detail.event && detail.event.code === LIVE_CHAT_UNAVAILABLE && detail.socketWrapper) {
      window.setTimeout(detail.socketWrapper.reconnect, RETRY_AFTER_MS);
    }
  });

  // After a confirm card is swapped for its result, keep the keyboard focus on it.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.elt;
    var card = target && target.closest ? target.closest(".proposal") : null;
    if (!card || !card.id) return;
    var fresh = document.getElementById(card.id);
    var heading = fresh && fresh.querySelector("h2[tabindex]");
    if (heading) heading.focus();
  });

  // Enter sends; Shift+Enter starts a new line.
  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (box.id !== "composer-text" || event.key !== "Enter" || event.shiftKey || event.isComposing) {
      return;
    }
    event.preventDefault();
    if (box.value.trim()) box.form.requestSubmit();
  });

  scrollToEnd();
})();
