"""A SIGTERM to a real daphne process of the site drains it: every socket is told to
reconnect (1012), then the process exits cleanly."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import time
import urllib.request

import pytest
import requests
import websockets

from tests.servers import daphne_process, fresh_database

EXIT_WITHIN = 10.0  # seconds; the drain itself takes well under one here


@pytest.fixture
def server(tmp_path):
    with fresh_database(tmp_path) as env, daphne_process(env, tmp_path) as daphne:
        yield daphne


def guest_table(url: str) -> tuple[str, str]:
    """Play Gong Zhu as a guest: the table's code and the session's cookie header."""
    s = requests.Session()
    s.get(url + "/en/", timeout=10)
    r = s.post(
        url + "/en/play/gongzhu/",
        data={"csrfmiddlewaretoken": s.cookies["csrftoken"]},
        headers={"Referer": url + "/en/"},
        timeout=10,
    )
    code = re.search(r"/tables/([0-9a-f-]{36})/", r.url).group(1)
    return code, "; ".join(f"{k}={v}" for k, v in s.cookies.items())


async def open_socket(server, path: str, cookie: str):
    ws = await websockets.connect(
        f"ws://127.0.0.1:{server.port}{path}",
        additional_headers={"Cookie": cookie},
        origin=server.url,
    )
    await asyncio.wait_for(ws.recv(), 10)  # the first frame: the socket is live
    return ws


async def close_code(ws) -> int | None:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), EXIT_WITHIN)
    except websockets.ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else None


def wait_exit(proc, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the process's exit
    return proc.poll()


async def test_sigterm_with_open_sockets_says_reconnect_and_exits_cleanly(server):
    with urllib.request.urlopen(server.url + "/readyz", timeout=5) as resp:
        assert json.load(resp)["status"] == "ok"
    code, cookie = await asyncio.to_thread(guest_table, server.url)
    table = await open_socket(server, f"/ws/en/tables/{code}/", cookie)
    lobby = await open_socket(server, "/ws/en/lobby/", cookie)

    server.proc.send_signal(signal.SIGTERM)

    assert await asyncio.gather(close_code(table), close_code(lobby)) == [1012, 1012]
    status = await asyncio.to_thread(wait_exit, server.proc, EXIT_WITHIN)
    log = server.log()
    assert status == 0, log[-3000:]
    assert "Traceback" not in log
    assert "WSDISCONNECT /ws/en/lobby/" in log  # the consumers' disconnect ran


async def test_a_cancellation_swallowed_by_the_awaited_receive_still_ends_the_caller():
    """Python 3.11's asyncio.wait_for (inside redis-py) can swallow a cancellation; the
    consumer's receive must end anyway, or daphne waits for it forever on SIGTERM."""
    from games.live import _cancellable

    swallowed = asyncio.Event()

    async def receive_that_swallows_once():
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            swallowed.set()
        await asyncio.sleep(3600)  # goes on waiting; only a second cancel ends it

    caller = asyncio.ensure_future(_cancellable(receive_that_swallows_once()))
    await asyncio.sleep(0)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(caller, 2)
    await asyncio.wait_for(swallowed.wait(), 2)
    leftover = [t for t in asyncio.all_tasks() if "receive_that_swallows_once" in repr(t)]
    await asyncio.wait(leftover, timeout=2)
    assert all(t.cancelled() for t in leftover)
