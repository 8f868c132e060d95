"""Accessibility (issue 15, point 9): axe-core, shipped inside axe-playwright-python
(no CDN), checks every customer page, the confirm card pending and executed, a
dispute's news, the Injection Lab's pages and the admin dispute page, in English and
in Russian where the page is translated. A serious or critical violation fails.

Rules are never switched off to pass; one switched off for a real false positive
says why in ``FALSE_POSITIVES``.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.db import connections
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from bankbot.models import Conversation
from disputes.models import Dispute
from disputes.services import dispute_review
from tests.browser.helpers import PASSWORD, LiveServer
from tests.factories import days_ago
from tools.models import Proposal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAILING_IMPACTS = {"serious", "critical"}
# rule id → why it is a false positive here (none so far).
FALSE_POSITIVES: dict[str, str] = {}
AXE = Axe()
OPTIONS = {
    "resultTypes": ["violations", "incomplete"],
    "rules": {rule: {"enabled": False} for rule in FALSE_POSITIVES},
}


def assert_accessible(page: Page, what: str) -> None:
    results = AXE.run(page, options=OPTIONS).response
    found = serious(results["violations"]) + gradient_contrast(page, results["incomplete"])
    assert found == [], f"{what} ({page.url}):\n" + "\n".join(found)


def serious(violations: list[dict[str, Any]]) -> list[str]:
    """Serious and critical violations, one line per element."""
    return [
        f"{v['id']} ({v['impact']}): {node['target']} — {node.get('failureSummary', '')}"
        for v in violations
        if v.get("impact") in FAILING_IMPACTS
        for node in v["nodes"]
    ]


# axe leaves text over a gradient undecided ("incomplete"); the headers, bubbles and card
# rows here have gradients, so this decides it: the text's colour against every colour
# of the gradient behind its own lines (blended through any translucent layer between).
CONTRAST_BEHIND = """(selector) => {
  const el = document.querySelector(selector);
  const rgba = (text) => { const n = (text.match(/[\\d.]+/g) || []).map(Number);
    return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const luminance = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const style = getComputedStyle(el), box = el.getBoundingClientRect();
  const layers = []; let behind = null;
  for (let node = el; node && !behind; node = node.parentElement) {
    const s = getComputedStyle(node);
    if (s.backgroundImage.includes("gradient")) {
      const from = node.getBoundingClientRect().top, top = box.top - from, bottom = box.bottom - from;
      const stops = [...s.backgroundImage.matchAll(/rgba?\\([^)]*\\)(?:\\s+(-?[\\d.]+)px)?/g)]
        .map((m) => ({ colour: rgba(m[0]), at: m[1] === undefined ? null : Number(m[1]) }));
      const placed = stops.every((stop) => stop.at !== null);
      behind = stops.filter((stop, i) => !placed || (stop.at >= top && stop.at <= bottom)
        || (stop.at <= top && (i + 1 === stops.length || stops[i + 1].at > top))
        || (stop.at >= bottom && (i === 0 || stops[i - 1].at < bottom))).map((stop) => stop.colour);
    } else {
      const colour = rgba(s.backgroundColor);
      if (colour[3] >= 1) behind = [colour]; else if (colour[3] > 0) layers.push(colour);
    }
  }
  const large = parseFloat(style.fontSize) >= 24
    || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
  return (behind || [[255, 255, 255, 1]]).map((colour) => {
    let back = colour.slice(0, 3);
    for (const layer of layers.reverse()) back = over(layer, back);
    const text = over(rgba(style.color), back);
    const [a, b] = [luminance(text), luminance(back)].sort((x, y) => y - x);
    return { ratio: (a + 0.05) / (b + 0.05), needed: large ? 3 : 4.5 };
  });
}"""


def gradient_contrast(page: Page, incomplete: list[dict[str, Any]]) -> list[str]:
    found = []
    for check in incomplete:
        if check["id"] != "color-contrast":
            continue
        for node in check["nodes"]:
            selector = node["target"][0]
            for side in page.evaluate(CONTRAST_BEHIND, selector):
                if side["ratio"] < side["needed"]:
                    found.append(
                        f"color-contrast over a gradient: {selector} — "
                        f"{side['ratio']:.2f}:1, needs {side['needed']}:1"
                    )
    return found


def sign_in(page: Page, server: LiveServer, username: str, password: str) -> None:
    page.goto(server("/login/"))
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("form.login button[type=submit], form button[type=submit]").last.click()
    page.wait_for_load_state()


def in_language(browser: Browser, server: LiveServer, language: str) -> Page:
    context = browser.new_context()
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    return context.new_page()


def chat_with_everything(alice: Any, staff: Any) -> Conversation:
    """One conversation holding a statement table, the card list, an executed and a
    pending confirm card, a dispute's news and the disputes table: made as the no-JS
    chat makes them, on a thread of its own (the chat's views cannot run beside
    Playwright's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_chat_with_everything, alice, staff).result()


def _chat_with_everything(alice: Any, staff: Any) -> Conversation:
    try:
        return _say_everything(alice, staff)
    finally:
        connections.close_all()


def _say_everything(alice: Any, staff: Any) -> Conversation:
    client = Client()
    client.force_login(alice.user)
    conversation = Conversation.objects.create(customer=alice)

    def say(text: str) -> None:
        client.post("/messages/", {"conversation": str(conversation.public_id), "text": text})

    say(f"Show my statement for {timezone.localdate(days_ago(5)):%Y-%m}")
    say("list my cards")
    say("Please dispute T-1001, I never made it")
    proposal = Proposal.objects.get(tool="raise_dispute")
    client.post(f"/proposals/{proposal.public_id}/confirm", {"digest": proposal.args_digest})
    dispute_review(
        dispute=Dispute.objects.get(),
        to_status="in_review",
        note="Checked.",
        staff_user=staff,
        customer_note="We asked the merchant.",
    )
    say("show my disputes")
    say("Block my card 4242")
    assert Proposal.objects.filter(status=Proposal.Status.PENDING).exists()
    return conversation


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_customers_pages_pass_axe(browser: Browser, server, alice, staff, language):
    conversation = chat_with_everything(alice, staff)
    page = in_language(browser, server, language)
    page.goto(server("/login/"))
    assert_accessible(page, "sign-in")
    sign_in(page, server, "alice", PASSWORD["alice"])
    page.goto(server(f"/c/{conversation.public_id}/"))
    expect(page.locator(".proposal--pending")).to_be_visible()
    expect(page.locator(".proposal--executed")).to_be_visible()
    expect(page.locator(".msg--news")).to_be_visible()
    expect(page.locator(".statement-rows").first).to_be_visible()
    expect(page.locator("table.disputes")).to_contain_text("Magnum Cash&Carry")
    expect(page.locator("#messages .suggestions:visible")).to_have_count(1)
    assert_accessible(page, "chat")
    page.goto(server(f"/statement/?month={timezone.localdate(days_ago(5)):%Y-%m}"))
    assert_accessible(page, "statement")


def test_the_chat_at_phone_width_passes_axe(browser: Browser, server, alice, staff):
    conversation = chat_with_everything(alice, staff)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, server, "alice", PASSWORD["alice"])
    page.goto(server(f"/c/{conversation.public_id}/"))
    expect(page.locator(".proposal--pending")).to_be_visible()
    assert_accessible(page, "chat at phone width")
    page.locator(".proposal--pending").get_by_role("button", name="Decline").click()
    expect(page.locator(".proposal--declined")).to_be_visible()
    assert_accessible(page, "chat with a declined card")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_injection_labs_pages_pass_axe(browser: Browser, server, staff, language):
    page = in_language(browser, server, language)
    sign_in(page, server, "support", "support-pw-123")
    page.goto(server("/lab/"))
    assert_accessible(page, "lab index")
    page.goto(server("/lab/desc-ignore-previous/"))
    assert_accessible(page, "lab scenario")
    page.locator("form.month-picker button[type=submit]").click()  # both harnesses run
    expect(page.locator(".lab-compare")).to_contain_text(
        "Guarded harness" if language == "en" else "Защищённ", timeout=120_000
    )
    assert_accessible(page, "lab scenario, run")
    page.goto(server("/lab/?technique=base64&outcome=contrast"))
    assert_accessible(page, "lab index, filtered")
    page.goto(server("/lab/scores/"))
    assert_accessible(page, "lab scores")


def test_the_admin_dispute_page_passes_axe(browser: Browser, server, alice, staff):
    chat_with_everything(alice, staff)
    page = browser.new_page()
    sign_in(page, server, "support", "support-pw-123")
    page.goto(server(f"/admin/disputes/dispute/{Dispute.objects.get().pk}/change/"))
    assert_accessible(page, "admin dispute page")


@pytest.mark.parametrize(
    ("html", "rule"),
    [
        ('<main><p style="color:#aaa;background:#fff">pale</p></main>', "color-contrast (serious)"),
        (
            '<main><p style="color:#fff;background:linear-gradient(#fff,#0f4c81)">pale</p></main>',
            "color-contrast over a gradient",
        ),
        ('<main><input type="text"></main>', "label (critical)"),
    ],
)
def test_the_check_fails_a_page_with_a_serious_violation(page: Page, html, rule):
    page.set_content(f'<!doctype html><html lang="en"><title>t</title><body>{html}</body></html>')
    with pytest.raises(AssertionError, match=re.escape(rule)):
        assert_accessible(page, "a broken page")
