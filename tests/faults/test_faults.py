"""Break a server in mid-hand; the player's page and the table go on, and nothing is lost or
doubled (the hand's ActionLog runs without a gap, every card played once).

Each test gets the session's stack healthy (``healthy_stack`` mends what an earlier test left
broken) and is bounded in time (conftest: TEST_TIMEOUT, and every wait inside has its own).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.faults.table import (
    Sockets,
    assert_hand_whole,
    choose_move,
    expect_live,
    log_of_hand,
    my_move,
    play_to_the_end,
    start_table,
    version,
    wait_for_snapshot,
    wait_until,
)
from tests.servers import daphne_process, fresh_database

pytestmark = pytest.mark.faults


def test_a_server_killed_in_mid_hand_the_page_reconnects_to_the_other(page, healthy_stack):
    stack = healthy_stack
    sockets = Sockets(page)
    loads = []
    page.on("load", lambda p: loads.append(p.url))
    # Through the failover proxy: everything goes to A while A is up.
    code = start_table(page, stack.proxy.url)
    assert stack.proxy.websockets()[-1][1] == stack.a.port
    for _ in range(3):
        assert my_move(page)
    loaded = len(loads)
    socket_count = len(stack.proxy.websockets())

    # kill -9 the moment the move has left the page: applied or not, it must not be doubled.
    send = choose_move(page)
    send()
    stack.a.kill()

    # The page reconnects by itself (no reload), and lands on B.
    wait_until(lambda: len(stack.proxy.websockets()) > socket_count, "the page did not reconnect")
    expect_live(page)
    wait_for_snapshot(page, 2)
    assert stack.proxy.websockets()[-1][1] == stack.b.port
    play_to_the_end(page)

    assert stack.a.proc.poll() == -signal.SIGKILL
    assert len(loads) == loaded, "the page was reloaded instead of reconnecting"
    assert len(sockets.opened) >= 2 and sockets.opened[0] in sockets.closed
    with stack.db() as db:
        assert_hand_whole(db, code)


@pytest.fixture
def elsewhere(browser, page):
    """Another window of the same player (a second device): its own browser context with the
    page's session. (A second tab would put the player's tab in the background, where
    Chromium throttles it.)"""
    contexts = []

    def open_page():
        contexts.append(browser.new_context(storage_state=page.context.storage_state()))
        other = contexts[-1].new_page()
        other.set_default_timeout(20_000)
        return other

    yield open_page
    for context in contexts:
        context.close()


def test_redis_restarted_in_mid_hand_no_socket_drops_and_the_hand_goes_on(
    page, elsewhere, healthy_stack
):
    stack = healthy_stack
    sockets = Sockets(page)
    code = start_table(page, stack.a.url)
    # The same player watches on B: A's moves reach it only through Redis (a group notice).
    watcher = elsewhere()
    watched = Sockets(watcher)
    watcher.goto(f"{stack.b.url}/en/tables/{code}/")
    expect_live(watcher)

    def watcher_follows():
        expect(watcher.locator("#board")).to_have_attribute(
            "data-version", str(version(page)), timeout=10_000
        )

    for _ in range(2):
        assert my_move(page)
        watcher_follows()

    stack.redis.restart()  # no persistence: groups and queued messages are gone

    while my_move(page):
        watcher_follows()
    expect(watcher.locator(".summary__panel")).to_be_visible()

    # Sockets opened after the restart, one on each server, connect and follow as well.
    late = {}
    for server in (stack.a, stack.b):
        p = elsewhere()
        late[p] = Sockets(p)
        p.goto(f"{server.url}/en/tables/{code}/")
        expect_live(p)
    before = version(page)
    page.get_by_test_id("next-hand").click()
    expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
    # The bots play on until the player is to decide: only then does the version stand still.
    page.wait_for_selector("#board.is-my-turn, #exposure-form", timeout=20000)
    for p in (watcher, *late):
        expect(p.locator("#board")).to_have_attribute("data-version", str(version(page)))

    for name, s in [
        ("player", sockets),
        ("watcher", watched),
        *(("late", s) for s in late.values()),
    ]:
        assert len(s.opened) == 1 and not s.closed, f"the {name}'s socket dropped"
    with stack.db() as db:
        assert_hand_whole(db, code)


GERMAN_TOAST = "Der Tisch ist gerade nicht erreichbar – verbinde neu …"


def test_postgres_restarted_in_mid_hand_the_player_is_told_and_play_resumes(page, healthy_stack):
    stack = healthy_stack
    code = start_table(page, stack.a.url, lang="de")
    for _ in range(2):
        assert my_move(page)
    before = version(page)

    stack.pg.stop("fast")  # ends every session at once
    try:
        send = choose_move(page)
        send()
        # Told, in the page's language, and the indicator says the page is reconnecting; the
        # board stays (not a blank page, not an error page).
        expect(page.locator("#toast .toast__msg")).to_have_text(GERMAN_TOAST)
        status = page.get_by_test_id("live-status")
        expect(status).to_have_attribute("data-state", "offline")
        expect(status).to_contain_text("Offline – verbinde neu …")
        expect(page.locator("#board")).to_be_visible()
        assert version(page) == before
        body = page.locator("body").inner_text()
        assert "Traceback" not in body and "Server Error" not in body
    finally:
        stack.pg.start()

    # Back by itself: the connect snapshot makes the page whole (and clears the toast).
    expect_live(page, timeout=30_000)
    wait_for_snapshot(page, 2)
    expect(page.locator("#toast .toast__msg")).to_have_count(0)
    play_to_the_end(page)
    with stack.db() as db:
        assert_hand_whole(db, code)


def test_a_socket_opened_while_postgres_is_down_is_told_to_try_again(page, healthy_stack):
    """The handshake reads the session and the user before any consumer runs: with the
    database away it is refused as an open socket is (4503, the page reconnects), not with
    HTTP 500 and a traceback (findings 3.6)."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    stack = healthy_stack
    code = start_table(page, stack.a.url)
    session = {c["name"]: c["value"] for c in page.context.cookies()}["sessionid"]
    page.close()  # its own reconnects would open sockets too; this test opens one by hand
    logged = len(stack.a.log())

    stack.pg.stop("fast")
    try:
        try:
            with (
                connect(
                    f"ws://127.0.0.1:{stack.a.port}/ws/en/tables/{code}/",
                    additional_headers={"Cookie": f"sessionid={session}", "Origin": stack.a.url},
                    open_timeout=15,
                ) as ws,
                pytest.raises(ConnectionClosed) as closed,
            ):
                ws.recv(timeout=15)
        except InvalidStatus as e:  # what it was: HTTP 500 at the handshake
            pytest.fail(f"the handshake was answered with HTTP {e.response.status_code}")
        assert closed.value.rcvd.code == 4503
        log = stack.a.log()[logged:]
        assert "database unavailable opening" in log
        assert "Traceback" not in log and "Exception inside application" not in log, log
    finally:
        stack.pg.start()


