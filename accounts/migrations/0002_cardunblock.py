"""CardUnblock: who unblocked a card, when, why, and which block it undid.

On PostgreSQL the table is append-only in the database too (as the tool-call
trace is, tools 0002): even raw SQL cannot rewrite or delete a row. Not on
SQLite, whose test flush empties tables with DELETE; the ORM guards of
AppendOnlyModel hold on both engines."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


POSTGRES = [
    """CREATE OR REPLACE FUNCTION accounts_cardunblock_append_only() RETURNS trigger AS $$
       BEGIN RAISE EXCEPTION 'card unblocks are append-only'; END; $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER accounts_cardunblock_no_change BEFORE UPDATE OR DELETE ON accounts_cardunblock
       FOR EACH ROW EXECUTE FUNCTION accounts_cardunblock_append_only()""",
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS accounts_cardunblock_no_change ON accounts_cardunblock",
    "DROP FUNCTION IF EXISTS accounts_cardunblock_append_only()",
]


def _run(statements):
    def run(apps, schema_editor):
        for statement in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CardUnblock',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('note', models.TextField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('blocked_at', models.DateTimeField()),
                ('block_key', models.UUIDField(blank=True, editable=False, null=True)),
                ('card', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='unblocks', to='accounts.card')),
                ('staff_user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='card_unblocks', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['id'],
                'permissions': [('unblock_card', 'Can unblock a card (with a note)')],
                'abstract': False,
                'default_permissions': ('view',),
                'constraints': [models.CheckConstraint(condition=models.Q(('note', ''), _negated=True), name='card_unblock_note_required')],
            },
        ),
        migrations.RunPython(
            _run({"postgresql": POSTGRES}),
            _run({"postgresql": POSTGRES_REVERSE}),
        ),
    ]
