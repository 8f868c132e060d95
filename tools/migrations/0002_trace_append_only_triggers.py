"""On PostgreSQL — the engine for several workers — the trace is append-only in
the database too (G9): even raw SQL cannot rewrite or delete a row.

Not on SQLite: there Django's test flush empties tables with DELETE, which such
a trigger would refuse; the ORM guards on ToolCallTrace hold on both engines.
(PostgreSQL's flush uses TRUNCATE, which row triggers do not see.)"""

from django.db import migrations

POSTGRES = [
    """CREATE OR REPLACE FUNCTION tools_toolcalltrace_append_only() RETURNS trigger AS $$
       BEGIN RAISE EXCEPTION 'the tool-call trace is append-only'; END; $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER tools_toolcalltrace_no_change BEFORE UPDATE OR DELETE ON tools_toolcalltrace
       FOR EACH ROW EXECUTE FUNCTION tools_toolcalltrace_append_only()""",
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS tools_toolcalltrace_no_change ON tools_toolcalltrace",
    "DROP FUNCTION IF EXISTS tools_toolcalltrace_append_only()",
]


def _run(statements):
    def run(apps, schema_editor):
        chosen = statements.get(schema_editor.connection.vendor, [])
        for statement in chosen:
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("tools", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRES}),
            _run({"postgresql": POSTGRES_REVERSE}),
        )
    ]
