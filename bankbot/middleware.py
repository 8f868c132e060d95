"""The database unreachable in any view: the 503 page that says so, not a 500.

The views that act (send, confirm, decline) answer an outage themselves, keeping
the confirm card or the form to retry (``bankbot.views.database_outage_is_503``).
This catches the rest — the chat page, the statement, the admin, the lab — whose
first query (often the session's user) finds PostgreSQL stopped or unreachable.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

from bankbot.consumers import DATABASE_ERRORS, SYSTEMS_UNREACHABLE
from bankbot.views import database_unavailable

log = logging.getLogger(__name__)


class DatabaseOutageMiddleware(MiddlewareMixin):
    """MiddlewareMixin makes it both sync and async capable, so that under Daphne
    the middleware chain stays async instead of hopping to a thread per request."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None  # a bug stays a 500, reported as one
        log.warning("database unavailable: %s %s", request.method, request.path,
                    exc_info=exception)
        # Not one of our own forms (those answer outages themselves): never echo
        # its fields, which may hold a password.
        return database_unavailable(request, str(SYSTEMS_UNREACHABLE), replay=False)
