# The confirm runs in one transaction (issue 14): no proposal waits in
# "confirmed", no idempotency record is ever in progress, nothing holds a lease.

from django.db import migrations, models
from django.db.models import Q


def settle_unfinished_executions(apps, schema_editor):
    """Rows the phased protocol left mid-way go back to pending. Each keeps its
    Confirmation and its decided_at (what marks it), so the next click finishes
    it with the same idempotency key (tools/proposals.py, proposal_claim), and
    the services' key checks keep the action single. Their idempotency records
    go: the finishing click writes one."""
    Proposal = apps.get_model("tools", "Proposal")
    Confirmation = apps.get_model("tools", "Confirmation")
    IdempotencyRecord = apps.get_model("tools", "IdempotencyRecord")
    unfinished = Proposal.objects.filter(Q(status="confirmed") | Q(status="failed", retryable=True))
    keys = Confirmation.objects.filter(proposal__in=unfinished).values("idempotency_key")
    IdempotencyRecord.objects.filter(Q(key__in=keys) | Q(state="in_progress")).delete()
    unfinished.update(status="pending", result=None, retryable=False)


class Migration(migrations.Migration):

    dependencies = [
        ('tools', '0003_alter_toolcalltrace_options'),
    ]

    operations = [
        migrations.RunPython(settle_unfinished_executions, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='idempotencyrecord',
            name='completed_record_has_response',
        ),
        migrations.RemoveField(
            model_name='idempotencyrecord',
            name='completed_at',
        ),
        migrations.RemoveField(
            model_name='idempotencyrecord',
            name='locked_until',
        ),
        migrations.RemoveField(
            model_name='idempotencyrecord',
            name='state',
        ),
        migrations.RemoveField(
            model_name='proposal',
            name='retryable',
        ),
        migrations.AlterField(
            model_name='idempotencyrecord',
            name='response',
            field=models.JSONField(),
        ),
        migrations.AlterField(
            model_name='proposal',
            name='status',
            field=models.CharField(choices=[('pending', 'Pending'), ('executed', 'Executed'), ('failed', 'Failed'), ('declined', 'Declined'), ('expired', 'Expired')], default='pending', max_length=10),
        ),
    ]
