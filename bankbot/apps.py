"""The customer chat; staff's dispute moves and the end of a session
are connected to it here."""

from django.apps import AppConfig


class BankbotConfig(AppConfig):
    name = "bankbot"
    verbose_name = "Chat"

    def ready(self) -> None:
        from bankbot import dispute_news, socket_sessions

        dispute_news.connect()  # staff's dispute moves reach the customer's chat
        socket_sessions.connect()  # a session that ends closes the customer's sockets
