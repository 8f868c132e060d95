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


# What a database error says: where the database is and who connects to it.
DETAIL = (
    'connection to server at "db.internal" (10.0.4.7), port 5432 failed: FATAL:  '
    'password authentication failed for user "bankbot"'
)


@pytest.mark.django_db
def test_it_answers_503_with_a_status_word_and_logs_the_reason(client, caplog):
    failure = OperationalError(DETAIL)
    with mock.patch.object(connections["default"], "cursor", side_effect=failure):
        response = client.get("/healthz")

    assert response.status_code == 503
    # /healthz is public: the database's host, port and user stay in the log.
    assert response.json() == {"status": "unavailable"}
    assert "db.internal" not in response.content.decode()
    assert DETAIL in caplog.text
