"""Real daphne processes for browser and cross-process tests, each suite on a fresh database.

With ``DATABASE_URL`` set (the PostgreSQL run) a new database is created for the servers and
dropped afterwards; otherwise a temporary SQLite file is used. ``REDIS_URL`` passes through,
so the browser tests also run on the Redis channel layer.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def fresh_database(tmp_dir: Path):
    """Yield environment variables that point at a new, migrated database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_ALLOW"))}
    env["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
    env["GAME_PACING"] = "0"
    url = os.environ.get("DATABASE_URL", "")
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


@contextlib.contextmanager
def daphne(env: dict, log_dir: Path, port: int | None = None):
    """Start daphne on 127.0.0.1 and yield its base URL once it answers."""
    port = port or free_port()
    log = open(log_dir / f"daphne-{port}.log", "wb")  # noqa: SIM115
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
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"daphne exited with {proc.returncode}")
            try:
                with urllib.request.urlopen(url + "/en/", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("daphne did not answer within 30 s")
            time.sleep(0.1)  # polling for the server to come up, not waiting on app state
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
