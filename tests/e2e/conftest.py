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


# The Content-Security-Policy (cardsite/settings.py) holds on every page of every browser test:
# each browser context reports what the policy blocked in its pages (the browser's
# securitypolicyviolation event: an inline script or style, a style or event attribute, an
# eval, a source from elsewhere), and a test whose pages met a violation fails with the list
# (pytest_runtest_call below).
CSP_REPORTER = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolation({page: document.URL, directive: e.effectiveDirective,
    blocked: e.blockedURI, sample: e.sample, source: e.sourceFile + ":" + e.lineNumber});
}, true);
"""
CSP_FOUND = pytest.StashKey[list]()


@pytest.fixture(scope="session")
def csp_found():
    """The violations reported since the current test began."""
    return []


@pytest.fixture(scope="session")
def browser(browser, csp_found):
    """pytest-playwright's browser, whose every new context reports CSP violations."""
    plain = browser.new_context

    def new_context(**kwargs):
        context = plain(**kwargs)
        context.expose_function("__cspViolation", lambda report: csp_found.append(report))
        context.add_init_script(CSP_REPORTER)
        return context

    browser.new_context = new_context
    yield browser
    del browser.new_context


@pytest.fixture(autouse=True)
def csp_violations(request):
    """The CSP violations of this test's pages (none, or the test fails)."""
    if "browser" not in request.fixturenames:
        return []
    found = request.getfixturevalue("csp_found")
    found.clear()
    request.node.stash[CSP_FOUND] = found
    return found


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    found = item.stash.get(CSP_FOUND, None)
    browser = item.funcargs.get("browser")
    if found is not None and browser is not None:
        # Reports the pages sent while the test's last steps ran are read in.
        for context in browser.contexts:
            for page in context.pages:
                with contextlib.suppress(PlaywrightError):
                    page.evaluate("0")
    if found:
        lines = "\n".join(
            dict.fromkeys(  # each once, in the order met
                f"  {v['page']}: {v['directive']} blocked {v['blocked'] or '?'}"
                f" at {v['source']}{' (' + v['sample'] + ')' if v['sample'] else ''}"
                for v in found
            )
        )
        pytest.fail(f"Content-Security-Policy violations on the test's pages:\n{lines}")
    return result


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
            capture_output=True,
            text=True,
        )
        if result.returncode:  # says why (a bare CalledProcessError said only the command)
            pytest.fail(
                f"the scene's script failed ({result.returncode}):\n{result.stderr[-4000:]}"
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
