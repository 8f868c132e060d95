"""Trainees are a role: the Trainee group opens the lab and nothing else — no admin,
no customer's page shows anything of any customer — and signing in lands them on the
lab. A user in no group who is not staff is refused the lab."""

from __future__ import annotations

import uuid
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client

from accounts.demo import TRAINEE_LOGIN
from lab.roles import TRAINEE_GROUP, trainee_ensure
from tests.factories import make_proposal

pytestmark = pytest.mark.django_db

PASSWORD = "trainee-pw-123"


@pytest.fixture
def trainee_user() -> object:
    return trainee_ensure(username="tina", password=PASSWORD)


@pytest.fixture
def trainee(trainee_user) -> Client:
    client = Client()
    client.force_login(trainee_user)
    return client


def alice_facts(alice) -> list[str]:
    """What a page must not show of Alice: her name, account, cards, charges, merchants."""
    account = alice.accounts.get()
    facts = [alice.full_name, alice.user.get_username(), account.number]
    facts += list(account.cards.values_list("last4", flat=True))
    for reference, merchant in account.transactions.values_list("reference", "merchant"):
        facts += [reference, merchant]
    return facts


def test_the_group_exists_after_migrate_and_grants_no_permission():
    group = Group.objects.get(name=TRAINEE_GROUP)
    assert group.permissions.count() == 0


def test_a_trainee_is_not_staff_and_is_in_the_group(trainee_user):
    assert trainee_user.is_staff is False and trainee_user.is_superuser is False
    assert list(trainee_user.groups.values_list("name", flat=True)) == [TRAINEE_GROUP]


def test_a_trainee_reaches_the_lab_and_runs_a_scenario(trainee):
    assert trainee.get("/lab/").status_code == 200
    assert trainee.get("/lab/desc-ignore-previous/").status_code == 200
    response = trainee.post("/lab/desc-ignore-previous/", {"customer": "confirm-all"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Naive harness" in html and "Guarded harness" in html


def test_a_trainee_is_refused_admin(trainee):
    for url in ("/admin/", "/admin/disputes/dispute/", "/admin/accounts/customer/"):
        response = trainee.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), url
    # Following it shows the admin's own refusal, not a page of admin.
    html = trainee.get("/admin/", follow=True).content.decode()
    assert "not authorized to access this page" in html


def test_customer_pages_show_a_trainee_nothing_of_any_customer(trainee, alice, bob, alice_conversation):
    proposal = make_proposal(alice_conversation)
    pages = ["/", "/statement/", "/statement/?month=2026-11", f"/proposals/{proposal.public_id}/"]
    pages += [f"/c/{alice_conversation.public_id}/", f"/c/{uuid.uuid4()}/"]
    facts = alice_facts(alice) + alice_facts(bob)
    for url in pages:
        response = trainee.get(url)
        html = response.content.decode()
        assert response.status_code == 403, url
        assert "This sign-in has no customer profile" in html, url
        leaked = [fact for fact in facts if fact in html]
        assert leaked == [], (url, leaked)
    posted = trainee.post(f"/proposals/{proposal.public_id}/confirm", {"digest": proposal.args_digest})
    assert posted.status_code == 403
    proposal.refresh_from_db()
    assert proposal.status == "pending"


def test_the_no_customer_page_points_a_trainee_to_the_lab(trainee):
    html = trainee.get("/").content.decode()
    assert 'href="/lab/"' in html and "Go to the Injection Lab" in html
    assert 'href="/admin/"' not in html


def test_a_trainees_top_bar_has_the_lab_and_no_chat(trainee):
    html = trainee.get("/lab/").content.decode()
    assert 'href="/lab/" aria-current="page"' in html
    assert 'href="/statement/"' not in html and 'href="/admin/"' not in html


def test_a_user_in_no_group_and_not_staff_is_refused_the_lab():
    user = get_user_model().objects.create_user(username="nobody", password=PASSWORD)
    client = Client()
    client.force_login(user)
    assert client.get("/lab/").status_code == 403
    assert client.post("/lab/desc-ignore-previous/", {"customer": "never-click"}).status_code == 403
    # A group of another name opens nothing either.
    user.groups.add(Group.objects.create(name="Trainees-in-waiting"))
    assert client.get("/lab/").status_code == 403


def test_an_inactive_trainee_is_refused_the_lab(trainee_user):
    trainee_user.is_active = False
    trainee_user.save()
    client = Client()
    client.force_login(trainee_user)
    assert client.get("/lab/").status_code in (302, 403)


def test_signing_in_lands_a_trainee_on_the_lab(trainee_user):
    response = Client().post("/login/", {"username": "tina", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/lab/"


def test_a_trainee_signing_in_with_next_goes_there(trainee_user):
    response = Client().post(
        "/login/?next=/lab/desc-fake-system/", {"username": "tina", "password": PASSWORD}
    )
    assert response["Location"] == "/lab/desc-fake-system/"


def test_staff_and_customers_still_land_where_they_did(staff, alice):
    alice.user.set_password(PASSWORD)
    alice.user.save()
    assert Client().post("/login/", {"username": "alice", "password": PASSWORD})["Location"] == "/"
    assert Client().post("/login/", {"username": "support", "password": "support-pw-123"})["Location"] == "/"


def test_a_signed_in_trainee_opening_the_login_page_is_sent_to_the_lab(trainee):
    response = trainee.get("/login/")
    assert response.status_code == 302 and response["Location"] == "/lab/"


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_seed_demo_makes_the_trainee_login_once():
    username, password, _ = TRAINEE_LOGIN
    first = seed()
    user = get_user_model().objects.get(username=username)
    hashed = user.password
    second = seed()

    assert f"{username}" in first and password in first and password in second
    assert get_user_model().objects.filter(username=username).count() == 1
    user.refresh_from_db()
    assert user.password == hashed and user.check_password(password)
    assert user.is_staff is False and user.is_superuser is False
    assert list(user.groups.values_list("name", flat=True)) == [TRAINEE_GROUP]
    assert Group.objects.filter(name=TRAINEE_GROUP).count() == 1
    assert Client().post("/login/", {"username": username, "password": password})["Location"] == "/lab/"
