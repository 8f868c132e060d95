from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError, connections


@pytest.mark.django_db
def test_it_answers_ok_when_the_database_is_reachable(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


@pytest.mark.django_db
def test_it_names_the_database_vendor(client):
    response = client.get("/healthz")

    assert response.json() == {"status": "ok", "database": connections["default"].vendor}


@pytest.mark.django_db
def test_it_is_never_cached(client):
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_it_refuses_post(client):
    response = client.post("/healthz")

    assert response.status_code == 405
    assert response["Allow"] == "GET"


@pytest.mark.django_db
def test_it_answers_503_with_the_reason_when_the_database_fails(client):
    failure = OperationalError("unable to open database file")
    with mock.patch.object(connections["default"], "cursor", side_effect=failure):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "unavailable",
                               "database": "unable to open database file"}
