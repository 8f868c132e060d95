from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser

from bankbot.models import Conversation
from tools.context import InvalidAuthorizationContext, action_context_for, conversation_model
from tools.harness import GuardedHarness
from tools.models import Proposal, ToolCallTrace


@pytest.mark.parametrize("user", [None, "alice", 42, AnonymousUser()])
def test_it_refuses_anything_but_an_authenticated_user(alice_conversation, user):
    with pytest.raises(InvalidAuthorizationContext, match="invalid authorization context"):
        action_context_for(user, alice_conversation)


def test_it_refuses_a_user_who_is_not_a_customer(alice_conversation, staff):
    with pytest.raises(InvalidAuthorizationContext):
        action_context_for(staff, alice_conversation)


def test_it_refuses_someone_elses_conversation(alice_conversation, bob):
    with pytest.raises(InvalidAuthorizationContext):
        action_context_for(bob.user, alice_conversation)


def test_it_refuses_an_inactive_user(alice_conversation):
    alice_conversation.customer.user.is_active = False
    with pytest.raises(InvalidAuthorizationContext):
        action_context_for(alice_conversation.customer.user, alice_conversation)


def test_it_refuses_an_object_that_only_looks_like_a_conversation(alice_conversation, alice):
    lookalike = SimpleNamespace(pk=alice_conversation.pk, customer=alice, customer_id=alice.pk)
    with pytest.raises(InvalidAuthorizationContext):
        action_context_for(alice.user, lookalike)


def test_it_accepts_the_conversation_the_harness_stores_against():
    # The class checked is the foreign keys' own target, so the two cannot drift apart.
    assert conversation_model() is Conversation
    assert ToolCallTrace._meta.get_field("conversation").related_model is Conversation
    assert Proposal._meta.get_field("conversation").related_model is Conversation


@pytest.mark.parametrize("ctx", [None, "alice", {"customer": "alice"}])
def test_the_harness_refuses_a_context_not_built_from_a_session(ctx):
    with pytest.raises(InvalidAuthorizationContext):
        GuardedHarness(ctx)


def test_it_takes_the_customer_from_the_session(alice_conversation, alice):
    ctx = action_context_for(alice.user, alice_conversation)
    assert ctx.customer == alice
    assert ctx.conversation == alice_conversation
