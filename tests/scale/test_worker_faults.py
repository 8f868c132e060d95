"""Faults across workers: the database going away under a worker.

Each worker is its own OS process on the shared PostgreSQL database; a retry
always comes from another process, as it would from another ASGI worker.
Workers killed mid-confirm: test_confirm_crash.py (both engines).
"""

from __future__ import annotations

import pytest

from disputes.models import Dispute
from tests.scale.helpers import clicks_for, make_scale_customer, propose_dispute, run_workers
from tools.models import Confirmation, Proposal, ToolCallTrace

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def proposal(db) -> Proposal:
    customer = make_scale_customer(1, transactions=1)
    return propose_dispute(customer, customer.accounts.get().transactions.get())


def click_once(proposal: Proposal, **job) -> dict:
    """One click in a fresh worker process; returns its answer."""
    [run] = run_workers([{"clicks": clicks_for(proposal), **job}])
    assert run.returncode == 0, run.stderr
    [answer] = run.results
    return answer


def test_a_database_that_is_down_gives_a_clear_error_and_healthz_says_503(proposal, database_link):
    [run] = run_workers(
        [{"clicks": clicks_for(proposal), "healthz_after": True}],
        env={"DATABASE_URL": database_link.url},
        before_go=database_link.cut,
    )

    assert run.returncode == 0, run.stderr
    [answer] = run.results
    # A typed database error the confirm view turns into "try again"; not a hang.
    assert answer["module"] == "django.db.utils", answer
    assert answer["exception"] in {"OperationalError", "InterfaceError"}, answer
    assert run.healthz["status_code"] == 503
    assert run.healthz["body"] == {"status": "unavailable"}  # the reason is in the log only
    assert Proposal.objects.get().status == "pending"  # untouched: it can still be confirmed
    assert Dispute.objects.count() == 0


def test_a_database_lost_inside_the_service_writes_nothing_and_a_later_retry_runs_once(
    proposal, database_link
):
    def cut_when_asked(process, line: str) -> str | None:
        if line == "cut-db":
            database_link.cut()
            return "cut"
        return None

    [run] = run_workers(
        [{"clicks": clicks_for(proposal), "fault": "cut_db_in_service"}],
        env={"DATABASE_URL": database_link.url},
        on_line=cut_when_asked,
    )

    assert run.returncode == 0, run.stderr
    [answer] = run.results
    assert "response" not in answer, answer  # the customer is not told it worked
    assert answer.get("module") == "django.db.utils" or answer.get("error"), answer
    # Nothing half-written: the dispute's insert died with the click's transaction,
    # and so did the claim; the card can be clicked again.
    assert Dispute.objects.count() == 0
    assert Proposal.objects.get().status == "pending"
    assert not Confirmation.objects.exists()

    # The database is back; the retry from another worker runs the action once.
    retry = click_once(proposal)

    assert retry["response"]["status"] == "executed", retry
    assert Dispute.objects.count() == 1
    assert Confirmation.objects.get().response == retry["response"]


def test_a_database_blip_inside_the_service_is_retried_with_the_same_key(proposal, database_link):
    cuts = []

    def blip_once(process, line: str) -> str | None:
        if line != "cut-db":
            return None
        if not cuts:  # the first attempt loses its connection; the database is back at once
            database_link.cut()
            database_link.restore()
        cuts.append(line)
        return "go on"

    [run] = run_workers(
        [{"clicks": clicks_for(proposal), "fault": "cut_db_in_service"}],
        env={"DATABASE_URL": database_link.url},
        on_line=blip_once,
    )

    assert run.returncode == 0, run.stderr
    [answer] = run.results
    assert answer["response"]["status"] == "executed", answer
    assert len(cuts) == 2  # the second attempt ran with the same key, on a new connection
    dispute = Dispute.objects.get()
    assert dispute.idempotency_key == Confirmation.objects.get().idempotency_key
    assert ToolCallTrace.objects.filter(event="failed", decision="retry").count() == 1
