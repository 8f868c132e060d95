"""DisputeReview: each step of the review workflow, append-only.

On PostgreSQL the table is append-only in the database too (as the tool-call
trace is, tools 0002): even raw SQL cannot rewrite or delete a row. Not on
SQLite, whose test flush empties tables with DELETE; the ORM guards of
AppendOnlyModel hold on both engines."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


POSTGRES = [
    """CREATE OR REPLACE FUNCTION disputes_disputereview_append_only() RETURNS trigger AS $$
       BEGIN RAISE EXCEPTION 'dispute reviews are append-only'; END; $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER disputes_disputereview_no_change BEFORE UPDATE OR DELETE ON disputes_disputereview
       FOR EACH ROW EXECUTE FUNCTION disputes_disputereview_append_only()""",
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS disputes_disputereview_no_change ON disputes_disputereview",
    "DROP FUNCTION IF EXISTS disputes_disputereview_append_only()",
]


def _run(statements):
    def run(apps, schema_editor):
        for statement in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ('disputes', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='DisputeReview',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('from_status', models.CharField(choices=[('opened', 'Opened'), ('in_review', 'In review'), ('resolved', 'Resolved'), ('rejected', 'Rejected')], max_length=12)),
                ('to_status', models.CharField(choices=[('opened', 'Opened'), ('in_review', 'In review'), ('resolved', 'Resolved'), ('rejected', 'Rejected')], max_length=12)),
                ('note', models.TextField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('dispute', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reviews', to='disputes.dispute')),
                ('staff_user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='dispute_reviews', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['id'],
                'abstract': False,
                'default_permissions': ('view',),
                'constraints': [models.CheckConstraint(condition=models.Q(('note', ''), _negated=True), name='dispute_review_note_required'), models.CheckConstraint(condition=models.Q(('from_status', models.F('to_status')), _negated=True), name='dispute_review_changes_status')],
            },
        ),
        migrations.RunPython(
            _run({"postgresql": POSTGRES}),
            _run({"postgresql": POSTGRES_REVERSE}),
        ),
    ]
