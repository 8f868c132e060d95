"""The Injection Lab as a Django app for trainees: its pages and ``manage.py injectionlab``."""

from django.apps import AppConfig


class LabConfig(AppConfig):
    name = "lab"
    verbose_name = "Injection Lab"
