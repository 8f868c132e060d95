from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_it_answers_ok_when_the_database_is_reachable(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
