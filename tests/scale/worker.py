"""A worker process for the scale tests: Django, the real harness, its own connections.

Run by tests/scale/conftest.py as ``python tests/scale/worker.py`` with
DATABASE_URL pointing at the test run's PostgreSQL database. It reads one job
(JSON) from stdin, gets every thread ready, prints ``ready``, waits for ``go``
on stdin — so clicks in two processes start together — and prints one JSON
line of results.

With ``DATABASE_URL`` naming the test run's SQLite file it runs on SQLite too.

Faults, for the fault tests:
- ``stop_at``: a fault point of the confirm (tools/proposals.py); there the
  worker prints ``stopped-at <point>`` and waits, inside the confirm's
  transaction, for the test to kill it.
- ``kill_before_response``: SIGKILL it after proposal_confirm returned, before
  the answer leaves the process (a worker dying before its HTTP response).
- ``cut_db_in_service``: inside the service's transaction, after its writes and
  before its commit, print ``cut-db`` and wait for the test to cut the
  database link and answer ``cut``.
- ``block_then_dispute``: ``raise_dispute`` first blocks the customer's card under
  the click's key, then opens the dispute: a run that writes before it refuses.
With ``healthz_after`` the worker also asks its own /healthz after the clicks.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _die(*_: Any) -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def click(user: Any, job: dict[str, Any], one: dict[str, Any]) -> dict[str, Any]:
    from errors import DomainError
    from tools.proposals import proposal_confirm

    try:
        public_id = uuid.UUID(one["public_id"])  # JSON's string, parsed where it arrives
        outcome = proposal_confirm(user=user, public_id=public_id, digest=one["digest"])
    except DomainError as error:
        return {"public_id": one["public_id"], "error": error.as_dict(), "error_type": type(error).__name__}
    except Exception as error:  # reported to the test, which decides
        return {
            "public_id": one["public_id"],
            "exception": type(error).__name__,
            "module": type(error).__module__,
            "message": str(error),
        }
    if job.get("fault") == "kill_before_response":
        _die()
    return {
        "public_id": one["public_id"],
        "response": outcome.response,
        "response_json": json.dumps(outcome.response),
        "replayed": outcome.replayed,
        "proposal_status": outcome.proposal.status,
    }


def main() -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from tools.faults import inject_fault

    job = json.loads(sys.stdin.readline())
    faults = contextlib.ExitStack()  # held for the process's life
    if job.get("stop_at"):

        def stop() -> None:
            print(f"stopped-at {job['stop_at']}", flush=True)
            sys.stdin.readline()  # the test kills this process meanwhile

        faults.enter_context(inject_fault(job["stop_at"], stop))
    if job.get("fault") == "cut_db_in_service":
        _cut_db_inside_the_service()
    if job.get("fault") == "block_then_dispute":
        _block_then_dispute()

    users = {
        u.username: u
        for u in get_user_model().objects.filter(username__in={c["username"] for c in job["clicks"]})
    }
    connection.close()
    results: list[dict[str, Any]] = []
    lock = threading.Lock()
    start = threading.Barrier(len(job["clicks"]) + 1)

    def run(one: dict[str, Any]) -> None:
        try:
            start.wait()
            result = click(users[one["username"]], job, one)
            with lock:
                results.append(result)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(one,)) for one in job["clicks"]]
    for thread in threads:
        thread.start()
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        raise SystemExit("expected go")
    start.wait()
    for thread in threads:
        thread.join()
    health = _healthz() if job.get("healthz_after") else None
    print(json.dumps({"pid": os.getpid(), "results": results, "healthz": health}), flush=True)


def _cut_db_inside_the_service() -> None:
    import dataclasses

    from django.db import transaction

    from tools.catalog import CATALOG

    spec = CATALOG["raise_dispute"]

    def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
        with transaction.atomic():
            result = spec.run(*args, **kwargs)
            print("cut-db", flush=True)
            sys.stdin.readline()
        return result

    CATALOG["raise_dispute"] = dataclasses.replace(spec, run=run)


def _block_then_dispute() -> None:
    import dataclasses

    from accounts.services import card_block
    from tools.catalog import CATALOG

    spec = CATALOG["raise_dispute"]

    def run(ctx: Any, args: Any, *, idempotency_key: Any) -> dict[str, Any]:
        card = ctx.customer.accounts.get().cards.get()
        card_block(customer=ctx.customer, last4=card.last4, idempotency_key=idempotency_key)
        return spec.run(ctx, args, idempotency_key=idempotency_key)

    CATALOG["raise_dispute"] = dataclasses.replace(spec, run=run)


def _healthz() -> dict[str, Any]:
    from django.test import Client

    response = Client(HTTP_HOST="localhost").get("/healthz")
    return {"status_code": response.status_code, "body": response.json()}


if __name__ == "__main__":
    main()
