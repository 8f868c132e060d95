"""Staff without a customer record land in the admin when they sign in; a
customer's page gives them a clear page pointing there."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_signing_in_takes_staff_to_the_admin(client, staff):
    response = client.post("/login/", {"username": "support", "password": "support-pw-123"}, follow=True)
    assert response.redirect_chain == [("/", 302), ("/admin/", 302)]
    assert response.status_code == 200 and "Site administration" in response.content.decode()


@pytest.mark.parametrize("path", ["/statement/", "/c/new"])
def test_it_points_staff_to_the_admin(browser_for, staff, path):
    client = browser_for(staff)
    response = client.get(path) if path != "/c/new" else client.post(path)
    assert response.status_code == 403
    html = response.content.decode()
    assert "no customer profile" in html and 'href="/admin/"' in html


def test_it_does_not_let_staff_confirm_a_proposal(browser_for, staff, block_proposal):
    response = browser_for(staff).post(
        f"/proposals/{block_proposal.public_id}/confirm", {"digest": block_proposal.args_digest}
    )
    assert response.status_code == 403
    block_proposal.refresh_from_db()
    assert block_proposal.status == "pending"