def _pool_workers(pid: int) -> list[int]:
    """The spawned ProcessPoolExecutor workers among a process's children (not its
    multiprocessing resource tracker)."""
    children = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            children += [int(c) for c in path.read_text().split()]
    if not children:  # a kernel without /proc/…/children
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True)
        children = [int(c) for c in out.stdout.split()]
    workers = []
    for child in children:
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                workers.append(child)
    return workers


TURN = "#board.is-my-turn"
DIED = re.compile(r"bot worker died while thinking on table (\S+) \(seat (\d+), version (\d+)\)")


def test_a_hard_worker_killed_in_mid_think_the_move_is_made_once(page, healthy_stack):
    stack = healthy_stack
    with contextlib.ExitStack() as exits:
        # Its own database: the stack's servers sweep theirs for due bot moves, and the move
        # must be thought about in this server, whose workers the test kills.
        env = exits.enter_context(
            fresh_database(stack.tmp, database_url=stack.pg.url(), redis_url=stack.redis.url)
        )
        # Paced, as in production: one bot move at a time, each a think in the worker pool.
        server = exits.enter_context(daphne_process({**env, "GAME_PACING": "1"}, stack.tmp))
        import psycopg

        db = exits.enter_context(psycopg.connect(env["DATABASE_URL"], autocommit=True))
        code = start_table(page, server.url, level="hard")

        def state():
            return db.execute(
                "SELECT version, bot_claimed_until > now() FROM games_table WHERE code = %s",
                (code,),
            ).fetchone()

        def deaths():
            return [m for m in DIED.findall(server.log()) if m[0] == code]

        def claim_or_turn():
            claimed_version, claimed = state()
            if claimed:
                return ("claim", claimed_version)
            if page.locator(f"{TURN} .hand__card.is-playable, #exposure-form").count():
                return ("turn", claimed_version)
            return None

        # Kill the worker while a bot's move is claimed, i.e. while its search runs. Only a
        # worker that was already there, idle, before the claim: the first think's worker is
        # still starting up. It was in mid-think if the driver reports the death for that very
        # version (a worker killed just after its think breaks the pool for a later move
        # instead: then try again).
        idle: set[int] = set()
        killed = None
        deadline = time.monotonic() + 60
        while killed is None and time.monotonic() < deadline:
            seen = len(deaths())
            what, claimed_version = wait_until(claim_or_turn, "no bot move and no turn came")
            if what == "turn":
                my_move(page)
                continue
            workers = _pool_workers(server.pid)
            if not workers or not idle.issuperset(workers):
                wait_until(
                    lambda: not state()[1] or state()[0] > claimed_version,  # noqa: B023
                    "a bot's think never ended",
                )
                idle.update(_pool_workers(server.pid))
                continue
            for pid in workers:
                os.kill(pid, signal.SIGKILL)
            wait_until(
                lambda: len(deaths()) > seen or state()[0] > claimed_version,  # noqa: B023
                "the driver neither reported the dead worker nor moved on",
            )
            new = deaths()[seen:]
            if new and int(new[0][2]) == claimed_version:
                killed = (int(new[0][1]), claimed_version)
            idle.clear()  # the pool was replaced: its new worker starts up first
        assert killed, "no worker could be killed in mid-think"
        seat, at = killed

        # The move is made, once, by the seat that was thinking; and the table goes on.
        wait_until(lambda: state()[0] > at, "the killed think's move was never made")
        while state()[0] < at + 4 and not page.locator(".summary__panel").is_visible():
            if not my_move(page, timeout=30_000):
                break
        rows = log_of_hand(db, code)
        made = [(s, a) for seq, s, a in rows if seq == at + 1]
        assert len(made) == 1 and made[0][0] == seat, made
        seqs = [seq for seq, _s, _a in rows]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        cards = [a["card"] for _seq, _s, a in rows if a["type"] == "play"]
        assert len(cards) == len(set(cards)), "a card was played twice"
        assert state()[0] >= at + 2, "the table froze after the killed think"
