"""ActionContext: who is acting, with which scopes and mandate — from the session only (G1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Never, Protocol, TypeAlias, TypeVar, cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models

from accounts.models import Customer
from tools.binding import Grant, Mandate
from tools.models import Proposal
from tools.scopes import CUSTOMER_SCOPES

# Who a request or a socket says is there (``request.user``, ``scope["user"]``): a
# signed-in user or an anonymous one. The harness acts only for the first.
SessionUser: TypeAlias = AbstractBaseUser | AnonymousUser


class ConversationLike(Protocol):
    """What the harness reads of the conversation it acts in. The object is the chat's
    conversation (``action_context_for`` checks it); the harness names no more of it.
    Where it is stored against a foreign key, ``key_target`` gives it the key's type."""

    @property
    def pk(self) -> object: ...

    @property
    def customer(self) -> Customer: ...

    @property
    def customer_id(self) -> int: ...


class InvalidAuthorizationContext(Exception):
    def __init__(self) -> None:
        super().__init__("invalid authorization context")


@dataclass(frozen=True)
class ActionContext:
    customer: Customer
    conversation: ConversationLike
    scopes: frozenset[str]
    mandate: Mandate = field(default_factory=Mandate)
    # Grants already used by a proposal this turn: a mandate authorises one
    # proposal per requested action (G7).
    spent: set[Grant] = field(default_factory=set, compare=False, hash=False)

    def has_scopes(self, required: frozenset[str]) -> bool:
        return required <= self.scopes


def action_context_for(
    user: SessionUser,
    conversation: ConversationLike,
    *,
    mandate: Mandate | None = None,
    scopes: frozenset[str] = CUSTOMER_SCOPES,
) -> ActionContext:
    """Build the context from an authenticated user (``request.user`` or
    ``scope["user"]``). Anything else — an anonymous user, a staff user with no
    customer, someone else's conversation, and at run time a string or None — is
    refused."""
    if not isinstance(user, AbstractBaseUser) or not user.is_authenticated or not user.is_active:
        raise InvalidAuthorizationContext()
    if not isinstance(conversation, conversation_model()):
        raise InvalidAuthorizationContext()
    # One customer per user (one-to-one): the conversation's customer is the
    # session's exactly when it belongs to this user. Staff without a customer
    # and other customers fail here alike.
    customer = conversation.customer
    if customer.user_id != user.pk:
        raise InvalidAuthorizationContext()
    return ActionContext(
        customer=customer,
        conversation=conversation,
        scopes=frozenset(scopes),
        mandate=mandate if mandate is not None else Mandate(),
    )


def conversation_model() -> type[models.Model]:
    """The chat's conversation model, read from the proposals' foreign key: the class that
    ``action_context_for`` accepts is the one a proposal belongs to, by construction."""
    model = Proposal._meta.get_field("conversation").related_model
    assert isinstance(model, type)  # resolved once the apps are loaded
    return model


_Target = TypeVar("_Target", bound=models.Model)


def key_target(key: models.ForeignKey[Never, _Target | None], value: object) -> _Target:
    """``value`` as the object the foreign key ``key`` points to, typed as the key's own
    target: the harness stores the chat's conversation (``Proposal.conversation``,
    ``ToolCallTrace.conversation``) without importing the chat, and the type checker
    still knows the model. Anything that is not an instance of it is refused."""
    model = key.related_model
    if not (isinstance(model, type) and isinstance(value, model)):
        raise InvalidAuthorizationContext()
    return cast(_Target, value)  # an instance of the key's target, checked above
