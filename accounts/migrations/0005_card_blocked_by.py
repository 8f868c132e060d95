"""Who blocked a card (the customer or the bank), and customers' own unblocks.

A block made before this migration by a customer's confirmation carries that
confirmation's key, so it is the customer's; any other blocked card is the
bank's, which only staff may lift."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def who_blocked(apps, schema_editor):
    Card = apps.get_model("accounts", "Card")
    blocked = Card.objects.filter(status="blocked")
    blocked.filter(block_key__isnull=False).update(blocked_by="customer")
    blocked.filter(block_key__isnull=True).update(blocked_by="bank")


def forget_who_blocked(apps, schema_editor):
    apps.get_model("accounts", "Card").objects.update(blocked_by="")


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_hourly_total'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='cardunblock',
            name='card_unblock_note_required',
        ),
        migrations.AddField(
            model_name='card',
            name='blocked_by',
            field=models.CharField(blank=True, choices=[('customer', 'the customer'), ('bank', 'the bank')], default='', editable=False, max_length=10),
        ),
        migrations.RunPython(who_blocked, forget_who_blocked),
        migrations.AddField(
            model_name='cardunblock',
            name='unblock_key',
            field=models.UUIDField(blank=True, editable=False, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name='cardunblock',
            name='note',
            field=models.TextField(blank=True),
        ),
        migrations.AlterField(
            model_name='cardunblock',
            name='staff_user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='card_unblocks', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('blocked_by', 'customer'), _negated=True), models.Q(('block_key__isnull', False), ('status', 'blocked')), _connector='OR'), name='card_customer_block_has_its_key'),
        ),
        migrations.AddConstraint(
            model_name='cardunblock',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('staff_user__isnull', False), ('unblock_key__isnull', True), models.Q(('note', ''), _negated=True)), models.Q(('staff_user__isnull', True), ('unblock_key__isnull', False)), _connector='OR'), name='card_unblock_by_staff_with_note_or_by_customer_with_key'),
        ),
    ]
