"""What the dispute workflow tells the layers above it: a dispute moved.

Sent once the move has committed. The chat (bankbot/dispute_news.py) listens and
tells the customer in the conversation the dispute came from; the domain never
imports the chat.
"""

from __future__ import annotations

from django.dispatch import Signal

# kwargs: dispute (Dispute, its new status), review (DisputeReview)
dispute_moved = Signal()
