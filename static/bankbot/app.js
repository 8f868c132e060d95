/* BankBot chat page behaviour. Loaded as a file (CSP: script-src 'self'); the
   page works without it, as plain form posts. Every sentence it shows comes from
   the page (data-* on #chat, in the page's language) and is set as text. */
(function () {
  "use strict";

  // How long a sent message may wait for the bank's receipt before the customer
  // is offered Retry (the receipt comes as soon as the message is stored).
  var RECEIPT_WAIT_MS = 10000;
  // The counter shows from this share of the length limit.
  var COUNTER_FROM = 0.9;

  function randomId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function chat() {
    return document.getElementById("chat");
  }

  // A sentence of the page's, "%(name)s" / "%(name)d" filled from values.
  function say(name, values) {
    var element = chat();
    var text = (element && element.dataset[name]) || "";
    return text.replace(/%\((\w+)\)[sd]/g, function (match, key) {
      return values && key in values ? String(values[key]) : match;
    });
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

  var socketOpen = false;

  function setConnection(state) {
    var element = chat();
    var status = document.getElementById("connection");
    if (!element || !status) return;
    socketOpen = state === "online";
    element.classList.toggle("is-offline", state === "offline");
    status.classList.remove("connection--static");
    status.textContent = say(state);
  }

  // --- the composer: nothing typed is lost ------------------------------------
  // The text stays in the box until the bank's receipt says it was stored; a
  // refusal (too long, too many messages, unreadable, the bank unreachable) says
  // "Not sent", why, and offers Retry. A retry of the same text keeps its message
  // id, so the bank stores it once however often it arrives.

  var pending = { id: null, text: null, timer: 0, tooLong: false };

  function composer() {
    var form = document.getElementById("composer");
    if (!form) return null;
    return {
      form: form,
      box: form.querySelector("textarea"),
      id: form.querySelector('input[name="client_message_id"]'),
      status: document.getElementById("composer-status"),
      counter: document.getElementById("composer-counter")
    };
  }

  function button(label, data) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "btn btn-secondary btn-small";
    element.setAttribute(data, "");
    element.textContent = label;
    return element;
  }

  // kind: "" (nothing to say), "sending", "refused" or "unsure" (no receipt yet).
  function showStatus(kind, text) {
    var parts = composer();
    if (!parts || !parts.status) return;
    parts.form.classList.toggle("is-refused", kind === "refused" || kind === "unsure");
    parts.form.classList.toggle("is-sending", kind === "sending");
    parts.status.replaceChildren();
    if (!kind) return;
    var line = document.createElement("p");
    line.setAttribute("role", kind === "sending" ? "status" : "alert");
    if (kind === "refused") {
      var mark = document.createElement("strong");
      mark.textContent = say("notSent");
      line.append(mark, " ");
    }
    var reason = document.createElement("span");
    reason.className = "composer__reason";
    reason.textContent = text;
    line.append(reason);
    if ((kind === "refused" && !pending.tooLong) || kind === "unsure") {
      line.append(" ", button(say("retry"), "data-composer-retry"));
    }
    parts.status.append(line);
  }

  function charCount(text) {
    return Array.from(text.trim()).length; // code points, as the server counts
  }

  function limitOf(box) {
    return Number(box.dataset.maxChars) || 2000;
  }

  function updateCounter() {
    var parts = composer();
    if (!parts || !parts.counter) return;
    var limit = limitOf(parts.box);
    var count = charCount(parts.box.value);
    var over = count > limit;
    parts.counter.hidden = count < limit * COUNTER_FROM;
    parts.counter.classList.toggle("is-over", over);
    parts.counter.textContent = parts.counter.hidden ? "" : say("counter", { count: count, limit: limit });
    parts.box.setAttribute("aria-invalid", over ? "true" : "false");
    // Too long (a paste, say) is said at once, and the text is left as it is.
    if (over) {
      pending.tooLong = true;
      showStatus("refused", say("tooLong", { count: count, limit: limit }));
    } else if (pending.tooLong) {
      pending.tooLong = false;
      showStatus("");
    }
  }

  document.addEventListener("input", function (event) {
    if (event.target.id === "composer-text") updateCounter();
  });

  document.addEventListener("htmx:wsConfigSend", function (event) {
    var parts = composer();
    if (!parts || event.target !== parts.form) return;
    var text = parts.box.value;
    var limit = limitOf(parts.box);
    var count = charCount(text);
    if (count > limit) {
      event.preventDefault();
      pending.tooLong = true;
      showStatus("refused", say("tooLong", { count: count, limit: limit }));
      parts.box.focus();
      return;
    }
    if (!text.trim()) {
      event.preventDefault();
      return;
    }
    var id = pending.id && pending.text === text ? pending.id : randomId();
    event.detail.parameters.client_message_id = id;
    parts.id.value = id;
    pending.id = id;
    pending.text = text;
    stopWaiting();
    showStatus("sending", say(socketOpen ? "sending" : "queued"));
  });

  function stopWaiting() {
    window.clearTimeout(pending.timer);
    pending.timer = 0;
  }

  function noReceipt() {
    pending.timer = 0;
    if (pending.id) showStatus("unsure", say("noReceipt"));
  }

  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest ? event.target.closest("form") : null;
    if (!form) return;
    if (form.id === "composer") {
      stopWaiting();
      pending.timer = window.setTimeout(noReceipt, RECEIPT_WAIT_MS);
      showStatus("sending", say("sending"));
    } else {
      // A chip or button: a fresh id for its next press (the bank stores a resent frame once).
      var id = form.querySelector('input[name="client_message_id"]');
      if (id) id.value = randomId();
    }
    scrollToEnd();
  });

  // The receipt (stream.html#receipt) names the message it is about: only this
  // tab's pending text is cleared or marked.
  function readReceipt() {
    var receipt = document.getElementById("composer-receipt");
    if (!receipt || !receipt.dataset.clientId) return;
    var id = receipt.dataset.clientId;
    delete receipt.dataset.clientId;
    if (id !== pending.id) return;
    stopWaiting();
    var parts = composer();
    if (receipt.dataset.state === "accepted") {
      if (parts.box.value === pending.text) parts.box.value = "";
      pending.id = pending.text = null;
      parts.id.value = randomId();
      showStatus("");
      updateCounter();
      return;
    }
    showStatus("refused", receipt.textContent);
    var notices = document.getElementById("notices");
    if (notices) notices.replaceChildren(); // said beside the text instead
  }

  document.addEventListener("click", function (event) {
    var retry = event.target.closest ? event.target.closest("[data-composer-retry]") : null;
    var parts = composer();
    if (retry && parts) parts.form.requestSubmit();
  });

  var stickToBottom = true;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var list = messages();
    stickToBottom = !list || nearBottom(list);
  });
  // A person's message or the hand-over's note the page shows already (a socket back
  // after a drop is sent those since the page was rendered): the first one stays.
  function dropRepeatedPeople() {
    var seen = {};
    document.querySelectorAll("#messages [data-person]").forEach(function (item) {
      if (seen[item.id]) item.remove();
      else seen[item.id] = true;
    });
  }
  document.addEventListener("htmx:wsAfterMessage", function () {
    dropRepeatedPeople();
    readReceipt();
    if (stickToBottom) scrollToEnd();
  });
  // 4013: the server is up but cannot serve the chat just now (Redis or the
  // database down); it said so in a notice. The ws extension only retries
  // standard codes, so try again here, after a pause, and clear the notice once
  // the socket is back.
  var LIVE_CHAT_UNAVAILABLE = 4013;
  var RETRY_AFTER_MS = 20000;
  document.addEventListener("htmx:wsOpen", function () {
    setConnection("online");
    var notices = document.getElementById("notices");
    if (notices) notices.replaceChildren();
  });
  document.addEventListener("htmx:wsClose", function (event) {
    setConnection("offline");
    // A sent text whose receipt had not come may or may not have arrived: Retry is safe.
    if (pending.id && pending.timer) {
      stopWaiting();
      noReceipt();
    }
    var detail = event.detail || {};
    if (detail.event && detail.event.code === LIVE_CHAT_UNAVAILABLE && detail.socketWrapper) {
      window.setTimeout(detail.socketWrapper.reconnect, RETRY_AFTER_MS);
    }
  });

  // --- confirm cards ---------------------------------------------------------------

  // After Confirm or Decline swaps a card for its result, keep the keyboard focus
  // on it (not after a card refreshed itself: the customer may be typing).
  document.addEventListener("htmx:afterSwap", function (event) {
    var detail = event.detail || {};
    if (!detail.requestConfig || detail.requestConfig.verb !== "post") return;
    var target = detail.elt;
    var card = target && target.closest ? target.closest(".proposal") : null;
    if (!card || !card.id) return;
    var fresh = document.getElementById(card.id);
    var heading = fresh && fresh.querySelector("h2[tabindex]");
    if (heading) heading.focus();
  });

  // A card's new state pushed from the bank (confirmed in another tab, declined,
  // replaced by a newer request) replaces the card out of band: the keyboard focus
  // stays on the card if it was in it.
  var focusedCard = null;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    focusedCard = null;
    if (target && target.classList && target.classList.contains("proposal") &&
        target.contains(document.activeElement)) {
      focusedCard = target.id;
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (!focusedCard) return;
    var fresh = document.getElementById(focusedCard);
    focusedCard = null;
    var heading = fresh && fresh.querySelector("h2[tabindex]");
    if (heading && !fresh.contains(document.activeElement)) heading.focus();
  });

  // Confirm or Decline could not reach the bank (htmx:sendError) or got an answer
  // the page cannot show (htmx:responseError, e.g. a proxy's 502): the card says
  // so, with Try again. Both are safe to repeat: a confirmation replays.
  function cardError(event, sentence) {
    var elt = event.detail && event.detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    var card = form ? form.closest(".proposal") : null;
    var slot = card && card.id ? document.getElementById(card.id + "-error") : null;
    if (!slot) return;
    var line = document.createElement("p");
    line.className = "proposal__error";
    line.setAttribute("role", "alert");
    line.append(say(sentence), " ");
    var again = button(say("tryAgain"), "data-card-retry");
    again.addEventListener("click", function () {
      slot.replaceChildren();
      form.requestSubmit();
    });
    line.append(again);
    slot.replaceChildren(line);
  }
  document.addEventListener("htmx:sendError", function (event) {
    cardError(event, "sendError");
  });
  document.addEventListener("htmx:responseError", function (event) {
    cardError(event, "responseError");
  });

  // A pending card counts down to its expiry (the time itself is server-rendered)
  // and, once the time is up, asks the server for the card again: it turns
  // expired by itself. The deadline is taken relative to the server's own clock
  // at rendering, so a wrong clock on the customer's device does not matter.
  var asked = {};
  var ASK_AGAIN_MS = 5000;

  function tickCards() {
    var now = Date.now();
    document.querySelectorAll(".proposal--pending .proposal__expiry").forEach(function (line) {
      if (!line.dataset.deadline) {
        var left = Number(line.dataset.expiresAt) + 1 - Number(line.dataset.renderedAt);
        line.dataset.deadline = String(now + left * 1000);
      }
      var ms = Number(line.dataset.deadline) - now;
      var span = line.querySelector(".proposal__left");
      if (ms > 0) {
        var shown = ms - 1000; // the second added above is for the asking, not for show
        if (span) {
          span.textContent = " · " + (shown < 60000 ? say("underAMinute")
            : say("minutesLeft", { minutes: Math.ceil(shown / 60000) }));
        }
        return;
      }
      var card = line.closest(".proposal");
      if (!card || !card.id || now - (asked[card.id] || 0) < ASK_AGAIN_MS) return;
      asked[card.id] = now;
      if (span) span.textContent = "";
      card.querySelectorAll(".proposal__actions button").forEach(function (b) {
        b.disabled = true;
      });
      window.htmx.ajax("GET", line.dataset.refreshUrl, { source: card, target: card, swap: "outerHTML" });
    });
  }

  // Enter sends; Shift+Enter starts a new line.
  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (box.id !== "composer-text" || event.key !== "Enter" || event.shiftKey || event.isComposing) {
      return;
    }
    event.preventDefault();
    if (box.value.trim()) box.form.requestSubmit();
  });

  // What only holds with this script running ("Enter sends") is shown by it.
  document.querySelectorAll("[data-with-script]").forEach(function (element) {
    element.hidden = false;
  });
  if (chat()) setConnection("connecting");
  updateCounter();
  scrollToEnd();
  if (window.htmx) {
    tickCards();
    window.setInterval(tickCards, 1000);
  }
})();
