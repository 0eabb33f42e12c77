"""The production stack as the README starts it: nginx (TLS) in front of two daphne processes
under supervisord, on a private PostgreSQL and Redis. Chromium plays a Gong Zhu hand through
nginx while the stack restarts one process after the other; the hand goes on, whole.

The commands run are the README's production section, read from the README itself; the values
of its variables are the test's own (free ports, a throwaway certificate and services).
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import ssl
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.faults.table import (
    Sockets,
    assert_hand_whole,
    expect_live,
    my_move,
    play_to_the_end,
    start_table,
    wait_until,
)
from tests.servers import ROOT, RedisServer, free_ports, fresh_database, postgres_cluster

pytestmark = pytest.mark.faults

TEST_TIMEOUT = 300  # the whole test, set-up included: make runs collectstatic and migrations
COMMAND_TIMEOUT = 150


def readme_production() -> tuple[list[str], list[str]]:
    """The README's production section: the variables it exports and its `make` commands."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Production", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    names, commands = [], []
    for block in blocks:
        names += re.findall(r"\b([A-Z][A-Z_]+)=", block.split("make ", 1)[0])
        commands += [line.split("#")[0].strip() for line in block.splitlines()]
    return names, [c for c in commands if c.startswith("make production")]


@pytest.fixture
def browser_context_args(browser_context_args):
    # The throwaway certificate is self-signed.
    return {**browser_context_args, "ignore_https_errors": True}


@pytest.fixture
def stack_env(tmp_path):
    with contextlib.ExitStack() as exits:
        pg = exits.enter_context(postgres_cluster())
        redis = RedisServer(tmp_path).start()
        exits.callback(redis.stop)
        env = exits.enter_context(
            fresh_database(tmp_path, database_url=pg.url("postgres"), redis_url=redis.url)
        )
        cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
            + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
            + ["-keyout", str(key), "-out", str(cert)],
            check=True,
            capture_output=True,
            timeout=30,
        )
        first = free_ports(6)
        env.update(
            DEBUG="0",
            SECRET_KEY=secrets.token_urlsafe(40),
            ALLOWED_HOSTS="127.0.0.1",
            CSRF_TRUSTED_ORIGINS=f"https://127.0.0.1:{first + 5}",
            TRUSTED_PROXY_COUNT="1",
            TLS_CERTIFICATE=str(cert),
            TLS_CERTIFICATE_KEY=str(key),
            DAPHNE_PROCESSES="2",
            DAPHNE_PORT=str(first),
            METRICS_PORT=str(first + 2),
            HTTP_PORT=str(first + 4),
            HTTPS_PORT=str(first + 5),
            STATE_DIR=str(tmp_path / "var"),
            SHUTDOWN_GRACE_SECONDS="5",
            LOG_LEVEL="INFO",
        )
        # fresh_database set GAME_PACING=0: a whole hand in a test runs without bot pauses.
        exits.callback(_stop, env)  # whatever happened, nothing stays running
        yield env


def _stop(env) -> None:
    subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-m", "cardsite.production", "stop"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=COMMAND_TIMEOUT,
    )


def run(command: str, env: dict) -> str:
    done = subprocess.run(
        command.split(),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def status_of(url: str) -> int | None:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # self-signed
    try:
        with urllib.request.urlopen(url, timeout=1, context=context) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, OSError):
        return None


