"""HourlyTotal: each account's count and total of transactions per UTC hour,
kept exact by the database (issue 8, benchmark d).

Transactions are written by many paths (the ORM, ``bulk_create``, seeds, raw
SQL in the benchmarks), so the summary is kept by triggers, on both engines:

- INSERT adds to the row's (account, hour). On PostgreSQL one trigger per
  statement, reading the statement's new rows as a transition table: a bulk
  insert of a million rows is one grouped upsert, not a million.
- UPDATE that changes the account, the time or the amount moves the row's
  share from its old (account, hour) to its new one; DELETE subtracts it. Both
  per row: corrections are rare in a ledger, and a per-row ``WHEN`` skips every
  update that leaves the three columns alone.
- Subtraction is an UPDATE, never an upsert: on SQLite the test flush empties
  tables with DELETE in no fixed order, so the summary may be gone before the
  transactions are deleted, and those deletes must then find nothing to change
  rather than fail. A row whose count reaches zero is deleted.
- TRUNCATE (PostgreSQL only; SQLite has none) empties the summary.

Hours are UTC and never a local zone: the bank's zone is a setting. Totals are
integer minor units: SQLite has no exact decimal. The backfill runs after the
triggers exist, in the same transaction; on PostgreSQL CREATE TRIGGER locks the
table against writes until it commits, so no row is missed or counted twice.

On SQLite, a later migration that rebuilds accounts_transaction (Django does so
for most column changes there) drops these triggers with the old table: it must
create them again. tests/accounts/test_month_summary.py fails if it does not.
"""

import django.db.models.deletion
from django.db import migrations, models

POSTGRES = [
    """CREATE FUNCTION accounts_hourlytotal_add() RETURNS trigger AS $$
       BEGIN
         INSERT INTO accounts_hourlytotal AS t (account_id, hour, count, total_minor)
         SELECT account_id, date_trunc('hour', posted_at, 'UTC'), count(*),
                sum(amount * 100)::bigint
         FROM added GROUP BY 1, 2
         ORDER BY 1, 2  -- summary rows locked in one order: two bulk inserts do not deadlock
         ON CONFLICT (account_id, hour) DO UPDATE
           SET count = t.count + EXCLUDED.count, total_minor = t.total_minor + EXCLUDED.total_minor;
         RETURN NULL;
       END $$ LANGUAGE plpgsql""",
    """CREATE FUNCTION accounts_hourlytotal_remove() RETURNS trigger AS $$
       BEGIN
         UPDATE accounts_hourlytotal
           SET count = count - 1, total_minor = total_minor - (OLD.amount * 100)::bigint
           WHERE account_id = OLD.account_id AND hour = date_trunc('hour', OLD.posted_at, 'UTC');
         DELETE FROM accounts_hourlytotal
           WHERE account_id = OLD.account_id AND hour = date_trunc('hour', OLD.posted_at, 'UTC')
             AND count = 0;
         IF TG_OP = 'UPDATE' THEN
           INSERT INTO accounts_hourlytotal AS t (account_id, hour, count, total_minor)
           VALUES (NEW.account_id, date_trunc('hour', NEW.posted_at, 'UTC'), 1,
                   (NEW.amount * 100)::bigint)
           ON CONFLICT (account_id, hour) DO UPDATE
             SET count = t.count + 1, total_minor = t.total_minor + EXCLUDED.total_minor;
         END IF;
         RETURN NULL;
       END $$ LANGUAGE plpgsql""",
    """CREATE FUNCTION accounts_hourlytotal_clear() RETURNS trigger AS $$
       BEGIN DELETE FROM accounts_hourlytotal; RETURN NULL; END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER accounts_hourlytotal_on_insert AFTER INSERT ON accounts_transaction
       REFERENCING NEW TABLE AS added
       FOR EACH STATEMENT EXECUTE FUNCTION accounts_hourlytotal_add()""",
    """CREATE TRIGGER accounts_hourlytotal_on_update
       AFTER UPDATE OF account_id, posted_at, amount ON accounts_transaction
       FOR EACH ROW WHEN ((OLD.account_id, OLD.posted_at, OLD.amount)
                          IS DISTINCT FROM (NEW.account_id, NEW.posted_at, NEW.amount))
       EXECUTE FUNCTION accounts_hourlytotal_remove()""",
    """CREATE TRIGGER accounts_hourlytotal_on_delete AFTER DELETE ON accounts_transaction
       FOR EACH ROW EXECUTE FUNCTION accounts_hourlytotal_remove()""",
    """CREATE TRIGGER accounts_hourlytotal_on_truncate AFTER TRUNCATE ON accounts_transaction
       FOR EACH STATEMENT EXECUTE FUNCTION accounts_hourlytotal_clear()""",
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS accounts_hourlytotal_on_insert ON accounts_transaction",
    "DROP TRIGGER IF EXISTS accounts_hourlytotal_on_update ON accounts_transaction",
    "DROP TRIGGER IF EXISTS accounts_hourlytotal_on_delete ON accounts_transaction",
    "DROP TRIGGER IF EXISTS accounts_hourlytotal_on_truncate ON accounts_transaction",
    "DROP FUNCTION IF EXISTS accounts_hourlytotal_add()",
    "DROP FUNCTION IF EXISTS accounts_hourlytotal_remove()",
    "DROP FUNCTION IF EXISTS accounts_hourlytotal_clear()",
]

