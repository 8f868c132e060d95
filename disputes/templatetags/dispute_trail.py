"""Filters for the dispute page's trail."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.core.serializers.json import DjangoJSONEncoder

register = template.Library()


@register.filter
def as_json(value: Any) -> str:
    """Stored JSON (arguments, results) as JSON text; the template escapes it."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, cls=DjangoJSONEncoder)
