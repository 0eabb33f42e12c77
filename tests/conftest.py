import contextlib
import multiprocessing

import pytest

# Channels' live server and the benchmark pool fork; a forked child of a process that has
# already run sync_to_async has an executor without a worker thread. Spawn avoids that.
multiprocessing.set_start_method("spawn", force=True)


@pytest.fixture(autouse=True)
def _no_pacing(settings):
    settings.GAME_PACING = False


class Clock:
    """The time ``django.utils.timezone.now`` tells while a test moves it (never back)."""

    def __init__(self, start) -> None:
        self.now = start

    def __call__(self):
        return self.now

    def to(self, when) -> None:
        """On to ``when``: a datetime or seconds since the epoch."""
        from datetime import UTC, datetime

        if not isinstance(when, datetime):
            when = datetime.fromtimestamp(when, tz=UTC)
        self.now = max(self.now, when)


@pytest.fixture
def clock(monkeypatch):
    from django.utils import timezone

    moved = Clock(timezone.now())
    monkeypatch.setattr(timezone, "now", moved)
    return moved


@pytest.fixture(autouse=True)
def _default_language():
    # A test that activates a language must not hand it to the next one (which reverses its
    # URLs in it): with the tests spread over processes, any test may follow any other.
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _clear_cache():
    # The login throttle lives in the cache; keep tests independent of each other.
    # With Redis the cache outlives a test; the database cache is rolled back with the test's
    # transaction (and cannot be cleared here before the database is allowed).
    from django.core.cache import cache

    with contextlib.suppress(Exception):
        cache.clear()
    yield


# Asks the servers the tests start for the games for the tests only (cardsite/settings.py).
UNLISTED_GAMES = "CARDSITE_UNLISTED_GAMES"


def pytest_configure(config):
    """The test run lists the games for the tests only (``GameInfo.unlisted``) beside the real
    ones, before any test module reads the registry; its workers and the servers a test starts
    inherit it from the environment.

    Tests spread over processes (pytest-xdist) each use a Redis database of their own: a
    test empties the cache, which would empty the other process's channel layer too. The
    servers a test starts inherit it through REDIS_URL."""
    import os
    import urllib.parse

    from django.conf import settings

    os.environ[UNLISTED_GAMES] = "1"  # the servers a test starts read it into their settings
    settings.UNLISTED_GAMES = True
    worker, url = os.environ.get("PYTEST_XDIST_WORKER", ""), os.environ.get("REDIS_URL", "")
    if not (url and worker.startswith("gw")):
        return
    from django.conf import settings

    own = urllib.parse.urlunsplit(
        urllib.parse.urlsplit(url)._replace(path=f"/{1 + int(worker[2:])}")
    )
    os.environ["REDIS_URL"] = settings.REDIS_URL = own
    settings.CACHES["default"]["LOCATION"] = own
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = own


# The browser tests that take longest (whole hands of two people, each in two browsers),
# started first among the browser tests: the two processes then end at about the same time,
# instead of one playing a long journey alone at the end (the longest first).
LONGEST_FIRST = ("test_journeys.py", "test_daily.py", "test_play_together.py")


def pytest_collection_modifyitems(items):
    # Once the session-scoped Playwright browser runs, pytest-asyncio tests in the same
    # process fail ("Runner.run() cannot be called from a running event loop"): run browsers last.
    def order(item):
        if "e2e" not in item.keywords:
            return (0, 0)
        name = item.path.name
        return (1, LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST))

    items.sort(key=order)


def pytest_terminal_summary(terminalreporter):
    """Say which stack this run used and what happened to the browser tests."""
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    counts = {}
    for outcome in ("passed", "failed", "skipped", "error"):
        reports = terminalreporter.stats.get(outcome, [])
        counts[outcome] = sum(1 for r in reports if "e2e" in getattr(r, "keywords", {}))
    terminalreporter.write_sep("-", f"stack: database {engine}, channel layer {layer}")
    terminalreporter.write_line(
        "browser tests (Chromium): " + ", ".join(f"{n} {k}" for k, n in counts.items() if n)
        if any(counts.values())
        else "browser tests (Chromium): none collected"
    )


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test databases, and before it drops them the connections left open in
    the threads that hold their own: the sockets' database thread keeps its SQLite connection
    (``games.live.database_call``), and a test's plain ``sync_to_async`` of a read leaves its
    connection in asgiref's one thread for them (channels' ``database_sync_to_async`` closes
    its own after each call). pytest-django closes only the main thread's, and a database with
    a session still open is not dropped (PostgreSQL: "being accessed by other users", a
    warning at the end of the run, depending on how the tests fell to the workers)."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from games.live import database_call

    for executor in (database_call.single_thread_executor, SyncToAsync.single_thread_executor):
        executor.submit(connections.close_all).result(timeout=30)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Real hashing costs ~0.3 s per login; the throttle tests log in dozens of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_sessionfinish(session):
    # What an SQLite test database's write-ahead log left beside it once it was removed (its
    # connections are closed before, ``django_db_setup``).
    import os
    from pathlib import Path

    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        test_name = Path(database.get("TEST", {}).get("NAME") or "")
        for leftover in test_name.parent.glob(f"{test_name.name}*"):
            if leftover.name.endswith(("-wal", "-shm")):
                with contextlib.suppress(OSError):
                    os.remove(leftover)
