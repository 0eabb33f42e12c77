"""Real daphne processes for browser and cross-process tests, each suite on a fresh database.

With ``DATABASE_URL`` set (the PostgreSQL run) a new database is created for the servers and
dropped afterwards; otherwise a temporary SQLite file is used. ``REDIS_URL`` passes through,
so the browser tests also run on the Redis channel layer.

The fault tests (tests/faults) need services they may break: ``PostgresCluster`` and
``RedisServer`` run private, throwaway instances on free ports, and ``daphne_process`` hands
out the server's process so a test can kill it.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    return free_ports(1)


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports on 127.0.0.1, below Linux's ephemeral
    range (32768 and up): a port the system hands out for outgoing connections can be taken
    by one while a test's server restarts, which then cannot listen again."""
    draw = random.SystemRandom()
    for _ in range(100):
        first = draw.randrange(20000, 32768 - count)
        try:
            with contextlib.ExitStack() as held:
                for port in range(first, first + count):
                    s = held.enter_context(socket.socket())
                    s.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
    raise RuntimeError("no run of free ports")


@contextlib.contextmanager
def fresh_database(tmp_dir: Path, *, database_url: str | None = None, redis_url: str | None = None):
    """Yield environment variables that point at a new, migrated database.

    ``database_url``/``redis_url`` name other servers than the process's own DATABASE_URL and
    REDIS_URL (the fault tests' private ones); the new database is created on that server.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_ALLOW"))}
    env["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
    env["GAME_PACING"] = "0"
    # Every browser test's guest comes from 127.0.0.1: a session's server makes far more than
    # a person's address would (the limit itself: tests/games/test_guests_and_pacing.py).
    env["GUEST_LIMIT_PER_HOUR"] = "10000"
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    url = os.environ.get("DATABASE_URL", "") if database_url is None else database_url
    dbname = None
    if url:
        import psycopg

        dbname = f"cardsite_e2e_{uuid.uuid4().hex[:10]}"
        base, _, _old = url.rpartition("/")
        with psycopg.connect(url.rpartition("/")[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{dbname}"')
        env["DATABASE_URL"] = f"{base}/{dbname}"
    else:
        env["SQLITE_PATH"] = str(tmp_dir / "e2e.sqlite3")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    try:
        yield env
    finally:
        if dbname:
            import psycopg

            with psycopg.connect(url.rpartition("/")[0] + "/postgres", autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


class Daphne:
    """One running daphne: its URL, and its process for a test that means to kill it."""

    def __init__(self, proc: subprocess.Popen, port: int, log_path: Path):
        self.proc = proc
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = log_path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no goodbye to its sockets – a crashed server."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@contextlib.contextmanager
def daphne_process(env: dict, log_dir: Path, port: int | None = None):
    """Start daphne on 127.0.0.1 and yield a ``Daphne`` once it answers."""
    port = port or free_port()
    log_path = log_dir / f"daphne-{port}.log"
    log = open(log_path, "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "cardsite.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = Daphne(proc, port, log_path)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"daphne exited with {proc.returncode}")
            try:
                with urllib.request.urlopen(server.url + "/en/", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("daphne did not answer within 30 s")
            time.sleep(0.1)  # polling for the server to come up, not waiting on app state
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        log.close()


@contextlib.contextmanager
def daphne(env: dict, log_dir: Path, port: int | None = None):
    """Start daphne on 127.0.0.1 and yield its base URL once it answers."""
    with daphne_process(env, log_dir, port) as server:
        yield server.url


def _wait_until(check, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} within {timeout:.0f} s")
        time.sleep(0.05)  # polling a service coming up, not waiting on app state


class RedisServer:
    """A private redis-server on 127.0.0.1 without persistence: a restart loses everything,
    as the channel layer must survive."""

    def __init__(self, root: Path, port: int | None = None):
        self.root = root
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = root / f"redis-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> RedisServer:
        # redis-server has no persistence here (no RDB snapshots, no AOF): a restart is empty.
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.root),
                "--logfile",
                str(self.log_path),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_until(self.ping, f"redis-server on port {self.port} did not answer", 15)
        return self

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


def _postgres_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
    )
    return candidates[-1].parent if candidates else None


class PostgresCluster:
    """A throwaway PostgreSQL cluster: initdb into a temporary folder, one free port on
    127.0.0.1, its socket in that folder. PostgreSQL refuses to run as root, so as root the
    folder belongs to ``postgres`` and its tools run through ``runuser``."""

    def __init__(self, root: Path, port: int | None = None):
        self.bin = _postgres_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL's initdb/pg_ctl are not installed")
        self.root = root
        self.data = root / "data"
        self.sockets = root / "sockets"
        self.log_path = root / "postgres.log"
        self.port = port or free_port()

    def url(self, dbname: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{dbname}"

    def _run(self, tool: str, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bin / tool), *args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        # cwd: the postgres user may not enter the caller's directory.
        result = subprocess.run(
            cmd, cwd=self.root, capture_output=True, text=True, timeout=timeout, check=False
        )
        if result.returncode != 0:
            log = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
            raise RuntimeError(f"{tool} failed: {result.stdout}{result.stderr}\n{log[-2000:]}")

    def init(self) -> PostgresCluster:
        self.sockets.mkdir(exist_ok=True)
        if os.geteuid() == 0:
            import pwd

            pw = pwd.getpwnam("postgres")
            for path in (self.root, self.sockets):
                os.chown(path, pw.pw_uid, pw.pw_gid)
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync", "--no-instructions",
        )  # fmt: skip
        return self

    def start(self) -> PostgresCluster:
        # Durability is not what these tests are about: skip the fsyncs.
        options = (
            f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log_path), "-o", options,
            "-w", "-t", "30", "start",
        )  # fmt: skip
        return self

    def stop(self, mode: str = "fast") -> None:
        """``fast`` ends every session (the clients see their connections terminated)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()


@contextlib.contextmanager
def postgres_cluster():
    """A started throwaway cluster, removed afterwards (the folder is outside pytest's own tmp,
    which the postgres user cannot enter)."""
    root = Path(tempfile.mkdtemp(prefix="cardsite-pg-"))
    cluster = PostgresCluster(root)
    try:
        cluster.init().start()
        yield cluster
    finally:
        with contextlib.suppress(Exception):
            if cluster.running():
                cluster.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def redis_server(root: Path):
    """A started private redis-server, stopped afterwards."""
    server = RedisServer(root).start()
    try:
        yield server
    finally:
        server.stop()
