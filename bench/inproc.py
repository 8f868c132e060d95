"""In-process benchmarks, run by ``python -m bench`` in a child process against a
throwaway database (DATABASE_URL): (a) guarded read vs the bare selector, issue
3's confirm-plus-execute vs the bare service, (d) get_statement on 1,000,000
transactions vs 1,000. Prints one JSON object.

Each comparison alternates its two sides in rounds (A, B, A, B, …) and reports
the median per-call time of each side and their ratio, so drift in the machine
affects both sides alike.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
import tracemalloc
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import Account, Card, Customer, HourlyTotal, Transaction  # noqa: E402
from accounts.selectors import parse_month, statement_for_month  # noqa: E402
from accounts.services import card_block  # noqa: E402
from bankbot.models import Conversation  # noqa: E402
from disputes.services import dispute_open  # noqa: E402
from tools.catalog import CATALOG  # noqa: E402
from tools.catalog.reads import GetStatementArgs, get_statement  # noqa: E402
from tools.context import action_context_for  # noqa: E402
from tools.harness import GuardedHarness, OutcomeStatus  # noqa: E402
from tools.mandate import mandate_for  # noqa: E402
from tools.proposals import proposal_confirm, proposal_create  # noqa: E402

ROUNDS = 9


def rounds(sides: dict[str, Callable[[], Any]], calls: int) -> dict[str, float]:
    """Median seconds per call for each side, the sides alternating by round."""
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for fn in sides.values():  # warm-up
        fn()
    for _ in range(ROUNDS):
        for name, fn in sides.items():
            started = time.perf_counter()
            for _ in range(calls):
                fn()
            samples[name].append((time.perf_counter() - started) / calls)
    return {name: statistics.median(values) for name, values in samples.items()}


def make_customer(name: str) -> tuple[Customer, Account, Card]:
    user = get_user_model().objects.create_user(username=name, password=None)
    customer = Customer.objects.create(user=user, full_name=name.title())
    account = Account.objects.create(customer=customer, number=f"KZ{uuid.uuid4().hex[:18].upper()}")
    card = Card.objects.create(account=account, last4="4242")
    return customer, account, card


def add_transactions(
    account: Account, count: int, *, first_ref: int, start: Any, spread_seconds: int
) -> None:
    """``count`` rows spread evenly over ``spread_seconds`` from ``start``, in SQL."""
    step = max(spread_seconds // max(count, 1), 1)
    table = Transaction._meta.db_table
    if connection.vendor == "postgresql":
        sql = f"""INSERT INTO {table} (account_id, card_id, reference, posted_at, amount, merchant,
                  description)
                  SELECT %s, NULL, 'T-' || (%s + n), %s::timestamptz + n * make_interval(secs => %s),
                         1000 + (n %% 500), 'Merchant ' || (n %% 97), 'Purchase'
                  FROM generate_series(0, %s - 1) AS n"""  # noqa: S608
        params = [account.pk, first_ref, start, step, count]
    else:
        sql = f"""WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n + 1 < %s)
                  INSERT INTO {table} (account_id, card_id, reference, posted_at, amount, merchant,
                  description)
                  SELECT %s, NULL, 'T-' || (%s + n),
                         strftime('%%Y-%%m-%%d %%H:%%M:%%f', %s, '+' || (n * %s) || ' seconds'),
                         1000 + (n %% 500), 'Merchant ' || (n %% 97), 'Purchase' FROM seq"""  # noqa: S608
        params = [count, account.pk, first_ref, start.strftime("%Y-%m-%d %H:%M:%S"), step]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    if connection.vendor == "postgresql":
        # The insert triggers filled HourlyTotal too: the planner needs both.
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {table}")
            cursor.execute(f"ANALYZE {HourlyTotal._meta.db_table}")


def harness_for(customer: Customer, text: str = "") -> GuardedHarness:
    conversation = Conversation.objects.create(customer=customer)
    return GuardedHarness(
        action_context_for(
            customer.user, conversation, mandate=mandate_for(customer=conversation.customer, text=text)
        )
    )


def bench_guarded_read(calls: int) -> dict[str, Any]:
    customer, account, _ = make_customer("reader")
    month_start = timezone.localtime().replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    add_transactions(
        account, 180, first_ref=10_000_000, start=month_start - timedelta(days=62), spread_seconds=90 * 86400
    )
    month = f"{(month_start - timedelta(days=20)):%Y-%m}"
    harness = harness_for(customer, f"show my statement for {month}")
    ctx = harness.ctx
    rows = statement_for_month(customer=customer, month=month).count
    times = rounds(
        {
            "guarded": lambda: harness.call("get_statement", {"month": month}),
            "bare_selector": lambda: statement_for_month(customer=customer, month=month),
            "bare_tool_function": lambda: get_statement(ctx, GetStatementArgs(month=month)),
        },
        calls,
    )
    return {
        "rows_in_month": rows,
        "calls_per_round": calls,
        "rounds": ROUNDS,
        "seconds": times,
        "ratio": times["guarded"] / times["bare_selector"],
        "ratio_vs_tool_function": times["guarded"] / times["bare_tool_function"],
        "goal": "<= 1.5",
    }


def bench_confirm(calls: int) -> dict[str, Any]:
    """Confirm-plus-execute (one transaction: lock, confirmation, service,
    proposal, idempotency record, trace) vs the bare service, for both write
    tools; and the statements one call of each sends."""
    needed = (ROUNDS + 1) * calls + 1  # + 1: the call whose statements are counted
    customer, account, _ = make_customer("writer")
    user = customer.user
    add_transactions(
        account,
        2 * needed,
        first_ref=20_000_000,
        start=timezone.now() - timedelta(days=30),
        spread_seconds=20 * 86400,
    )
    txns = list(Transaction.objects.filter(account=account).order_by("id"))
    cards = Card.objects.bulk_create(
        [Card(account=account, last4=f"{n:04d}") for n in range(1, 2 * needed + 1)]
    )
    conversation = Conversation.objects.create(customer=customer)
    ctx = action_context_for(user, conversation)

    def proposals_for(tool: str, args_list: list[dict[str, str]]) -> list[Any]:
        spec = CATALOG[tool]
        return [proposal_create(ctx, spec, spec.args(**args), []) for args in args_list]

    dispute_proposals = iter(
        proposals_for(
            "raise_dispute",
            [
                {"transaction": t.reference, "amount": f"{t.amount:.2f}", "reason": "not_recognised"}
                for t in txns[:needed]
            ],
        )
    )
    bare_disputes = iter(txns[needed:])
    block_proposals = iter(proposals_for("block_card", [{"card": c.last4} for c in cards[:needed]]))
    bare_blocks = iter(cards[needed:])

    def confirm(proposals: Any) -> None:
        proposal = next(proposals)
        outcome = proposal_confirm(user=user, public_id=proposal.public_id, digest=proposal.args_digest)
        assert outcome.response["status"] == "executed", outcome.response

    def bare_dispute() -> None:
        txn = next(bare_disputes)
        dispute_open(
            customer=customer,
            transaction_reference=txn.reference,
            amount=f"{txn.amount:.2f}",
            reason="not_recognised",
            idempotency_key=uuid.uuid4(),
        )

    def bare_block() -> None:
        card_block(customer=customer, last4=next(bare_blocks).last4, idempotency_key=uuid.uuid4())

    statements = {
        name: _statements(fn)
        for name, fn in (
            ("confirm_raise_dispute", lambda: confirm(dispute_proposals)),
            ("bare_dispute_open", bare_dispute),
            ("confirm_block_card", lambda: confirm(block_proposals)),
            ("bare_card_block", bare_block),
        )
    }
    times = rounds(
        {
            "confirm_raise_dispute": lambda: confirm(dispute_proposals),
            "bare_dispute_open": bare_dispute,
            "confirm_block_card": lambda: confirm(block_proposals),
            "bare_card_block": bare_block,
        },
        calls,
    )
    return {
        "calls_per_round": calls,
        "rounds": ROUNDS,
        "seconds": times,
        "statements": statements,
        "ratio_dispute": times["confirm_raise_dispute"] / times["bare_dispute_open"],
        "ratio_block": times["confirm_block_card"] / times["bare_card_block"],
        "goal": "<= 1.8",
    }


def _statements(fn: Callable[[], Any]) -> dict[str, Any]:
    """The statements one call sends, as Django captures them: BEGIN, COMMIT and
    savepoints included, each a round trip."""
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        fn()
    sql = [q["sql"] for q in captured.captured_queries]
    return {"count": len(sql), "sql": [line[:160] for line in sql]}


def add_population(accounts: int, per_account: int) -> None:
    """Other customers' accounts, each with ``per_account`` transactions over the
    last year: the table a real bank's statement query runs in. Without them the
    planner sees three accounts and averages the busy one into every estimate."""
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"pop{n}") for n in range(accounts)]
    )
    customers = Customer.objects.bulk_create([Customer(user=u, full_name=u.username) for u in users])
    created = Account.objects.bulk_create(
        [Account(customer=c, number=f"KZPOP{n:015d}") for n, c in enumerate(customers)]
    )
    ids = [a.pk for a in created]
    table = Transaction._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {table} (account_id, card_id, reference, posted_at, amount,
                           merchant, description)
                           SELECT a, NULL, 'T-' || (900000000 + a * 10000 + n),
                                  now() - make_interval(secs => (n * 31536000.0 / %s)),
                                  1000 + (n %% 500), 'Merchant ' || (n %% 97), 'Purchase'
                           FROM unnest(%s::bigint[]) AS a, generate_series(0, %s - 1) AS n""",  # noqa: S608
            [per_account, ids, per_account],
        )


