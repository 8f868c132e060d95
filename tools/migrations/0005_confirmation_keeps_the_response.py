"""The confirmation keeps its response: the idempotency record is folded into it.

Each ``IdempotencyRecord`` moves onto the confirmation with the same key
(fingerprint, response, expiry as ``replay_until``); then the table goes. A
record no confirmation has (none are written outside the confirm) is dropped
with it: its key could only have been replayed by a confirmation.
"""

from django.db import migrations, models


def fold_records_in(apps, schema_editor):
    Confirmation = apps.get_model("tools", "Confirmation")
    IdempotencyRecord = apps.get_model("tools", "IdempotencyRecord")
    for record in IdempotencyRecord.objects.iterator():
        Confirmation.objects.filter(idempotency_key=record.key).update(
            fingerprint=record.fingerprint, response=record.response,
            replay_until=record.expires_at)


def unfold(apps, schema_editor):
    Confirmation = apps.get_model("tools", "Confirmation")
    IdempotencyRecord = apps.get_model("tools", "IdempotencyRecord")
    for confirmation in Confirmation.objects.filter(response__isnull=False).select_related(
            "proposal"):
        IdempotencyRecord.objects.create(
            key=confirmation.idempotency_key, customer_id=confirmation.proposal.customer_id,
            fingerprint=confirmation.fingerprint, response=confirmation.response,
            expires_at=confirmation.replay_until)


class Migration(migrations.Migration):

    dependencies = [
        ("tools", "0004_confirm_in_one_transaction"),
    ]

    operations = [
        migrations.AddField(
            model_name="confirmation",
            name="fingerprint",
            field=models.CharField(blank=True, max_length=120),
        ),
        migrations.AddField(
            model_name="confirmation",
            name="replay_until",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AddField(
            model_name="confirmation",
            name="response",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(fold_records_in, unfold),
        migrations.DeleteModel(
            name="IdempotencyRecord",
        ),
    ]