class Watch(threading.Thread):
    """Polls a URL's status until stopped: what a load balancer's probe would have seen."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.seen, self.done = url, [], threading.Event()

    def run(self):
        while not self.done.is_set():
            status = status_of(self.url)
            if not self.seen or self.seen[-1] != status:
                self.seen.append(status)
            self.done.wait(0.05)  # the probe's interval


def metric(ports: list[int], name: str, labels: str) -> float:
    total = 0.0
    for port in ports:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            text = response.read().decode()
        for line in text.splitlines():
            if line.startswith(f"{name}{{") and labels in line:
                total += float(line.rsplit(" ", 1)[1])
    return total


def test_a_hand_through_nginx_goes_on_across_a_rolling_restart(page, stack_env):
    env = stack_env
    names, commands = readme_production()
    assert commands == [
        "make production",
        "make production-status",
        "make production-restart",
        "make production-stop",
    ], commands
    assert set(names) <= set(env), f"the README sets {set(names) - set(env)}, the test does not"
    start, status, restart, stop = commands
    daphnes = [int(env["DAPHNE_PORT"]) + i for i in range(2)]
    metrics = [int(env["METRICS_PORT"]) + i for i in range(2)]
    base = f"https://127.0.0.1:{env['HTTPS_PORT']}"

    run(start, env)
    shown = run(status, env)
    for port in daphnes:
        assert f"daphne {port}: ready" in shown, shown
    assert re.search(r"nginx\s+RUNNING", shown), shown

    # Plain HTTP is sent to HTTPS; the page comes through nginx, static files from nginx.
    redirect = subprocess.run(
        ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}"]
        + [f"http://127.0.0.1:{env['HTTP_PORT']}/en/"],
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout
    assert redirect == f"301 {base}/en/", redirect

    sockets = Sockets(page)
    code = start_table(page, base)
    for _ in range(2):
        assert my_move(page)

    # A rolling restart while the player plays on: every process drains and comes back.
    probe = Watch(f"http://127.0.0.1:{daphnes[0]}/readyz")
    probe.start()
    wait_until(lambda: probe.seen, "the readiness probe did not answer")
    restarting = subprocess.Popen(
        restart.split(), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        moves = 0
        while restarting.poll() is None and moves < 6 and my_move(page, timeout=60_000):
            moves += 1
        output = restarting.communicate(timeout=COMMAND_TIMEOUT)[0].decode()
    finally:
        if restarting.poll() is None:
            restarting.kill()
    assert restarting.returncode == 0, output
    wait_until(lambda: probe.seen[-1] == 200, "the restarted process is not ready again")
    probe.done.set()
    probe.join(5)
    assert probe.seen[0] == 200 and 200 in probe.seen[1:], probe.seen
    assert any(s != 200 for s in probe.seen), f"readiness never dropped: {probe.seen}"

    expect_live(page)
    play_to_the_end(page)
    assert len(sockets.opened) >= 2, "the page was never sent to reconnect"

    import psycopg

    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as db:
        assert_hand_whole(db, code)
        deal = db.execute(
            "SELECT h.deal FROM games_hand h JOIN games_table t ON t.id = h.table_id "
            "WHERE t.code = %s AND h.number = 1",
            (code,),
        ).fetchone()[0]["hands"]

    # Metrics: each process counts its own; together they saw the hand's moves after the
    # restart (the counters of a restarted process start again at zero).
    assert metric(metrics, "cardsite_actions_applied_total", 'game="gongzhu"') > 0
    assert metric(metrics, "cardsite_live_sockets", 'kind="table"') >= 1

    # Logs: one JSON object per line from the site, a line per action, and no card of the hand.
    logs = Path(env["STATE_DIR"]) / "log"
    site = "".join(p.read_text() for p in sorted(logs.glob("daphne-*.log")))
    lines = [json.loads(line) for line in site.splitlines() if line.strip()]
    actions = [line for line in lines if line.get("logger") == "games.actions"]
    assert any(a["outcome"] == "applied" and a["action"] == "play" for a in actions), lines[:5]
    assert any("draining" in line["message"] for line in lines), "no drain in the logs"
    everything = site + "".join(p.read_text() for p in logs.glob("nginx*.log"))
    dealt = {card for cards in deal for card in cards}
    assert len(dealt) == 52
    leaked = {card for card in dealt if re.search(rf"\b{card}\b", everything)}
    assert not leaked, f"cards in the logs: {sorted(leaked)}"

    run(stop, env)
    assert status_of(f"{base}/healthz") is None
    for port in daphnes:
        assert status_of(f"http://127.0.0.1:{port}/healthz") is None