def _scan(plan: str, table: str) -> str:
    scan = next((line.strip(" ->") for line in plan.splitlines() if "Scan" in line and table in line), "")
    return scan.split("  (cost")[0]


def statement_plan(customer: Customer, month: str) -> dict[str, str]:
    """How the statement's two reads find their rows: the page (transactions)
    and the count and total (hourly totals)."""
    from accounts.selectors import customer_transactions

    start, end = parse_month(month).bounds()  # whole hours in a whole-hour zone
    rows = customer_transactions(customer=customer).filter(posted_at__gte=start, posted_at__lt=end)
    hours = HourlyTotal.objects.filter(account__customer=customer, hour__gte=start, hour__lt=end)
    return {
        "page": _scan(rows.order_by("posted_at", "id")[:201].explain(), Transaction._meta.db_table),
        "count_total": _scan(hours.values("count", "total_minor").explain(), HourlyTotal._meta.db_table),
    }


def bench_insert_cost(calls: int, bulk_rows: int) -> dict[str, Any]:
    """What the triggers add to a write: one ORM ``create`` (its own
    transaction, as a posting is), all into one busy hour of one account (the
    hot summary row), and one raw-SQL bulk INSERT of ``bulk_rows`` rows; with
    the HourlyTotal triggers on, then off, alternating by round. With them off
    the summary is wrong for the two accounts used here; nothing reads them."""
    _, on_account, _ = make_customer("poster_on")
    _, off_account, _ = make_customer("poster_off")
    table = Transaction._meta.db_table
    refs = iter(range(950_000_000, 999_999_999))
    now = timezone.now()

    def post(account: Account) -> None:
        Transaction.objects.create(
            account=account,
            reference=f"T-{next(refs)}",
            posted_at=now,
            amount=1000,
            merchant="Merchant",
            description="Purchase",
        )

    def bulk(account: Account) -> None:
        first = next(refs)
        for _ in range(bulk_rows):
            next(refs)
        add_transactions(
            account, bulk_rows, first_ref=first, start=now - timedelta(days=30), spread_seconds=30 * 86400
        )

    def triggers(enabled: bool) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {table} {'ENABLE' if enabled else 'DISABLE'} TRIGGER USER")

    samples: dict[str, list[float]] = {"create_on": [], "create_off": [], "bulk_on": [], "bulk_off": []}
    try:
        for round_ in range(ROUNDS + 1):  # the first round warms up
            for enabled, account in ((True, on_account), (False, off_account)):
                triggers(enabled)
                side = "on" if enabled else "off"
                started = time.perf_counter()
                for _ in range(calls):
                    post(account)
                create_seconds = (time.perf_counter() - started) / calls
                started = time.perf_counter()
                bulk(account)
                bulk_seconds = time.perf_counter() - started
                if round_:
                    samples[f"create_{side}"].append(create_seconds)
                    samples[f"bulk_{side}"].append(bulk_seconds)
    finally:
        triggers(True)
    seconds = {name: statistics.median(values) for name, values in samples.items()}
    return {
        "calls_per_round": calls,
        "bulk_rows": bulk_rows,
        "rounds": ROUNDS,
        "seconds": seconds,
        "ratio_create": seconds["create_on"] / seconds["create_off"],
        "ratio_bulk": seconds["bulk_on"] / seconds["bulk_off"],
    }


