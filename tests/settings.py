"""The test run's settings: BankBot's own, with a key of the run's own.

With DEBUG off (as in tests) BankBot refuses the demo SECRET_KEY, so the run
sets one before the settings load; the processes a test starts (Daphne for the
browser tests, the scale workers) inherit it from the environment.
"""

import os

os.environ.setdefault("SECRET_KEY", "bankbot-tests-only-2b8f0c6e1d4a9f37c5e8b1a6d2f9c4e7")

from bankbot.settings import *  # noqa: E402, F403
