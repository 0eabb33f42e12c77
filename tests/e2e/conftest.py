"""Browser tests: Playwright for Python driving Debian's Chromium against a real daphne."""

import contextlib
import os
import shutil

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.servers import daphne, fresh_database

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Browser tests of looks, words and accessibility: what they check does not depend on the
# database or the channel layer, so CI's PostgreSQL + Redis pass leaves them to the first.
LAYOUT = ("test_accessibility.py", "test_phone_landscape.py", "test_rules.py", "test_review.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            if item.fspath.basename in LAYOUT:
                item.add_marker(pytest.mark.layout)
            if not os.path.exists(CHROMIUM):
                item.add_marker(
                    pytest.mark.skip(
                        reason="browser tests need Debian's Chromium at /usr/bin/chromium "
                        "(`make test` installs it with apt when run as root on Debian)"
                    )
                )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # The test process touches the ORM while Playwright's loop runs in this thread.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The daphne server and the environment that points at its database."""
    tmp = tmp_path_factory.mktemp("e2e")
    with fresh_database(tmp) as env, daphne(env, tmp) as url:
        yield url, env


@pytest.fixture(scope="session")
def site_url(site):
    return site[0]


@pytest.fixture
def site_shell(site):
    """Run Python against the server's database (to set up a scene the test needs)."""
    import subprocess
    import sys

    from tests.servers import ROOT

    def run(code: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=site[1],
            check=True,
            capture_output=True,
            text=True,
        )
        return result.stdout

    return run


@pytest.fixture(scope="session")
def artifacts_dir():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "test-artifacts")
    os.makedirs(path, exist_ok=True)
    return path


@pytest.fixture
def phone_page(browser):
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    yield page
    context.close()


# A browser's own language: what navigator.language says and the Accept-Language it sends.
LOCALES = {"en": "en-GB", "de": "de-DE"}


@pytest.fixture
def browser_in(browser):
    """``browser_in(lang)``: a new person's page in a browser of their own (cookies, sockets)
    whose own language is ``lang`` (None: the browser's default); every context is closed
    after the test."""
    contexts = []

    def new(lang=None, viewport=None):
        options = {"viewport": viewport or {"width": 1280, "height": 900}}
        if lang is not None:
            locale = LOCALES[lang]
            options.update(
                locale=locale, extra_http_headers={"Accept-Language": f"{locale},{lang};q=0.9"}
            )
        context = browser.new_context(**options)
        contexts.append(context)
        return context.new_page()

    yield new
    for context in contexts:
        with contextlib.suppress(PlaywrightError):
            context.close()


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree("/tmp/playwright-artifacts", ignore_errors=True)