def bench_big_account(
    big: int, small: int, calls: int, population: int, insert_calls: int, insert_bulk_rows: int
) -> dict[str, Any]:
    """get_statement through the guarded harness on an account with ``big``
    transactions vs one with ``small``, over the same 12 months (a busy account),
    and with the queried month equally full (a long history); then what the
    HourlyTotal triggers cost the writes (``bench_insert_cost``)."""
    now = timezone.now()
    year = 365 * 86400
    started = time.perf_counter()
    add_population(population, 500)
    busy, busy_account, _ = make_customer("busy")
    quiet, quiet_account, _ = make_customer("quiet")
    history, history_account, _ = make_customer("history")
    # A control: a quiet account with a full page (~255 rows in the month), so
    # the busy one can be compared with a page of the same size.
    full, full_account, _ = make_customer("full_page")
    add_transactions(
        busy_account, big, first_ref=100_000_000, start=now - timedelta(days=365), spread_seconds=year
    )
    add_transactions(
        quiet_account, small, first_ref=300_000_000, start=now - timedelta(days=365), spread_seconds=year
    )
    # Long history: the same recent year as the quiet account, plus older rows.
    add_transactions(
        history_account, small, first_ref=400_000_000, start=now - timedelta(days=365), spread_seconds=year
    )
    add_transactions(
        history_account,
        big - small,
        first_ref=500_000_000,
        start=now - timedelta(days=365 * 40),
        spread_seconds=39 * year,
    )
    add_transactions(
        full_account, 3 * small, first_ref=600_000_000, start=now - timedelta(days=365), spread_seconds=year
    )
    populate_seconds = time.perf_counter() - started  # the inserts, triggers included
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # every table, HourlyTotal included
    month = f"{timezone.localtime(now - timedelta(days=60)):%Y-%m}"
    people = {"busy": busy, "quiet": quiet, "history": history, "full_page": full}
    harnesses = {name: harness_for(c, f"statement for {month}") for name, c in people.items()}

    def call(name: str) -> Callable[[], Any]:
        return lambda: harnesses[name].call("get_statement", {"month": month})

    times = rounds({name: call(name) for name in harnesses}, calls)
    plans = {name: statement_plan(c, month) for name, c in people.items()}
    peaks = {}
    for name in harnesses:
        tracemalloc.start()
        outcome = harnesses[name].call("get_statement", {"month": month})
        peaks[name] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert outcome.status == OutcomeStatus.OK
    counts = {name: statement_for_month(customer=c, month=month).count for name, c in people.items()}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {Transaction._meta.db_table}")  # noqa: S608
        table_rows = cursor.fetchone()[0]
        cursor.execute(f"SELECT count(*) FROM {HourlyTotal._meta.db_table}")  # noqa: S608
        summary_rows = cursor.fetchone()[0]
    start, end = parse_month(month).bounds()
    hours_in_month = {
        name: HourlyTotal.objects.filter(account__customer=c, hour__gte=start, hour__lt=end).count()
        for name, c in people.items()
    }
    return {
        "transactions": {"busy": big, "quiet": small, "history": big, "full_page": 3 * small},
        "other_accounts": population,
        "table_rows": table_rows,
        "summary_rows": summary_rows,
        "summary_rows_in_month": hours_in_month,
        "populate_seconds": populate_seconds,
        "plans": plans,
        "rows_in_month": counts,
        "calls_per_round": calls,
        "rounds": ROUNDS,
        "seconds": times,
        "peak_bytes": peaks,
        "ratio_busy": times["busy"] / times["quiet"],
        "ratio_history": times["history"] / times["quiet"],
        "ratio_busy_vs_full_page": times["busy"] / times["full_page"],
        "memory_ratio_busy": peaks["busy"] / peaks["quiet"],
        "memory_ratio_history": peaks["history"] / peaks["quiet"],
        "memory_ratio_busy_vs_full_page": peaks["busy"] / peaks["full_page"],
        "goal": "<= 1.5, memory flat",
        "insert_cost": bench_insert_cost(insert_calls, insert_bulk_rows),
    }


