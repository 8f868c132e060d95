"""The test run's settings: BankBot's own, with a key of the run's own.

With DEBUG off (as in tests) BankBot refuses the demo SECRET_KEY, so the run
sets one before the settings load; the processes a test starts (Daphne for the
browser tests, the scale workers) inherit it from the environment.
"""

import os

os.environ.setdefault("SECRET_KEY", "bankbot-tests-only-2b8f0c6e1d4a9f37c5e8b1a6d2f9c4e7")

from config.settings import *  # noqa: E402, F403

# A server or worker a test started lives at the suite's pinned time (tests/clock.py).
from tests.clock import follow  # noqa: E402

follow()

# Chromium keeps the real clock while the server's is pinned: a cookie dated by the
# server (the session's two weeks, CSRF's year) would read as expired to the browser
# once the real date passes it. The browser tests' cookies last as long as the browser.
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
CSRF_COOKIE_AGE = None
