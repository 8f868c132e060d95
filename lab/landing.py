"""Sign-in that lands a trainee on the lab.

Signing in goes to ``next`` when it names a page of this site, else to
``LOGIN_REDIRECT_URL`` ("/": a customer's chat; staff are sent on to admin). A
trainee has no chat, so without a ``next`` they land on the lab's first page.
"""

from __future__ import annotations

from django.contrib.auth.views import LoginView
from django.shortcuts import resolve_url

from lab.access import lands_on_lab


class SignInView(LoginView):
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        if lands_on_lab(self.request.user):
            return resolve_url("lab:index")
        return super().get_default_redirect_url()
