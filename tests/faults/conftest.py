"""Fault tests: break a server under a live table and check that play goes on, whole.

They run on the PostgreSQL + Redis pass only, and never against that pass's own services:
the session's ``stack`` starts its own throwaway PostgreSQL cluster and redis-server on free
ports of 127.0.0.1 (these tests stop and kill them), a database on it, two daphne processes
on that database and Redis, and a failover proxy in front of them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.faults.proxy import FailoverProxy
from tests.servers import (
    Daphne,
    PostgresCluster,
    RedisServer,
    daphne_process,
    fresh_database,
    postgres_cluster,
)

# Every fault test ends within this, whatever hangs (each wait inside is bounded as well).
TEST_TIMEOUT = 100


def _skip_reason() -> str | None:
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        return (
            "fault tests run on the PostgreSQL + Redis pass only (DATABASE_URL and REDIS_URL "
            "both set, as .ci/run's second suite does)"
        )
    if not os.path.exists(CHROMIUM):
        return "fault tests drive Debian's Chromium at /usr/bin/chromium"
    if shutil.which("redis-server") is None:
        return "fault tests start their own redis-server, which is not installed"
    try:
        PostgresCluster(Path(tempfile.gettempdir()))
    except RuntimeError:
        return "fault tests start their own PostgreSQL cluster: initdb/pg_ctl are not installed"
    return None


def pytest_collection_modifyitems(config, items):
    mine = [item for item in items if "tests/faults/" in str(item.fspath)]
    if not mine:
        return
    reason = _skip_reason()
    for item in mine:
        item.add_marker(pytest.mark.faults)
        # Browser tests: the root conftest runs them last, after the pytest-asyncio tests.
        item.add_marker(pytest.mark.e2e)
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


class Stack:
    """The services of the fault tests and what a test does to them."""

    def __init__(self, tmp: Path, pg: PostgresCluster, redis: RedisServer, env: dict):
        self.tmp = tmp
        self.pg = pg
        self.redis = redis
        self.env = env
        self.servers: dict[str, Daphne] = {}
        self._ports: dict[str, int] = {}
        self._exits: dict[str, contextlib.ExitStack] = {}
        self.proxy: FailoverProxy | None = None

    @property
    def a(self) -> Daphne:
        return self.servers["a"]

    @property
    def b(self) -> Daphne:
        return self.servers["b"]

    def start_server(self, name: str, port: int | None = None) -> Daphne:
        exits = contextlib.ExitStack()
        server = exits.enter_context(daphne_process(self.env, self.tmp, port))
        self.servers[name], self._ports[name], self._exits[name] = server, server.port, exits
        return server

    def stop_servers(self) -> None:
        for name in list(self._exits):
            self._exits.pop(name).close()
            del self.servers[name]

    def db(self):
        import psycopg

        return psycopg.connect(self.env["DATABASE_URL"], autocommit=True, connect_timeout=5)

    def heal(self) -> None:
        """Whatever a test broke and did not mend (it failed halfway): mend it for the next."""
        if not self.redis.ping():
            self.redis.stop()
            self.redis.start()
        if not self.pg.running():
            self.pg.start()
        for name, server in list(self.servers.items()):
            if server.proc.poll() is not None:
                self._exits.pop(name).close()
                self.start_server(name, self._ports[name])


@pytest.fixture(scope="session")
def stack():
    with contextlib.ExitStack() as exits:
        pg = exits.enter_context(postgres_cluster())
        tmp = pg.root / "run"
        tmp.mkdir()
        redis = RedisServer(tmp).start()
        exits.callback(redis.stop)
        env = exits.enter_context(
            fresh_database(tmp, database_url=pg.url("postgres"), redis_url=redis.url)
        )
        s = Stack(tmp, pg, redis, env)
        # The last to stop: the database is dropped on a running cluster.
        exits.callback(s.heal)
        exits.callback(s.stop_servers)
        s.start_server("a")
        s.start_server("b")
        s.proxy = FailoverProxy([s.a.port, s.b.port]).start()
        exits.callback(s.proxy.stop)
        yield s


@pytest.fixture(autouse=True)
def _bounded(request):
    """A fault test that hangs fails after TEST_TIMEOUT seconds (a module may set its own),
    and says so."""
    limit = getattr(request.module, "TEST_TIMEOUT", TEST_TIMEOUT)

    def expired(signum, frame):
        raise TimeoutError(f"fault test still running after {limit} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(limit)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def healthy_stack(stack):
    stack.heal()
    return stack


@pytest.fixture
def page(page):
    # Failures say what they waited for within a bound, instead of Playwright's 30 s default.
    page.set_default_timeout(20_000)
    return page
