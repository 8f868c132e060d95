from django.apps import AppConfig


class BankbotConfig(AppConfig):
    name = "bankbot"
    verbose_name = "Chat"
