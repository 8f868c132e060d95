"""The model seam as a Django app only so that ``manage.py serve_fake_model`` is found; no models."""

from django.apps import AppConfig


class LlmConfig(AppConfig):
    name = "llm"
    verbose_name = "Language model"
