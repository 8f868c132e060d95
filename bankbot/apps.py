"""The chat, with the project around it; staff's dispute moves are connected to it here."""

from django.apps import AppConfig


class BankbotConfig(AppConfig):
    name = "bankbot"
    verbose_name = "Chat"

    def ready(self) -> None:
        from bankbot import dispute_news

        dispute_news.connect()  # staff's dispute moves reach the customer's chat
