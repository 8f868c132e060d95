"""The app's ASGI application plus what benchmark (c) compares the chat with, bench-only:

- ``ws/bench-echo/``: a bare echo consumer, behind the same origin check and session
  middleware as the chat;
- the **naive turn**: in these workers, a conversation titled ``NAIVE_TITLE`` (made
  only by the benchmark's setup) plays its turns through the Injection Lab's
  ``NaiveHarness`` and without the output check (``run_turn``'s ``harness_factory``
  and ``check_output=False``), on the same chat consumer, model, streaming and
  channel layer as a guarded turn — what a naive app would run instead. The app's
  own ASGI application (bankbot/asgi.py) never does this.
"""

from __future__ import annotations

from typing import Any

from bankbot.asgi import django_asgi_app

# Imported once Django is set up (above): they load models.
HTTP = django_asgi_app

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import path  # noqa: E402

from accounts.models import Account  # noqa: E402
from accounts.selectors import statement_for_month  # noqa: E402
from bankbot import agent  # noqa: E402
from bankbot.routing import websocket_urlpatterns  # noqa: E402
from bankbot.websocket_origin import SameOriginOnly  # noqa: E402
from bench import NAIVE_TITLE  # noqa: E402
from tools import specs  # noqa: E402
from tools.naive import NaiveGetStatementArgs, NaiveHarness  # noqa: E402

_guarded_run_turn = agent.run_turn


class ChatNaiveHarness(NaiveHarness):
    """The lab's naive harness, its statement with the fields the chat's statement
    table shows (``count``, ``has_more``, ``currency``: the lab never renders it, and
    without them the chat's fragment fails). The same read, nothing checked."""

    def _run(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name != "get_statement":
            return super()._run(name, args)
        parsed = NaiveGetStatementArgs.model_validate(args)
        account = (Account.objects.get(number=parsed.account_id) if parsed.account_id
                   else self.customer.accounts.first())
        statement = statement_for_month(customer=account.customer, month=parsed.month)
        return {"account": account.number, "month": str(statement.month), "currency": "KZT",
                "transactions": [specs._transaction(t) for t in statement.transactions],
                "count": statement.count, "total_kzt": f"{statement.total:.2f}",
                "has_more": statement.has_more}


def _naive_harness(ctx: Any, sources: Any) -> NaiveHarness:
    return ChatNaiveHarness(ctx.customer, ctx.conversation)


def run_turn(**kwargs: Any) -> Any:
    """``agent.run_turn`` in the bench workers: the naive turn for the benchmark's
    naive conversations, the app's own turn for every other."""
    if kwargs["conversation"].title == NAIVE_TITLE:
        kwargs.update(harness_factory=_naive_harness, check_output=False)
    return _guarded_run_turn(**kwargs)


agent.run_turn = run_turn  # the chat looks it up as agent.run_turn at each turn


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data)


application = ProtocolTypeRouter({
    "http": ASGIStaticFilesHandler(HTTP),
    "websocket": SameOriginOnly(AuthMiddlewareStack(URLRouter([
        path("ws/bench-echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns]))),
})