# Django stores SQLite datetimes as UTC text, 'YYYY-MM-DD HH:MM:SS[.ffffff]', and
# compares them as text: the hour is written in the same form. Amounts are
# stored as REAL there; rounding amount * 100 recovers the exact minor units.
_SQLITE_HOUR = "strftime('%Y-%m-%d %H:00:00', {row}.posted_at)"
_SQLITE_MINOR = "CAST(round({row}.amount * 100) AS INTEGER)"


def _sqlite_add(row: str) -> str:
    return f"""INSERT INTO accounts_hourlytotal (account_id, hour, count, total_minor)
               VALUES ({row}.account_id, {_SQLITE_HOUR.format(row=row)}, 1,
                       {_SQLITE_MINOR.format(row=row)})
               ON CONFLICT (account_id, hour) DO UPDATE
                 SET count = count + 1, total_minor = total_minor + excluded.total_minor;"""


def _sqlite_remove(row: str) -> str:
    where = f"account_id = {row}.account_id AND hour = {_SQLITE_HOUR.format(row=row)}"
    return f"""UPDATE accounts_hourlytotal
                 SET count = count - 1, total_minor = total_minor - {_SQLITE_MINOR.format(row=row)}
                 WHERE {where};
               DELETE FROM accounts_hourlytotal WHERE {where} AND count = 0;"""


SQLITE = [
    f"""CREATE TRIGGER accounts_hourlytotal_on_insert AFTER INSERT ON accounts_transaction
        BEGIN {_sqlite_add("NEW")} END""",
    f"""CREATE TRIGGER accounts_hourlytotal_on_update
        AFTER UPDATE OF account_id, posted_at, amount ON accounts_transaction
        WHEN OLD.account_id IS NOT NEW.account_id OR OLD.posted_at IS NOT NEW.posted_at
             OR OLD.amount IS NOT NEW.amount
        BEGIN {_sqlite_remove("OLD")} {_sqlite_add("NEW")} END""",
    f"""CREATE TRIGGER accounts_hourlytotal_on_delete AFTER DELETE ON accounts_transaction
        BEGIN {_sqlite_remove("OLD")} END""",
]
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS accounts_hourlytotal_on_insert",
    "DROP TRIGGER IF EXISTS accounts_hourlytotal_on_update",
    "DROP TRIGGER IF EXISTS accounts_hourlytotal_on_delete",
]

# The same sums the triggers keep, computed from every row there is.
BACKFILL = {
    "postgresql": """INSERT INTO accounts_hourlytotal (account_id, hour, count, total_minor)
        SELECT account_id, date_trunc('hour', posted_at, 'UTC'), count(*), sum(amount * 100)::bigint
        FROM accounts_transaction GROUP BY 1, 2""",
    "sqlite": f"""INSERT INTO accounts_hourlytotal (account_id, hour, count, total_minor)
        SELECT account_id, {_SQLITE_HOUR.format(row="accounts_transaction")}, count(*),
               sum({_SQLITE_MINOR.format(row="accounts_transaction")})
        FROM accounts_transaction GROUP BY 1, 2""",
}


def _run(statements):
    def run(apps, schema_editor):
        for statement in statements.get(schema_editor.connection.vendor, []):
            # No parameters: the SQL is passed through as written ('%Y' included).
            schema_editor.execute(statement, params=None)

    return run


def backfill(apps, schema_editor):
    statement = BACKFILL.get(schema_editor.connection.vendor)
    if statement is None:
        raise NotImplementedError(
            f"HourlyTotal is kept by triggers on PostgreSQL and SQLite only, "
            f"not {schema_editor.connection.vendor}"
        )
    schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_transaction_account_no_lone_index'),
    ]

    operations = [
        migrations.CreateModel(
            name='HourlyTotal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('hour', models.DateTimeField()),
                ('count', models.BigIntegerField()),
                ('total_minor', models.BigIntegerField()),
                ('account', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='hourly_totals', to='accounts.account')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('account', 'hour'), name='hourly_total_account_hour'), models.CheckConstraint(condition=models.Q(('count__gte', 0)), name='hourly_total_count_not_negative')],
            },
        ),
        migrations.RunPython(
            _run({"postgresql": POSTGRES, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRES_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