def http_setup(proposals: int, ids_path: str, unguarded_path: str = "") -> dict[str, Any]:
    """Data for benchmark (b): one signed-in customer, ``proposals`` pending
    dispute proposals (one per transaction) listed in ``ids_path``, as many other
    transactions (on a second account) for the unguarded endpoint listed in
    ``unguarded_path`` ("reference amount"), and the bare view's table."""
    from django.test import Client

    from bench.urls import BARE_TABLE

    customer, account, _ = make_customer("httpbench")
    add_transactions(
        account,
        proposals,
        first_ref=700_000_000,
        start=timezone.now() - timedelta(days=30),
        spread_seconds=20 * 86400,
    )
    conversation = Conversation.objects.create(customer=customer)
    ctx = action_context_for(customer.user, conversation)
    spec = CATALOG["raise_dispute"]
    with open(ids_path, "w") as ids:
        for txn in Transaction.objects.filter(account=account).order_by("id"):
            proposal = proposal_create(
                ctx,
                spec,
                spec.args(transaction=txn.reference, amount=f"{txn.amount:.2f}", reason="not_recognised"),
                [],
            )
            ids.write(f"{proposal.public_id} {proposal.args_digest}\n")
    if unguarded_path:
        other = Account.objects.create(customer=customer, number=f"KZ{uuid.uuid4().hex[:18].upper()}")
        add_transactions(
            other,
            proposals,
            first_ref=750_000_000,
            start=timezone.now() - timedelta(days=30),
            spread_seconds=20 * 86400,
        )
        with open(unguarded_path, "w") as lines:
            for txn in Transaction.objects.filter(account=other).order_by("id"):
                lines.write(f"{txn.reference} {txn.amount:.2f}\n")
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {BARE_TABLE} (id bigserial PRIMARY KEY, "
            "user_id bigint NOT NULL, body text NOT NULL, "
            "created_at timestamptz NOT NULL DEFAULT now())"
        )
    client = Client()
    client.force_login(customer.user)
    return {"session": client.cookies["sessionid"].value, "proposals": proposals}


