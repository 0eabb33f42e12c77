"""The Prometheus metrics: each hook counts what it says, and the endpoint is private."""

import random
import urllib.request

import pytest
import redis.exceptions
from asgiref.sync import sync_to_async
from django.db import OperationalError
from prometheus_client import start_http_server

from games import driver, live, metrics, services, views_live
from games.bots.task import BotTask
from games.engine import get_game
from games.models import ActionLog
from tests.games.conftest import play_until_human
from tests.games.test_consumers import connect, make_table, make_user, version_of

GAME = get_game("gongzhu")


def value(name, **labels):
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


def legal_frame(table):
    """A frame for one of seat 0's legal moves (the frame the page's form would send)."""
    table.refresh_from_db()
    state = GAME.from_json(table.state)
    move = random.Random(1).choice(GAME.legal_actions(state, 0))
    frame = {"action": move["type"], "version": table.version}
    frame.update({k: v for k, v in move.items() if k != "type"})
    return frame


# ---------------------------------------------------------------- applied and refused


@pytest.mark.django_db
def test_committed_moves_are_counted_per_game_and_refused_ones_are_not(
    table, owner, django_capture_on_commit_callbacks
):
    before = value("cardsite_actions_applied_total", game="gongzhu")
    logged = ActionLog.objects.filter(table=table).count()
    with django_capture_on_commit_callbacks(execute=True):
        play_until_human(table)
    with django_capture_on_commit_callbacks(execute=True):
        views_live.handle(str(table.code), owner, "en", legal_frame(table))
    table.refresh_from_db()
    moves = ActionLog.objects.filter(table=table).count() - logged
    assert moves >= 1
    assert value("cardsite_actions_applied_total", game="gongzhu") - before == moves

    # A stale move rolls back: counted as refused (stale), never as applied.
    applied = value("cardsite_actions_applied_total", game="gongzhu")
    stale = value("cardsite_actions_refused_total", game="gongzhu", reason="stale")
    frame = {"action": "play", "card": "2C", "version": table.version + 5}
    with django_capture_on_commit_callbacks(execute=True):
        views_live.handle(str(table.code), owner, "en", frame)
    assert value("cardsite_actions_applied_total", game="gongzhu") == applied
    assert value("cardsite_actions_refused_total", game="gongzhu", reason="stale") == stale + 1


@pytest.mark.django_db
def test_refusals_are_counted_by_their_code(table, owner, outsider):
    def refused(reason):
        return value("cardsite_actions_refused_total", game="gongzhu", reason=reason)

    bad, seated = refused("bad_frame"), refused("not_seated")
    views_live.handle(str(table.code), owner, "en", {"action": "juggle"}, "gongzhu")
    views_live.handle(str(table.code), outsider, "en", {"action": "hint"}, "gongzhu")
    assert refused("bad_frame") == bad + 1
    assert refused("not_seated") == seated + 1


# ---------------------------------------------------------------- bots


@pytest.mark.django_db
def test_quick_bot_decisions_are_timed_per_level(owner, fixed_deal):
    # A fixed deal where the computer players decide before the person: on a random one they
    # now and then have only forced moves first (CI met one).
    fixed_deal(20261207)
    before = value("cardsite_bot_decision_seconds_count", level="normal")
    table = services.create_table(owner, "gongzhu", "normal")  # unpaced: the bots move at once
    services.run_bots(table.code)
    bot_moves = ActionLog.objects.filter(table=table).exclude(seat=0).count()
    # Every bot move but a forced one (a single legal choice) was a timed decision.
    assert 1 <= value("cardsite_bot_decision_seconds_count", level="normal") - before <= bot_moves


async def test_a_hard_decision_counts_in_the_pool_queue_while_it_thinks(monkeypatch):
    seen = []

    async def think_in_pool(self, task):
        seen.append(value("cardsite_bot_pool_tasks"))
        return {"type": "play", "card": "2C"}

    monkeypatch.setattr(driver.Driver, "_think_in_pool", think_in_pool)
    task = BotTask("x", "gongzhu", 1, "hard", 3, {}, [], "1:3:1")
    queued = value("cardsite_bot_pool_tasks")
    decided = value("cardsite_bot_decision_seconds_count", level="hard")
    await driver.Driver()._think(task)
    assert seen == [queued + 1]
    assert value("cardsite_bot_pool_tasks") == queued
    assert value("cardsite_bot_decision_seconds_count", level="hard") == decided + 1


# ---------------------------------------------------------------- live sockets


@pytest.mark.django_db(transaction=True)
async def test_live_sockets_tables_and_action_latency():
    user = await make_user("mei")
    table = await make_table(user)
    sockets = value("cardsite_live_sockets", kind="table")
    tables = value("cardsite_live_tables", game="gongzhu")
    answered = value("cardsite_action_latency_seconds_count", game="gongzhu")
    comm = await connect(user, table)
    try:
        first = await comm.receive_from()
        assert value("cardsite_live_sockets", kind="table") == sockets + 1
        assert value("cardsite_live_tables", game="gongzhu") == tables + 1
        # Two frames, each answered: the first handler (and its observation) has finished
        # before the second frame is read.
        for _ in range(2):
            await comm.send_json_to({"action": "juggle", "version": version_of(first)})
            await comm.receive_from()
        assert value("cardsite_action_latency_seconds_count", game="gongzhu") >= answered + 1
    finally:
        await comm.disconnect()
    assert value("cardsite_live_sockets", kind="table") == sockets
    assert value("cardsite_live_tables", game="gongzhu") == tables


