"""Where the chat page starts (customer issue, point 9): the message box has the focus
(autofocus: no script needed), the skip link goes to it past the conversations, and
the hint says "Enter sends" only where JavaScript makes it true (app.js shows it)."""

from __future__ import annotations

import re

import pytest

from tests.chat.html_checks import tags

pytestmark = pytest.mark.django_db


def page_in(client, conversation, language: str = "en") -> str:
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    return client.get(f"/c/{conversation.public_id}/").content.decode()


@pytest.mark.parametrize(
    ("language", "skip", "keys"),
    [
        ("en", "Skip to the message box", "Enter sends, Shift+Enter starts a new line."),
        ("ru", "Перейти к полю сообщения", "Enter — отправить, Shift+Enter — новая строка."),
    ],
)
def test_the_page_starts_at_the_message_box(browser_for, alice, alice_conversation, language, skip, keys):
    html = page_in(browser_for(alice), alice_conversation, language)
    found = tags(html)

    box = next(attrs for tag, attrs in found if tag == "textarea")
    assert box["id"] == "composer-text" and "autofocus" in box
    assert f'<a class="skip-link" href="#composer-text">{skip}</a>' in html
    # "Enter sends" is app.js's to show: hidden in the page as served.
    hint = html[html.index('id="composer-hint"') :]
    hint = hint[: hint.index("</p>")]
    assert re.search(rf"<span [^>]*data-with-script hidden>{re.escape(keys)} </span>", hint)


def test_other_pages_skip_to_their_content(browser_for, alice):
    html = browser_for(alice).get("/statement/").content.decode()

    assert '<a class="skip-link" href="#main">Skip to content</a>' in html
