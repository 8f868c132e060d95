"""`manage.py check --deploy` is clean for an HTTPS deployment configured through the
environment (a real SECRET_KEY, Secure cookies, the HTTPS redirect and HSTS), and
the app refuses to start at all with DEBUG off on the demo key.

Each check runs `manage.py` in a process of its own, so the settings are read from
exactly the environment given, as a deployment's would be."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings

HTTPS_DEPLOYMENT = {
    "DEBUG": "0",
    "SECRET_KEY": "0f6c2e9a-not-the-demo-key-Xq7v!Lm3#Rt8@Zp1$Wn5%Bk2^Hs9&Jd4*Fy6",
    "ALLOWED_HOSTS": "bank.example",
    "CSRF_TRUSTED_ORIGINS": "https://bank.example",
    "SECURE_COOKIES": "1",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def manage(*args: str, **env: str | None) -> subprocess.CompletedProcess[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in HTTPS_DEPLOYMENT and key != "DJANGO_SETTINGS_MODULE"
    }
    environment.update({key: value for key, value in env.items() if value is not None})
    return subprocess.run(  # noqa: S603 (our own interpreter and manage.py)
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_deploy_checks_pass_with_https_configured():
    done = manage("check", "--deploy", "--fail-level", "WARNING", **HTTPS_DEPLOYMENT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_the_deploy_checks_name_what_is_missing_without_it():
    done = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **{**HTTPS_DEPLOYMENT, "SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "0"},
    )
    assert done.returncode != 0
    assert "security.W004" in done.stderr and "security.W008" in done.stderr


def test_it_refuses_to_start_on_the_demo_key_with_debug_off():
    done = manage("check", DEBUG="0")
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr
    assert manage("check", DEBUG="1").returncode == 0  # the local demo


def test_it_refuses_to_start_on_an_empty_or_short_key_with_debug_off():
    # An empty key used to start, and then every sign-in was a 500.
    done = manage("check", DEBUG="0", SECRET_KEY="")
    assert done.returncode != 0 and "SECRET_KEY must be set" in done.stderr
    done = manage("check", DEBUG="0", SECRET_KEY="x")
    assert done.returncode != 0 and "SECRET_KEY is too weak" in done.stderr
