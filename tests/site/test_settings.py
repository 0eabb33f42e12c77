"""Settings read from the environment, each case in a fresh process with just that environment.

Development (``DEBUG=1``, the default) shows the site's own error pages unless a developer asks
for Django's technical ones (``DEBUG_TECHNICAL_ERRORS=1``); production (``DEBUG=0``) refuses
to start without ``SECRET_KEY`` or ``ALLOWED_HOSTS``, with a sentence naming what is missing.
"""

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_KEY = "x" * 30 + "-a-long-random-production-secret-key-value"

# A mistyped address and a view that fails, asked of the site as daphne would serve it.
REQUESTS = textwrap.dedent(
    """
    import json, django
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import path
    import cardsite.urls

    def boom(request):
        raise RuntimeError("a bug in a view")

    cardsite.urls.urlpatterns.append(path("boom/", boom))
    call_command("migrate", verbosity=0)
    setup_test_environment()
    client = Client(raise_request_exception=False)
    out = {"debug": settings.DEBUG}
    for name, url in (("missing", "/en/no-such-page/"), ("broken", "/boom/")):
        response = client.get(url, HTTP_ACCEPT="text/html")
        out[name] = [response.status_code, response.content.decode()]
    print(json.dumps(out))
    """
)


def run(code: str, env: dict) -> subprocess.CompletedProcess:
    base = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "cardsite.settings"}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def pages(tmp_path, **env) -> dict:
    result = run(REQUESTS, {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_mistyped_address_in_development_gets_the_sites_own_404_and_500(tmp_path):
    out = pages(tmp_path, DEBUG="1")
    assert out["debug"] is False  # Django's technical pages are off
    status, html = out["missing"]
    assert status == 404
    assert "This page is not on the table" in html
    assert "Using the URLconf" not in html and "admin/" not in html  # no URL pattern list
    status, html = out["broken"]
    assert status == 500
    assert "RuntimeError" not in html and "Traceback" not in html
    assert "Something went wrong on our side" in html


def test_a_developer_asks_for_the_technical_pages(tmp_path):
    out = pages(tmp_path, DEBUG="1", DEBUG_TECHNICAL_ERRORS="1")
    assert out["debug"] is True
    status, html = out["missing"]
    assert status == 404 and "Using the URLconf" in html
    status, html = out["broken"]
    assert status == 500 and "RuntimeError" in html


def read_settings(env: dict) -> subprocess.CompletedProcess:
    return run(
        "import json; from cardsite import settings as s; "
        "print(json.dumps([s.DEBUG, s.DEVELOPMENT, s.ALLOWED_HOSTS]))",
        env,
    )


def test_never_technical_pages_in_production():
    result = read_settings(
        {
            "DEBUG": "0",
            "DEBUG_TECHNICAL_ERRORS": "1",
            "SECRET_KEY": PRODUCTION_KEY,
            "ALLOWED_HOSTS": "cards.example.com",
        }
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [False, False, ["cards.example.com"]]


@pytest.mark.parametrize(
    ("env", "named", "not_named"),
    [
        ({"ALLOWED_HOSTS": "cards.example.com"}, ["SECRET_KEY"], ["ALLOWED_HOSTS"]),
        ({"SECRET_KEY": PRODUCTION_KEY}, ["ALLOWED_HOSTS"], ["SECRET_KEY"]),
        ({"SECRET_KEY": PRODUCTION_KEY, "ALLOWED_HOSTS": " , "}, ["ALLOWED_HOSTS"], []),
        ({}, ["SECRET_KEY", "ALLOWED_HOSTS"], []),
    ],
)
def test_production_names_the_missing_setting_at_start(env, named, not_named):
    result = read_settings({"DEBUG": "0", **env})
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("django.core.exceptions.ImproperlyConfigured: ")
    for name in named:
        assert f"{name} must be set when DEBUG=0" in last
    for name in not_named:
        assert name not in last


def test_development_needs_no_configuration():
    result = read_settings({})
    assert result.returncode == 0, result.stderr
    debug, development, hosts = json.loads(result.stdout)
    assert (debug, development) == (False, True)
    assert {"127.0.0.1", "localhost"} <= set(hosts)


def test_make_run_prints_the_address_to_open():
    makefile = (ROOT / "Makefile").read_text()
    run_target = makefile.split("\nrun: setup\n", 1)[1].split("\n\n", 1)[0]
    lines = [line.strip() for line in run_target.splitlines()]
    echo = next(i for i, line in enumerate(lines) if "Open http://$(HOST):$(PORT)/" in line)
    daphne = next(i for i, line in enumerate(lines) if "-m daphne" in line)
    assert lines[echo].startswith("@echo") and echo < daphne


def test_the_redis_channel_layer_parses_replies_in_c():
    """redis[hiredis]: the Redis client the channel layer uses reads replies with hiredis's
    parser, not its pure-Python one (a tenth of daphne's CPU at the human pace on Redis)."""
    from redis._parsers import _AsyncHiredisParser
    from redis.asyncio.connection import Connection

    assert Connection()._parser.__class__ is _AsyncHiredisParser


# A password reset asked for on a production process with no mail server, as daphne serves it.
RESET = textwrap.dedent(
    """
    import django
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("mei", "mei@example.com", "Kartenspiel-2026")
    from django.conf import settings
    print("backend", settings.EMAIL_BACKEND)
    client = Client(raise_request_exception=False)
    response = client.post(
        "/en/accounts/password/reset/", {"email": "mei@example.com"}, secure=True
    )
    print("status", response.status_code)
    """
)


def test_production_without_a_mail_server_never_logs_the_reset_link(tmp_path):
    """DEBUG=0 without EMAIL_HOST wrote the whole mail to the log: a working reset link
    (findings 3.1). Now one redacted line says it was not sent."""
    result = run(
        RESET,
        {
            "DEBUG": "0",
            "SECRET_KEY": PRODUCTION_KEY,
            "ALLOWED_HOSTS": "testserver",
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        },
    )
    assert result.returncode == 0, result.stderr
    said = result.stdout + result.stderr
    assert "status 302" in said
    assert "mail not sent" in said and "…@example.com" in said
    assert "/password/reset/" not in said.replace("/en/accounts/password/reset/ ", "")
    assert "mei@example.com" not in said and "Subject:" not in said
    assert not re.search(r"/reset/[\w-]+/[\w-]+-[\w]+/", said)  # no uid/token anywhere
