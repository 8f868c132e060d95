"""BankBot settings: one file, every knob read from the environment.

Defaults give the embedded demo: SQLite, an in-memory channel layer and the
offline model. See the configuration table in README.md.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str

# Django's generic classes take their type argument at run time too (ModelAdmin[Card],
# QuerySet[Card]), as django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

# The throwaway key only exists so the local demo starts with no setup (bin/demo
# sets DEBUG=1); anything else — DEBUG off, the default — refuses to start with
# it, so a deployment that forgets SECRET_KEY cannot silently run with it. Nor
# with a key anyone could guess: sessions are signed with it, so a guessed key is
# anyone's session. The rule is Django's deploy check's (security.W009), enforced.
_DEMO_SECRET_KEY = "bankbot-local-demo-only-not-secret"  # noqa: S105 (the documented demo default)
SECRET_KEY = env_str("SECRET_KEY", _DEMO_SECRET_KEY)


def _secret_key_refusal(key: str) -> str:
    """Why a deployment may not run on ``key``; "" if it may."""
    from django.core.checks.security.base import (
        SECRET_KEY_INSECURE_PREFIX,
        SECRET_KEY_MIN_LENGTH,
        SECRET_KEY_MIN_UNIQUE_CHARACTERS,
    )

    if key in ("", _DEMO_SECRET_KEY):
        return "SECRET_KEY must be set: BankBot refuses its demo key unless DEBUG=1 (the local demo)."
    if (
        len(key) < SECRET_KEY_MIN_LENGTH
        or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or key.startswith(SECRET_KEY_INSECURE_PREFIX)
    ):
        return (
            f"SECRET_KEY is too weak: it needs {SECRET_KEY_MIN_LENGTH} characters or more, "
            f"{SECRET_KEY_MIN_UNIQUE_CHARACTERS} or more of them different, and not "
            f"Django's {SECRET_KEY_INSECURE_PREFIX!r} prefix."
        )
    return ""


_refusal = _secret_key_refusal(SECRET_KEY)
if _refusal and (not DEBUG or env_bool("BANKBOT_REQUIRE_SECRET_KEY", False)):
    raise ImproperlyConfigured(f"{_refusal} Set SECRET_KEY to a long random value, the same on every worker.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "axes",
    "accounts",
    "disputes",
    "tools",
    "llm",
    "bankbot",
    "support",
    "lab",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    # Last, so it sees the view's exception first: a database outage is a 503 page.
    "bankbot.outage.OutageMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "lab.context_processors.lab_access",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------
# DATABASE_URL picks the engine; unset means a SQLite file next to manage.py.
# Health checks: a connection kept open (DB_CONN_MAX_AGE > 0) that the server
# dropped is noticed before a request uses it, instead of failing that request.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Simultaneous clicks must never surface "database is locked": WAL lets
    # readers run beside the writer, IMMEDIATE takes the write lock when a
    # transaction starts (no lock upgrade deadlock), and the busy timeout makes
    # a second writer wait instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # A SQLite connection is a file opened in this process, not a server's: each
    # thread keeps its own (unless DB_CONN_MAX_AGE says otherwise). Opening one (the
    # file, the PRAGMAs, Django's SQL functions) for every database step cost a chat
    # turn more CPU than its queries, and the steps of every socket queue on one
    # thread (docs/benchmarks.md, part g).
    if env_str("DB_CONN_MAX_AGE").strip() == "":
        DATABASES["default"]["CONN_MAX_AGE"] = None
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # An unreachable server is a clear error within seconds, never a request
    # that hangs. The isolation level stays PostgreSQL's READ COMMITTED: the
    # services rely on it (after losing a unique-constraint race, the next
    # statement sees the winner's committed row). Several workers share this
    # database; every cross-worker guarantee rests on its constraints and
    # conditional updates (docs/scaling.md).
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = 5
    # A pool per worker process (psycopg_pool, through Django): under ASGI every
    # request runs on its own thread and would otherwise open and close a
    # connection (a TCP and SCRAM handshake) each time. The pool bounds how many
    # connections one worker holds; a request that finds none free waits at most
    # DB_POOL_TIMEOUT seconds and then fails with a clear database error.
    # DB_POOL_MAX_SIZE=0 turns it off (then DB_CONN_MAX_AGE applies).
    _pool_max = env_int("DB_POOL_MAX_SIZE", 20)
    if _pool_max > 0:
        if DATABASES["default"]["CONN_MAX_AGE"]:
            raise ImproperlyConfigured(
                "DB_CONN_MAX_AGE keeps connections per thread and DB_POOL_MAX_SIZE pools "
                "them: choose one (set DB_POOL_MAX_SIZE=0 to keep DB_CONN_MAX_AGE)."
            )
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": min(2, _pool_max),
            "max_size": _pool_max,
            "timeout": env_int("DB_POOL_TIMEOUT", 5),
        }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels -------------------------------------------------------------
# REDIS_URL set → channels-redis, so a chat fragment reaches the browser from
# whichever worker runs the turn. The timeouts turn a Redis that is down or
# hung into a ConnectionError / TimeoutError the chat can report, instead of a
# send that waits forever; the read timeout must stay above channels-redis's
# own 5 s blocking receive (redis-py's default, 5 s, races it and drops sockets
# under load). Capacity: channels-redis queues the messages for every socket of
# one worker process under one key, and group_send silently drops a message
# once that key holds `capacity`; a streamed turn is dozens of fragments, so
# the default 100 lost fragments with a few dozen sockets on one worker.
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_connect_timeout": 3, "socket_timeout": 10}],
                "capacity": 5000,
            },
        }
    }
else:
    # One worker: channels' in-memory layer, walked for expired entries once a second.
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.InMemoryChannelLayer"}}

# --- Auth -----------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = 0.25  # hours
# One lockout per username *and* client address together: failures from one place
# never lock the account out for its owner signing in from another.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Behind a load balancer every request comes from the proxy's address, and one
# attacker would lock everybody out. BANKBOT_PROXY_COUNT says how many trusted
# proxies append to X-Forwarded-For; 0 (direct connections) ignores the header,
# which a client could otherwise forge.
BANKBOT_PROXY_COUNT = env_int("BANKBOT_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "config.client_ip.client_ip"
# The same trusted proxies say whether the client's connection was HTTPS (they must
# set X-Forwarded-Proto themselves); without this the HTTPS redirect below would loop.
if BANKBOT_PROXY_COUNT > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True

# --- Security headers -----------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# HTTPS deployments: redirect plain HTTP, and tell browsers to use HTTPS only
# (off by default: the local demo is plain HTTP). With these, SECURE_COOKIES=1,
# a real SECRET_KEY and ALLOWED_HOSTS, `manage.py check --deploy` is clean.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# --- Content-Security-Policy (django-csp 4) ----------------------------------
# Only our own scripts and styles run: no inline scripts or handlers, no eval
# (htmx is configured with allowEval: false), no remote images, so text a
# merchant or the model wrote cannot become code or a beacon to another host.
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "img-src": [SELF, "data:"],
        "style-src": [SELF],
        # Our own origin only: 'self' covers ws: and wss: to the same host and port.
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [NONE],
    },
}

# --- I18n -----------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Asia/Almaty")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

# --- BankBot --------------------------------------------------------------
# How long a confirm card stays clickable.
BANKBOT_PROPOSAL_TTL_SECONDS = env_int("BANKBOT_PROPOSAL_TTL_SECONDS", 600)
# When support staff are in to take a conversation ("HH:MM-HH:MM", TIME_ZONE, every day).
BANKBOT_SUPPORT_HOURS = env_str("BANKBOT_SUPPORT_HOURS", "09:00-18:00")
# How long an idempotency record answers replays; DESIGN.md asks for >= 24 h.
BANKBOT_IDEMPOTENCY_TTL_HOURS = max(24, env_int("BANKBOT_IDEMPOTENCY_TTL_HOURS", 24))
# Disputes are accepted for transactions at most this many days old.
BANKBOT_DISPUTE_WINDOW_DAYS = 120
# Turns one worker answers at once (each waits on the model on a thread of its
# own; bankbot/turns.py). Beyond it a customer is told to wait. docs/scaling.md.
BANKBOT_MAX_TURNS_PER_WORKER = max(1, env_int("BANKBOT_MAX_TURNS_PER_WORKER", 200))
# The lab's playground: runs one trainee may start in any window of this many
# seconds (each plays naive and guarded; lab/playground_limit.py).
BANKBOT_LAB_PLAYGROUND_RUNS = max(1, env_int("BANKBOT_LAB_PLAYGROUND_RUNS", 6))
BANKBOT_LAB_PLAYGROUND_WINDOW_SECONDS = max(1, env_int("BANKBOT_LAB_PLAYGROUND_WINDOW_SECONDS", 60))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # One line per model request is noise at INFO; failures still show.
    "loggers": {"httpx2": {"level": "WARNING"}, "openai": {"level": "WARNING"}},
}

# --- The model ----------------------------------------------------------------
# BANKBOT_MODEL, OPENAI_API_KEY, OPENAI_BASE_URL, BANKBOT_MODEL_TIMEOUT and
# BANKBOT_MODEL_RETRIES; llm/config.py reads and checks them.
import os  # noqa: E402

from llm.config import ModelConfig  # noqa: E402

BANKBOT_MODEL_CONFIG = ModelConfig.from_env(os.environ)
# "parser" (default): the deterministic English/Russian mandate parser alone.
# "model": with a real model configured, a separate call that sees only the
# customer's words may add operations they asked for in other words.
BANKBOT_MANDATE_EXTRACTOR = env_str("BANKBOT_MANDATE_EXTRACTOR", "parser")
if BANKBOT_MANDATE_EXTRACTOR not in ("parser", "model"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("BANKBOT_MANDATE_EXTRACTOR must be 'parser' or 'model'")
