"""Staff without a customer record get a clear page pointing to the admin."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/statement/"])
def test_it_points_staff_to_the_admin(client_for, staff, path):
    response = client_for(staff).get(path)
    assert response.status_code == 403
    html = response.content.decode()
    assert "no customer profile" in html and 'href="/admin/"' in html


def test_it_does_not_let_staff_confirm_a_proposal(client_for, staff, block_proposal):
    response = client_for(staff).post(f"/proposals/{block_proposal.public_id}/confirm",
                                      {"digest": block_proposal.args_digest})
    assert response.status_code == 403
    block_proposal.refresh_from_db()
    assert block_proposal.status == "pending"
