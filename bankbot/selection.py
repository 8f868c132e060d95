"""A click on a row's button is the customer's explicit choice of one object: the chat
proposes exactly that call through the harness at once, without asking the model.

Asking the model would make the click only as good as its search (a row from another
month or page was "not found"). The turn's mandate is the click's one grant
(``mandate_from_ui``); its tool's catalog entry says which call the grant means
(``WriteTool.selected``: a row's dispute is for its full amount, with the reason
picked); the harness checks, traces and proposes it like any call the model makes,
and the model's history shows the call and its answer as its own.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from openai.types.chat import ChatCompletionMessageFunctionToolCall
from openai.types.chat.chat_completion_message_function_tool_call import Function

from bankbot.models import Message
from errors import DomainError
from tools.catalog import CATALOG, WriteTool
from tools.context import ActionContext


def selected_call(
    ctx: ActionContext, customer_message: Message
) -> ChatCompletionMessageFunctionToolCall | DomainError | None:
    """The call a click means, or why there is none (someone else's row, a missing
    one), or None when the message is not a click on a row's button."""
    grants = ctx.mandate.grants
    if not customer_message.ui_action or len(grants) != 1:
        return None
    spec = CATALOG.get(grants[0].operation)
    if not isinstance(spec, WriteTool) or spec.selected is None:
        return None
    try:
        arguments = spec.selected(ctx, grants[0])
    except DomainError as refusal:
        return refusal
    return ChatCompletionMessageFunctionToolCall(
        id=f"ui-{customer_message.pk}",
        type="function",
        function=Function(name=spec.name, arguments=json.dumps(arguments)),
    )


def selection_answer(proposed: bool, refusal: str) -> str:
    """The assistant's words under the card (or instead of it), in the page's language."""
    if proposed:
        return _("Here it is: check the details and press Confirm, or Decline.")
    return refusal
