"""A conversation's hand-over to a person: its queue entry and hold (``Handoff``) and
every step of it on the record (``HandoffEvent``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Handoff(models.Model):
    """One request for a person in one conversation, from the queue to its end. At
    most one is open (queued or held) per conversation; ``holder`` is set exactly while
    it is held, and only by a conditional UPDATE (``support/services.py``)."""

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        HELD = "held", _("Held by staff")
        RETURNED = "returned", _("Handed back to the assistant")
        CLOSED = "closed", _("Closed")

    class Reason(models.TextChoices):
        ASKED = "asked", _("The customer asked for a person")
        CARD_MISUSE = "card_misuse", _("A lost or stolen card someone is using")
        FAILED_TWICE = "failed_twice", _("The assistant failed twice in a row")

    conversation = models.ForeignKey(
        "bankbot.Conversation", on_delete=models.PROTECT, related_name="handoffs"
    )
    reason = models.CharField(max_length=20, choices=Reason.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    holder = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The page's language when the customer asked: the one staff should write in.
    language = models.CharField(max_length=8, blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    taken_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["requested_at", "id"]
        permissions = [("take_handoff", "Can take a conversation from the queue and write to its customer")]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation"],
                condition=models.Q(state__in=["queued", "held"]),
                name="handoff_one_open_per_conversation",
            ),
            models.CheckConstraint(
                condition=(models.Q(state="held") & models.Q(holder__isnull=False))
                | (models.Q(state="queued") & models.Q(holder__isnull=True))
                | models.Q(state__in=["returned", "closed"]),
                name="handoff_held_iff_holder",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand-over {self.pk} ({self.state})"


class HandoffEvent(models.Model):
    """A step of a hand-over, append-only: asked, taken, a staff message, handed back,
    closed, and (at merge) a proposal made by staff."""

    class Kind(models.TextChoices):
        ASKED = "asked", _("Asked for a person")
        TAKEN = "taken", _("Taken")
        MESSAGE = "message", _("Staff message")
        RETURNED = "returned", _("Handed back to the assistant")
        CLOSED = "closed", _("Closed")
        PROPOSED = "proposed", _("Proposed an action")
        REFUSED = "refused", _("Refused")

    handoff = models.ForeignKey(Handoff, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    text = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.kind} ({self.at:%Y-%m-%d %H:%M})"