# ---------------------------------------------------------------- outages


@pytest.mark.django_db(transaction=True)
async def test_a_database_error_under_a_handler_is_counted(monkeypatch):
    user = await make_user("ana")
    table = await make_table(user)
    comm = await connect(user, table)
    try:
        await comm.receive_from()
        before = value("cardsite_database_errors_total", where="table")

        def fail(*args, **kwargs):
            raise OperationalError("the database went away")

        monkeypatch.setattr(views_live, "handle", fail)
        await comm.send_json_to({"action": "play", "card": "2C", "version": 1})
        await comm.receive_from()  # told "reconnecting"
        closed = await comm.receive_output()
        assert closed["type"] == "websocket.close"
        assert value("cardsite_database_errors_total", where="table") == before + 1
    finally:
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_opening_while_the_database_is_away_is_told_to_try_again(monkeypatch):
    """The session and the user are read before any consumer runs: with the database away
    that was an HTTP 500 and "Exception inside application" (findings 3.6)."""
    import channels.auth
    from channels.testing import WebsocketCommunicator

    from cardsite.asgi import application
    from tests.games.test_consumers import ORIGIN, _cookie

    user = await make_user("ana")
    table = await make_table(user)
    cookie = await sync_to_async(_cookie)(user)

    async def away(scope):
        raise OperationalError("connection refused")

    monkeypatch.setattr(channels.auth, "get_user", away)
    before = value("cardsite_database_errors_total", where="handshake")
    comm = WebsocketCommunicator(
        application, f"/ws/en/tables/{table.code}/", headers=[ORIGIN, cookie]
    )
    connected, _ = await comm.connect()
    assert connected
    closed = await comm.receive_output()
    assert closed == {"type": "websocket.close", "code": live.CLOSE_TRY_AGAIN}
    assert value("cardsite_database_errors_total", where="handshake") == before + 1
    await comm.wait()


async def test_channel_layer_errors_are_counted_per_operation():
    class Away:
        async def group_add(self, group, channel):
            raise redis.exceptions.ConnectionError("Connection refused")

    lost = []

    async def on_lost(error):
        lost.append(error)

    layer = live.KeptLayer(Away(), on_lost)
    before = value("cardsite_channel_layer_errors_total", operation="group_add")
    await layer.group_add("table.x", "chan")
    assert value("cardsite_channel_layer_errors_total", operation="group_add") == before + 1
    assert len(lost) == 1


# ---------------------------------------------------------------- the endpoint


def test_the_port_comes_from_the_environment_with_an_offset(monkeypatch):
    monkeypatch.delenv("METRICS_PORT", raising=False)
    monkeypatch.delenv("METRICS_PORT_OFFSET", raising=False)
    assert metrics.port_from_environment() is None
    assert metrics.serve() is None  # no port: no server
    monkeypatch.setenv("METRICS_PORT", "9100")
    assert metrics.port_from_environment() == 9100
    monkeypatch.setenv("METRICS_PORT_OFFSET", "2")
    assert metrics.port_from_environment() == 9102


def test_serve_listens_on_loopback_only(monkeypatch):
    calls = []

    def fake_start(port, addr, registry):
        calls.append((port, addr, registry))
        raise OSError("address in use")

    monkeypatch.setattr("prometheus_client.start_http_server", fake_start)
    monkeypatch.setattr(metrics, "_server", None)
    monkeypatch.setenv("METRICS_PORT", "9100")
    assert metrics.serve(every=0, tries=2) is None  # a taken port: the site runs on
    metrics._retrying.join(5)
    assert calls == [(9100, "127.0.0.1", metrics.REGISTRY)] * 3  # and tries it again


def test_a_taken_port_is_served_once_it_is_free(monkeypatch):
    """In a rolling restart the port can still be held a moment: the listener tries again."""
    calls = []

    def fake_start(port, addr, registry):
        calls.append(port)
        if len(calls) < 3:
            raise OSError("address in use")
        return "server", "thread"

    monkeypatch.setattr("prometheus_client.start_http_server", fake_start)
    monkeypatch.setattr(metrics, "_server", None)
    assert metrics.serve(9101, every=0, tries=5) is None
    metrics._retrying.join(5)
    assert calls == [9101] * 3
    assert metrics._server == "server"
    assert metrics.serve(9101) == "server"  # once


def test_the_endpoint_shows_the_metrics_in_prometheus_format():
    server, thread = start_http_server(0, addr="127.0.0.1", registry=metrics.REGISTRY)
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        metrics.applied("gongzhu")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            body = response.read().decode()
    finally:
        server.shutdown()
        server.server_close()
    for name in (
        "cardsite_actions_applied_total",
        "cardsite_actions_refused_total",
        "cardsite_action_latency_seconds_bucket",
        "cardsite_bot_decision_seconds",
        "cardsite_bot_pool_tasks",
        "cardsite_live_sockets",
        "cardsite_live_tables",
        "cardsite_database_errors_total",
        "cardsite_channel_layer_errors_total",
    ):
        assert f"# TYPE {name.removesuffix('_total').removesuffix('_bucket')}" in body, name
    assert 'cardsite_actions_applied_total{game="gongzhu"}' in body
