"""Without JavaScript (issue 15, point 8): after a send the newest message is in
view and the status says live updates are off; a refused message comes back in
the composer. Staff signing in land in the admin. The BLOCKED badge is
readable (contrast at least 4.5:1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import Card
from bankbot.models import Conversation, Message
from tests.browser.helpers import PASSWORD, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {"off": "Live updates are off", "message": "Your message", "send": "Send", "not_sent": "Not sent."},
    "ru": {
        "off": "Живые обновления выключены",
        "message": "Ваше сообщение",
        "send": "Отправить",
        "not_sent": "Не отправлено.",
    },
}


def sign_in_without_javascript(browser: Browser, server, lang: str, viewport=None) -> Page:
    options = {"java_script_enabled": False}
    if viewport:
        options["viewport"] = viewport
    page = browser.new_context(**options).new_page()
    page.goto(server("/login/"))
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
    page.locator("#id_username").fill("alice")
    page.locator("#id_password").fill(PASSWORD["alice"])
    page.locator(".auth-card button[type=submit]").click()
    expect(page.locator("#chat")).to_be_visible()
    return page


def a_long_conversation(customer) -> Conversation:
    """Enough earlier messages that the newest is far below the first screen
    (written an hour ago, so the rate limit does not count them)."""
    conversation = Conversation.objects.create(customer=customer, title="Earlier")
    for n in range(12):
        Message.objects.create(conversation=conversation, role="customer", text=f"Question {n}")
        Message.objects.create(
            conversation=conversation, role="assistant", text=f"Answer {n}\n" + "A long line of text. " * 12
        )
    Message.objects.filter(conversation=conversation).update(created_at=timezone.now() - timedelta(hours=1))
    return conversation


@pytest.mark.parametrize(("lang", "viewport"), [("en", None), ("ru", {"width": 390, "height": 844})])
def test_after_a_send_the_newest_message_is_in_view(browser: Browser, server, alice, lang, viewport):
    says = SAYS[lang]
    a_long_conversation(alice)
    page = sign_in_without_javascript(browser, server, lang, viewport)
    expect(page.locator("#connection")).to_have_text(says["off"])
    page.get_by_label(says["message"]).fill("Show my cards")
    page.get_by_role("button", name=says["send"], exact=True).click()

    expect(page.locator(".msg--customer").last).to_contain_text("Show my cards")
    expect(page.locator(".msg--customer").last).to_be_in_viewport()
    expect(page.locator(".msg--assistant .bubble").last).to_be_in_viewport()
    expect(page.locator("#connection")).to_have_text(says["off"])
    page.context.close()


def test_a_refused_message_comes_back_in_the_composer(browser: Browser, server, alice):
    page = sign_in_without_javascript(browser, server, "en")
    page.get_by_label("Your message").fill("w" * 2500)
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator("#composer-status")).to_contain_text("Not sent.")
    expect(page.locator("#composer-status")).to_contain_text("2500 characters long")
    expect(page.get_by_label("Your message")).to_have_value("w" * 2500)
    assert not Message.objects.exists()
    page.context.close()


def test_staff_signing_in_land_in_the_admin(page: Page, server, staff):
    page.goto(server("/login/"))
    page.get_by_label("Username").fill("support")
    page.get_by_label("Password").fill("support-pw-123")
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(server("/admin/"))
    expect(page.locator("#content")).to_be_visible()


CONTRAST = """badge => {
  // The text and its background as seen: each blended over what is behind it,
  // through every ancestor's opacity.
  const rgba = value => {
    const m = value.match(/[\\d.]+/g).map(Number);
    return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1};
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a), a: 1});
  let opacity = 1, background = null, behind = {r: 255, g: 255, b: 255, a: 1};
  for (let el = badge; el; el = el.parentElement) {
    const style = getComputedStyle(el);
    opacity *= Number(style.opacity);
    const bg = rgba(style.backgroundColor);
    if (bg.a > 0 && background === null) background = bg;
    else if (bg.a > 0 && background !== null) { behind = over(bg, behind); break; }
  }
  const text = rgba(getComputedStyle(badge).color);
  const seenBg = over({...over(background, behind), a: opacity}, behind);
  const seenText = over({...over(text, over(background, behind)), a: opacity}, behind);
  const lum = c => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const [hi, lo] = [lum(seenBg), lum(seenText)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}"""


def test_the_blocked_badge_is_readable(page: Page, server, alice):
    Card.objects.filter(last4="5505").update(status=Card.Status.BLOCKED, blocked_at=timezone.now())
    sign_in(page, server, "alice", PASSWORD["alice"])
    page.goto(server("/statement/"))
    badge = page.locator(".bank-card--blocked .badge").first
    expect(badge).to_be_visible()
    ratio = badge.evaluate(CONTRAST)
    assert ratio >= 4.5, f"the BLOCKED badge's contrast is {ratio:.2f}:1"
