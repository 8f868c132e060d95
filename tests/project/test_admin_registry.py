"""Every model of BankBot's own apps is visible in Django admin, where support staff
review disputes and read the audit trail."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin

APP_LABELS = ("accounts", "disputes", "tools", "bankbot")


def _model_params() -> list[object]:
    params = []
    for label in APP_LABELS:
        for model in apps.get_app_config(label).get_models():
            name = model._meta.label
            params.append(pytest.param(model, id=name))
    return params


@pytest.mark.parametrize("model", _model_params())
def test_it_registers_the_model_in_admin(model):
    assert model in admin.site._registry
