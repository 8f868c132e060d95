from __future__ import annotations

import pytest

from tools.context import action_context_for
from tools.harness import GuardedHarness
from tools.mandate import mandate_build


@pytest.fixture
def harness_for():
    """harness_for(conversation, "block my card 4242", ui={...}) → a GuardedHarness."""

    def build(conversation, text: str = "", ui: dict | None = None, **kwargs):
        mandate = mandate_build([("m1", text, ui)])
        ctx = action_context_for(conversation.customer.user, conversation, mandate=mandate,
                                 **kwargs)
        return GuardedHarness(ctx)

    return build
