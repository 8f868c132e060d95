"""The bank's own records: customers, accounts, cards and transactions."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Customers and accounts"
