"""The request a page gets once django-htmx's middleware has run: it carries
``request.htmx`` (the django-htmx documentation's own typing recipe)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
