"""The confirm endpoint under load, on two live Daphne workers sharing PostgreSQL.

200 simultaneous POST /proposals/<id>/confirm (10 per proposal, 20 proposals,
half to each worker) → 20 actions; every click gets the same card, built from
the stored result.
"""

from __future__ import annotations

import http.client
import random
import threading
from collections import defaultdict

import pytest
from django.test import Client

from accounts.models import Card
from disputes.models import Dispute
from tests.scale.helpers import propose_block, propose_dispute
from tools.models import Confirmation, Proposal, ToolCallTrace

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CSRF = "s" * 32  # a CSRF secret of the test's own: cookie and header must agree


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def post_confirm(address, proposal: Proposal, session: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection(*address, timeout=120)
    body = f"digest={proposal.args_digest}"
    conn.request(
        "POST",
        f"/proposals/{proposal.public_id}/confirm",
        body=body,
        headers={
            "Host": f"127.0.0.1:{address[1]}",
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"sessionid={session}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "HX-Request": "true",
            "Referer": f"http://127.0.0.1:{address[1]}/",
        },
    )
    response = conn.getresponse()
    return response.status, response.read().decode()


def test_two_hundred_confirm_posts_on_two_workers_make_twenty_actions(scale_customers, two_live_workers):
    proposals = []
    for customer in scale_customers:
        account = customer.accounts.get()
        proposals += [propose_dispute(customer, txn) for txn in account.transactions.all()]
        proposals.append(propose_block(customer, account.cards.get()))
    sessions = {c.user.pk: session_cookie(c.user) for c in scale_customers}
    posts = [(two_live_workers[i % 2].address, p) for p in proposals for i in range(10)]
    random.Random(8).shuffle(posts)
    answers: dict[str, list[tuple[int, str]]] = defaultdict(list)
    lock = threading.Lock()
    start = threading.Barrier(len(posts))

    def click(address, proposal: Proposal) -> None:
        start.wait()
        answer = post_confirm(address, proposal, sessions[proposal.customer.user_id])
        with lock:
            answers[str(proposal.public_id)].append(answer)

    threads = [threading.Thread(target=click, args=post) for post in posts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sum(len(a) for a in answers.values()) == 200
    for proposal in proposals:
        group = answers[str(proposal.public_id)]
        assert {status for status, _ in group} == {200}, group[0][1][:500]
        assert len({body for _, body in group}) == 1  # one card, from the stored result
        proposal.refresh_from_db()
        if proposal.tool == "raise_dispute":
            assert proposal.result["result"]["dispute_id"] in group[0][1]
    assert Dispute.objects.count() == 16
    assert Card.objects.filter(status="blocked").count() == 4
    assert Confirmation.objects.count() == 20
    assert set(Proposal.objects.values_list("status", flat=True)) == {"executed"}
    assert ToolCallTrace.objects.filter(event="executed").count() == 20
    assert ToolCallTrace.objects.filter(event="replayed").count() == 180
