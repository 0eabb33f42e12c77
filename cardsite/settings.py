"""Settings for the card site, in one module.

Every value comes from the environment with a default that runs a fresh checkout:
SQLite and the in-memory channel layer. ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``
(channels-redis, shared cache) switch to the scale-out stack.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp import constants as csp
from django.conf import global_settings
from django.utils.translation import gettext_lazy as _

from cardsite import errors
from cardsite.logs import choose_format, logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


def envlist(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# DEBUG=1 (the default) is development: a development key, the local host names, static
# files served straight from static/, readable logs. DEBUG=0 is production.
DEVELOPMENT = envbool("DEBUG", True)
# Django's own DEBUG only shows its technical pages (a traceback for a 500, every URL pattern
# for a 404) instead of the site's error pages: even in development, only when a developer
# asks for them with DEBUG_TECHNICAL_ERRORS=1. Errors are logged to the console either way.
DEBUG = DEVELOPMENT and envbool("DEBUG_TECHNICAL_ERRORS", False)

# Production must name its secret key and its host names: a start without them stops here
# with a sentence saying which (not with a 400 on every page).
MISSING_IN_PRODUCTION = {
    "SECRET_KEY": "SECRET_KEY must be set when DEBUG=0: a long random string, kept secret.",
    "ALLOWED_HOSTS": (
        "ALLOWED_HOSTS must be set when DEBUG=0: the host names the site is served under, "
        "comma-separated (e.g. ALLOWED_HOSTS=cards.example.com)."
    ),
}
if not DEVELOPMENT:
    missing = [name for name in MISSING_IN_PRODUCTION if not envlist(name)]
    if missing:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(" ".join(MISSING_IN_PRODUCTION[name] for name in missing))

# The development key is only ever used in development.
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "django-insecure-dev-only-key-do-not-use-in-production-9c2f1e7a"
)
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEVELOPMENT else "")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")
SITE_NAME = os.environ.get("SITE_NAME", "Kartenhaus")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "csp",
    "template_partials",
    "cardsite.accounts",
    "cardsite.rules",
    "games",
]

MIDDLEWARE = [
    # First: a burst waits here, on the event loop, not in a thread holding a connection.
    "cardsite.busy.Admission",
    "django.middleware.security.SecurityMiddleware",
    "cardsite.middleware.TrustedProxyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Above the locale middleware, whose redirects ("/" to "/en/") are new responses.
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: its process_exception sees a view's database error first.
    "cardsite.busy.DatabaseAway",
]

ROOT_URLCONF = "cardsite.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "cardsite.asgi.application"

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
                "cardsite.context_processors.site",
            ],
        },
    },
    {
        # The live boards (cardsite/jinja.py says why): templates/**/*.jinja.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "boards",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "cardsite.jinja.environment",
        },
    },
]

# Database: SQLite by default (WAL, immediate transactions so concurrent writers wait for
# the lock instead of failing with "database is locked"); PostgreSQL from DATABASE_URL.
# CONN_MAX_AGE=0: under ASGI each request runs in a fresh thread, persistent connections leak.
# On PostgreSQL, psycopg's connection pool instead (bounded, DB_POOL_SIZE per process): a
# database call borrows a connection and gives it back, so no call opens a new session; a
# connection broken by a database restart is checked and replaced before it is lent.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
# The connections each process may hold: the live side's (the sockets' database thread, the
# sockets' authentication, the review writer) and one per page request in Django's threads,
# of which cardsite.busy.Admission lets in at most HTTP_DB_SLOTS at once, so that the pool
# never has more borrowers than connections. Two processes at the default hold at most 32
# of PostgreSQL's default 100.
DB_POOL_SIZE = envint("DB_POOL_SIZE", 16)
LIVE_CONNECTIONS = 3
HTTP_DB_SLOTS = max(1, envint("HTTP_DB_SLOTS", DB_POOL_SIZE - LIVE_CONNECTIONS))
# Seconds a page request waits for a slot before it is told 503 with Retry-After.
BUSY_WAIT = float(os.environ.get("BUSY_WAIT", "10"))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Health checks: the pool checks a connection before lending it (Django passes
        # psycopg_pool's check_connection).
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": DB_POOL_SIZE,
            # A call waits this long for a connection: while the database is away, the
            # player is told within seconds (not after a long hang).
            "timeout": 2,
        }
        # Named in pg_stat_activity, so an operator (and loadbench) can tell this site's
        # sessions from others'.
        DATABASES["default"]["OPTIONS"]["application_name"] = os.environ.get(
            "DB_APPLICATION_NAME", "cardsite"
        )
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "CONN_MAX_AGE": 0,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA busy_timeout=20000;"
                ),
            },
            # A file (live servers and transactional tests need one), per test process so
            # two suites running at once never share it.
            "TEST": {
                "NAME": os.environ.get(
                    "SQLITE_TEST_PATH", str(BASE_DIR / f"test_db_{os.getpid()}.sqlite3")
                )
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and the cache shared by all processes.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.RedisChannelLayer",  # (its docstring: why)
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout, exactly the layer's 5 s blocking
                # pop: under load the read times out first and kills the consumer. Give it room.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": envint("REDIS_MAX_CONNECTIONS", 500),
                        "socket_timeout": 30,
                    }
                ],
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cardsite",
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "cardsite_cache",
        }
    }

# Django's default hashers, its PBKDF2 one replaced by one that gives the database connection
# back while it hashes (cardsite.accounts.hashers; the same algorithm, name and hashes: one
# hasher per algorithm is looked up, so Django's own is not listed beside it).
PASSWORD_HASHERS = [
    "cardsite.accounts.hashers.PBKDF2ReleasingHasher",
    *(h for h in global_settings.PASSWORD_HASHERS if not h.endswith(".PBKDF2PasswordHasher")),
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# Login throttling: failures per username and per client address (cardsite.ratelimit).
LOGIN_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 5)
LOGIN_FAILURE_WINDOW = envint("LOGIN_FAILURE_WINDOW", 15 * 60)
# Password-reset mails per e-mail address and per client address within the window; requests
# over the limit get the same "mail sent" page but no mail.
PASSWORD_RESET_LIMIT_PER_ADDRESS = envint("PASSWORD_RESET_LIMIT_PER_ADDRESS", 3)
PASSWORD_RESET_LIMIT_PER_CLIENT = envint("PASSWORD_RESET_LIMIT_PER_CLIENT", 10)
PASSWORD_RESET_WINDOW = envint("PASSWORD_RESET_WINDOW", 60 * 60)
# Guest accounts made per client address and hour (games.guests): a person needs one.
GUEST_LIMIT_PER_HOUR = envint("GUEST_LIMIT_PER_HOUR", 20)
# How many reverse proxies stand in front of daphne; their X-Forwarded-For entries are trusted.
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", 0)

# Internationalisation: both languages always carry their prefix (/de/…, /en/…).
LANGUAGE_CODE = "en"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "django_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "Europe/Berlin"
# One date format per language, on every page (cardsite/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["cardsite.formats"]
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEVELOPMENT
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Development serves static/ as it is (an edit shows on reload); production serves the
# collected, fingerprinted files of STATIC_ROOT, so collectstatic runs after switching.
WHITENOISE_USE_FINDERS = DEVELOPMENT
WHITENOISE_AUTOREFRESH = DEVELOPMENT

# E-mail: SMTP when EMAIL_HOST is set; otherwise the console in development and, in
# production, a redacted line in the log (cardsite/mail.py).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = envint("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", True)
elif DEVELOPMENT:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    # Production without a mail server: a redacted line in the log, never the message (a
    # password-reset link in the log is a key to the account).
    EMAIL_BACKEND = "cardsite.mail.NotSentBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "noreply@localhost")

# Production hardening; `manage.py check --deploy` passes without warnings when DEBUG is off.
if not DEVELOPMENT:
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# Content-Security-Policy (django-csp), the same in development, in the tests and in production,
# so that the browser tests see what visitors get: scripts, styles, images and fonts only from
# the site itself, no inline script, event attribute or style attribute (the templates have
# none: values an element needs of its own are set from the static scripts, through the CSSOM),
# no eval ('report-sample': a report quotes the start of what was blocked). 'self' in
# connect-src covers the sockets to the same host (ws: and wss:, CSP level 3).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF, csp.REPORT_SAMPLE],
        "style-src": [csp.SELF, csp.REPORT_SAMPLE],
        "img-src": [csp.SELF, "data:"],
        "font-src": [csp.SELF],
        "connect-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    },
}

# Logs: one JSON object per line in production (DEBUG off, or LOG_FORMAT=json), readable text
# in development (cardsite/logs.py). Each player's action is one INFO line on games.actions
# (ACTION_LOG_LEVEL=WARNING silences them); never a card of a hand, a password or a token.
LOG_FORMAT = choose_format(os.environ.get("LOG_FORMAT"), DEVELOPMENT)
LOGGING = logging_config(
    LOG_FORMAT,
    level=os.environ.get("LOG_LEVEL", "WARNING"),
    actions_level=os.environ.get("ACTION_LOG_LEVEL", "INFO"),
)

# Errors to Sentry when SENTRY_DSN is set (cardsite/errors.py scrubs cards and game state).
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
errors.init(SENTRY_DSN, environment=os.environ.get("SENTRY_ENVIRONMENT", "production"))

# Metrics (Prometheus) on 127.0.0.1:METRICS_PORT (+ METRICS_PORT_OFFSET) of each daphne
# process, off when unset (games/metrics.py; started in cardsite/asgi.py).

# Games: bots move with pauses a person can follow; tests turn pacing off.
GAME_PACING = envbool("GAME_PACING", True)
# The games for the tests only (GameInfo.unlisted, games.registry) listed beside the real ones:
# the test run asks for them (tests/conftest.py), through the environment for the servers it
# starts. Never on the site.
UNLISTED_GAMES = envbool("CARDSITE_UNLISTED_GAMES", False)
# Tables for people: a disconnected person's seat is played by Normal after this grace; a
# socket refreshes its presence every PRESENCE_HEARTBEAT_SECONDS and counts as gone (its
# process died) once it has been silent for PRESENCE_STALE_SECONDS.
AWAY_GRACE_SECONDS = envint("AWAY_GRACE_SECONDS", 45)
PRESENCE_HEARTBEAT_SECONDS = envint("PRESENCE_HEARTBEAT_SECONDS", 20)
PRESENCE_STALE_SECONDS = envint("PRESENCE_STALE_SECONDS", 60)

# A SIGTERM (a restart) closes the sockets with "reconnect" and waits this long at most for
# them, and the moves they are applying, to finish before the process stops.
SHUTDOWN_GRACE_SECONDS = envint("SHUTDOWN_GRACE_SECONDS", 15)

CSRF_FAILURE_VIEW = "cardsite.views.csrf_failure"
