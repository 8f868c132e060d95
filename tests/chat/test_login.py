"""Sign-in and sign-out with Django's auth views; django-axes pauses repeated failures."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_it_sends_anonymous_visitors_to_sign_in(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=/")


def test_it_shows_a_labelled_sign_in_form(client):
    html = client.get("/login/").content.decode()
    assert '<label for="id_username">' in html and '<label for="id_password">' in html
    assert 'autocomplete="current-password"' in html


def test_it_signs_a_customer_in_to_the_chat(client, alice):
    response = client.post("/login/", {"username": "alice", "password": "alice-pw-123"}, follow=True)
    assert response.redirect_chain[0] == ("/", 302)
    assert response.templates[0].name == "bankbot/chat.html"
    assert "Alice Akhmetova" in response.content.decode()


def test_it_says_when_the_password_is_wrong(client, alice):
    response = client.post("/login/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()


@override_settings(AXES_FAILURE_LIMIT=3)
def test_it_pauses_sign_in_after_repeated_failures(alice):
    client = Client()
    for _ in range(3):
        response = client.post("/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 429
    html = response.content.decode()
    assert "Sign-in is paused" in html and "3 failed sign-in attempts" in html
    # Even the right password waits for the cool-off.
    response = client.post("/login/", {"username": "alice", "password": "alice-pw-123"})
    assert response.status_code == 429


def test_it_signs_out_with_a_post(browser_for, alice):
    client = browser_for(alice)
    response = client.post("/logout/")
    assert response.status_code == 302 and response["Location"] == "/login/"
    assert client.get("/").status_code == 302


@override_settings(AXES_FAILURE_LIMIT=3)
def test_failures_from_elsewhere_never_lock_the_owner_out(alice):
    """A lockout is for one username from one address: someone guessing alice's
    password from their machine pauses only themselves."""
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(3):
        guesser.post("/login/", {"username": "alice", "password": "wrong"})
    assert guesser.post("/login/", {"username": "alice", "password": "alice-pw-123"}).status_code == 429

    owner = Client(REMOTE_ADDR="198.51.100.7")
    response = owner.post("/login/", {"username": "alice", "password": "alice-pw-123"})
    assert response.status_code == 302 and response["Location"] == "/"