def ws_setup(sockets: int, path: str, transactions: int = 20, naive: int = 0) -> dict[str, Any]:
    """Data for benchmarks (c) and (f): ``sockets`` customers (the chat's rate limit
    is per customer), each signed in with a card, ``transactions`` transactions and
    an open conversation; for the last ``naive`` of them, a conversation the bench
    workers answer through the naive harness (``NAIVE_TITLE``)."""
    from django.test import Client

    from bench import NAIVE_TITLE

    people = []
    for n in range(sockets):
        customer, account, _ = make_customer(f"wsbench{n}")
        if transactions:
            add_transactions(
                account,
                transactions,
                first_ref=800_000_000 + n * 100,
                start=timezone.now() - timedelta(days=30),
                spread_seconds=20 * 86400,
            )
        is_naive = n >= sockets - naive
        conversation = Conversation.objects.create(customer=customer, title=NAIVE_TITLE if is_naive else "")
        client = Client()
        client.force_login(customer.user)
        people.append(
            {
                "session": client.cookies["sessionid"].value,
                "conversation": str(conversation.public_id),
                "naive": is_naive,
            }
        )
    Path(path).write_text(json.dumps(people))
    return {"sockets": sockets}


def main() -> None:
    job = json.loads(sys.argv[1])
    call_command("migrate", verbosity=0, interactive=False)
    out: dict[str, Any] = {"vendor": connection.vendor}
    if "a" in job["parts"]:
        out["a"] = bench_guarded_read(job.get("read_calls", 50))
    if "confirm" in job["parts"]:
        out["confirm"] = bench_confirm(job.get("write_calls", 20))
    if "d" in job["parts"]:
        out["d"] = bench_big_account(
            job.get("big", 1_000_000),
            job.get("small", 1_000),
            job.get("d_calls", 10),
            job.get("population", 2_000),
            job.get("insert_calls", 50),
            job.get("insert_bulk_rows", 20_000),
        )
    if "ws_setup" in job["parts"]:
        out["ws_setup"] = ws_setup(
            job["sockets"], job["ws_path"], job.get("transactions", 20), job.get("naive", 0)
        )
    if "http_setup" in job["parts"]:
        out["http_setup"] = http_setup(job["proposals"], job["ids_path"], job.get("unguarded_path", ""))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
