"""The app's settings plus the bare view the HTTP benchmark compares against."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
