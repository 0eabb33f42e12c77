"""The table's live channel through the real ASGI stack."""

import asyncio
import json
import random
import re
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cardsite.asgi import application
from games import driver, frames, services, views_live
from games.engine import get_game
from games.models import ActionLog, Table
from tests.games.conftest import until_moves_on_their_way
from tests.games.test_shared_tables import two_people
from tests.stacks import on_postgresql

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://localhost")
GAME = get_game("gongzhu")


def _cookie(user):
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


@sync_to_async
def make_user(name):
    return get_user_model().objects.create_user(name, password="Kartenspiel-2026")


@sync_to_async
def make_table(user, level="easy"):
    return services.create_table(user, "gongzhu", level)


@sync_to_async
def open_to_watchers(table):
    Table.objects.filter(pk=table.pk).update(spectators=True)


@sync_to_async
def reload(table):
    return Table.objects.get(pk=table.pk)


async def connect(user, table, lang="en"):
    cookie = await sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application, f"/ws/{lang}/tables/{table.code}/", headers=[ORIGIN, cookie]
    )
    connected, _ = await comm.connect()
    assert connected
    return comm


def version_of(html):
    m = re.search(r'id="board"[^>]*data-version="(\d+)"', html)
    return int(m.group(1)) if m else None


async def until(comm, predicate, limit=200):
    """Frames until one satisfies ``predicate``; each frame is checked by the caller's hook."""
    for _ in range(limit):
        html = await comm.receive_from(timeout=10)
        if predicate(html):
            return html
    raise AssertionError("the expected frame never came")


def my_turn(html):
    return 'class="gz-board phase-play is-my-turn' in html or (
        "phase-expose" in html and 'id="exposure-form"' in html
    )


@sync_to_async
def legal_for_human(table):
    t = Table.objects.get(pk=table.pk)
    state = GAME.from_json(t.state)
    return t.version, GAME.legal_actions(state, 0), GAME.observation(state, 0)


def frame_for(action, version):
    if action["type"] == "expose":
        return {"action": "expose", "cards": action["cards"], "version": str(version)}
    return {"action": "play", "card": action["card"], "version": str(version)}


@sync_to_async
def allowed_cards(table, version, phase):
    """What seat 0 may see at ``version``: its own deal, every card played, and exposures once shown."""
    t = Table.objects.get(pk=table.pk)
    hands = list(t.hands.order_by("number"))
    allowed = set()
    for hand in hands:
        allowed |= set(hand.deal["hands"][0])
    for entry in ActionLog.objects.filter(table=t, seq__lte=version):
        if entry.action.get("type") == "play":
            allowed.add(entry.action["card"])
        elif entry.action.get("type") == "expose" and phase != "expose":
            allowed |= set(entry.action["cards"])
    return allowed


async def check_secret(table, html):
    version = version_of(html)
    if version is None:
        return
    phase = re.search(r'data-phase="(\w+)"', html).group(1)
    shown = set(re.findall(r'data-card="(\w\w)"', html))
    leaked = shown - await allowed_cards(table, version, phase)
    assert not leaked, f"frame v{version} shows {leaked}"


async def test_a_hand_over_the_socket_never_shows_a_hidden_card():
    user = await make_user("ren")
    table = await make_table(user)
    comm = await connect(user, table)
    import random

    rng = random.Random(3)
    frames = 0
    while True:
        html = await comm.receive_from(timeout=10)
        frames += 1
        await check_secret(table, html)
        if "summary__panel" in html:
            break
        if my_turn(html):
            version, legal, obs = await legal_for_human(table)
            if (
                version != version_of(html)
                or not legal
                or 0 not in GAME.to_move(GAME.from_json((await reload(table)).state))
            ):
                continue
            await comm.send_json_to(frame_for(rng.choice(legal), version))
    assert frames > 13
    t = await reload(table)
    assert await sync_to_async(lambda: t.hands.get().ended_at is not None)()
    await comm.disconnect()


async def test_stale_and_out_of_turn_moves_are_refused_and_change_nothing():
    user = await make_user("ren")
    table = await make_table(user)
    comm = await connect(user, table, lang="de")
    await until(comm, my_turn)
    version, legal, obs = await legal_for_human(table)
    before = (await reload(table)).state
    await comm.send_json_to(frame_for(legal[0], version - 1))
    reply = await comm.receive_from(timeout=10)
    assert "Der Tisch ist inzwischen weiter" in reply
    assert (await reload(table)).state == before
    await comm.send_json_to({"action": "play", "card": "ZZ", "version": str(version)})
    reply = await comm.receive_from(timeout=10)
    assert 'class="toast__msg"' in reply
    assert (await reload(table)).state == before
    await comm.send_json_to({"nonsense": True})
    assert 'class="toast__msg"' in await comm.receive_from(timeout=10)
    await comm.send_to(text_data="not json")
    assert 'class="toast__msg"' in await comm.receive_from(timeout=10)
    assert (await reload(table)).state == before
    await comm.disconnect()


@pytest.mark.skipif(on_postgresql(), reason="SQLite's lock: the default database only")
async def test_a_move_sqlite_refuses_as_locked_is_tried_again_not_lost(monkeypatch):
    """SQLite's "database is locked" under a person's move (met while the review worker
    wrote, findings 1.13) closed the socket and lost the move; the call is tried again."""
    from django.db import OperationalError, transaction

    user = await make_user("ren")
    table = await make_table(user)
    comm = await connect(user, table)
    await until(comm, my_turn)
    version, legal, _obs = await legal_for_human(table)
    real, calls = services.submit_action, []

    def locked_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            with transaction.atomic():
                services.Table.objects.filter(pk=table.pk).update(version=F("version") + 100)
                raise OperationalError("database is locked")  # rolled back with its write
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "submit_action", locked_once)
    await comm.send_json_to(frame_for(legal[0], version))
    html = await until(comm, lambda h: (version_of(h) or 0) > version)
    assert 'class="toast__msg"' not in html
    assert len(calls) == 2
    logged = await sync_to_async(
        lambda: ActionLog.objects.filter(table=table, seq=version + 1).count()
    )()
    assert logged == 1  # applied once
    await comm.disconnect()


async def test_a_second_tab_sees_the_same_state():
    user = await make_user("ren")
    table = await make_table(user)
    a = await connect(user, table)
    b = await connect(user, table)
    await until(a, my_turn)
    await until(b, my_turn)
    version, legal, obs = await legal_for_human(table)
    await a.send_json_to(frame_for(legal[0], version))
    seen_a = await until(a, lambda h: (version_of(h) or 0) > version)
    seen_b = await until(b, lambda h: (version_of(h) or 0) > version)
    assert version_of(seen_b) >= version + 1 and version_of(seen_a) >= version + 1
    await a.disconnect()
    await b.disconnect()


async def test_an_outsider_sees_no_hand_and_cannot_act():
    owner = await make_user("ren")
    outsider = await make_user("zoe")
    table = await make_table(owner)
    mine = await connect(owner, table)
    await until(mine, my_turn)  # the bots wait for the owner now, so nothing else moves
    refused = await connect(outsider, table)  # watching is the table's choice: off here
    assert "not opened it to watchers" in await refused.receive_from(timeout=10)
    assert await refused.receive_output() == {"type": "websocket.close", "code": 4403}
    await open_to_watchers(table)
    comm = await connect(outsider, table)
    html = await comm.receive_from(timeout=10)
    assert 'class="hand__card' not in html
    version, legal, obs = await legal_for_human(table)
    before = (await reload(table)).state
    await comm.send_json_to({"action": "play", "card": obs["hand"][0], "version": str(version)})
    reply = await until(comm, lambda h: "toast__msg" in h)
    assert "not seated at this table" in reply
    assert (await reload(table)).state == before
    await comm.disconnect()
    await mine.disconnect()


async def test_anonymous_gets_4401():
    owner = await make_user("ren")
    table = await make_table(owner)
    comm = WebsocketCommunicator(application, f"/ws/en/tables/{table.code}/", headers=[ORIGIN])
    assert (await comm.connect())[0]
    await comm.receive_from()
    assert await comm.receive_output() == {"type": "websocket.close", "code": 4401}
    await comm.disconnect()  # lets the consumer's channel-layer receive end cleanly


async def test_an_unknown_table_gets_4404():
    user = await make_user("ren")
    cookie = await sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application, "/ws/en/tables/00000000-0000-0000-0000-000000000000/", headers=[ORIGIN, cookie]
    )
    assert (await comm.connect())[0]
    await comm.receive_from()
    assert await comm.receive_output() == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()


async def test_a_restart_in_the_middle_of_a_hand_continues_it(monkeypatch, settings):
    """A new process on the same database: due bot moves are found and played."""
    user = await make_user("ren")
    table = await make_table(user)
    comm = await connect(user, table)
    html = await until(comm, my_turn)
    version, legal, obs = await legal_for_human(table)
    await comm.disconnect()
    # The "old process" dies: its driver is gone. The human's move makes bot moves due.
    await driver.stop()
    monkeypatch.setattr(driver, "_driver", driver.Driver())

    @sync_to_async
    def move_until_a_bot_is_due():
        # Paced for this move only, so the bots' replies are left due rather than played.
        settings.GAME_PACING = True
        for _ in range(20):
            t = Table.objects.get(pk=table.pk)
            shown = services.get_table(table.code)
            # A bot's move due, or the bots' replies made and still on their way.
            if t.bot_due_at is not None or getattr(shown, "next_shown_at", None):
                settings.GAME_PACING = False
                return shown.version
            state = GAME.from_json(t.state)
            services.submit_action(table.code, user, GAME.legal_actions(state, 0)[0], t.version)
        raise AssertionError("no bot move came due")

    version = await move_until_a_bot_is_due()
    # The "new process": a fresh driver, started by the next connection.
    monkeypatch.setattr(driver, "_driver", driver.Driver())
    comm = await connect(user, table)
    html = await until(comm, my_turn)
    t = await reload(table)
    assert t.version > version or "summary__panel" in html
    await comm.disconnect()
    await driver.stop()  # this test's own driver


async def test_frames_speak_the_language_of_the_page():
    user = await make_user("ren")
    table = await make_table(user)
    comm = await connect(user, table, lang="de")
    html = await comm.receive_from(timeout=10)
    assert "Gesammelte Karten anzeigen" in html
    await comm.disconnect()
    comm = await connect(user, table, lang="en")
    html = await comm.receive_from(timeout=10)
    assert "Show collected cards" in html
    await comm.disconnect()


async def test_the_group_notice_carries_no_cards(monkeypatch):
    from channels.layers import get_channel_layer

    sent = []
    layer = get_channel_layer()
    original = layer.group_send

    async def spy(group, message):
        sent.append(json.dumps(message))
        return await original(group, message)

    monkeypatch.setattr(layer, "group_send", spy)
    user = await make_user("ren")
    table = await make_table(user)
    comm = await connect(user, table)
    await until(comm, my_turn)
    assert sent and all(set(json.loads(m)) == {"type", "version"} for m in sent)
    await comm.disconnect()


async def test_the_sockets_database_thread_keeps_its_sqlite_connection():
    """The live sockets' database calls reuse one SQLite connection (opening one per call cost
    a sixth of a live action's CPU); PostgreSQL's go back to its pool after each call."""
    from channels.db import database_sync_to_async
    from django.db import connection

    from games.live import database_call

    def opened():
        connection.ensure_connection()
        return connection.vendor, connection.connection

    def close():
        connection.close()

    await database_sync_to_async(close)()  # whatever an earlier test left there
    vendor, first = await database_sync_to_async(opened)()
    _, second = await database_sync_to_async(opened)()
    _, third = await database_call(opened)()
    _, fourth = await database_call(opened)()
    if vendor == "sqlite":
        assert second is not first  # channels' own hop closes it after each call
        assert fourth is third
    else:
        assert connection.settings_dict["OPTIONS"].get("pool")


def test_a_frame_after_a_commit_renders_the_table_as_committed(django_assert_num_queries):
    """The sockets render a notice's version from this process's copy of that commit (no
    read), which is what the database holds; any other version is read."""
    user = get_user_model().objects.create_user("kept")
    table = services.create_table(user, "gongzhu", "easy")
    services.run_bots(table.code)
    fresh = services.get_table(table.code)
    with django_assert_num_queries(0):  # its seats, their players and the board included
        kept = services.committed_table(table.code, fresh.version)
        seats = [(s.index, s.kind, s.user_id, s.table.code) for s in kept.seats.all()]
        assert kept.seats.all()[0].user.username == "kept"
        views_live.snapshot(table.code, user, "en", committed=fresh.version)
    assert kept.version == fresh.version and kept.state == fresh.state
    assert seats == [(s.index, s.kind, s.user_id, table.code) for s in fresh.seats.all()]
    with django_assert_num_queries(2):  # the table, its seats
        older = services.committed_table(table.code, fresh.version - 1)
    assert older.version == fresh.version


@sync_to_async
def make_gdy_table(user):
    return services.create_table(user, "gandengyan", "easy")


async def test_the_round_log_travels_only_while_the_page_has_it_open():
    user = await make_user("logreader")
    table = await make_gdy_table(user)
    comm = await connect(user, table)
    first = await comm.receive_from(timeout=10)
    assert 'id="round-log"' in first and "round-log__row" not in first
    assert "Loading…" in first
    # A part the board does not open, or a malformed request: nothing at all.
    await comm.send_json_to({"action": "open", "part": "hands", "open": "1"})
    await comm.send_json_to({"action": "open", "part": ["log"], "open": "1"})
    assert await comm.receive_nothing(timeout=0.3)
    await comm.send_json_to({"action": "open", "part": "log", "open": "1"})
    opened = await until(comm, lambda html: 'id="round-log"' in html)
    assert "Loading…" not in opened
    log = re.search(r'<ol class="round-log" id="round-log"[^>]*>(.*?)</ol>', opened, re.S).group(1)
    assert "round-log__row" in log or "Nothing played yet." in log
    await comm.send_json_to({"action": "open", "part": "log", "open": "0"})
    closed = await until(comm, lambda html: 'id="round-log"' in html)
    assert "Loading…" in closed and "round-log__row" not in closed
    await comm.disconnect()


async def test_the_database_thread_takes_a_persons_action_before_bots_and_boards():
    """Calls waiting for the one database thread go by priority, then in order: a person's
    action before the boards that follow a change, and those before the bots' paced moves."""
    import asyncio
    import threading

    from games.live import BACKGROUND, NORMAL, URGENT, database_call

    started, gate, order = threading.Event(), threading.Event(), []

    def hold():
        started.set()
        gate.wait(10)

    def note(name):
        order.append(name)

    holding = asyncio.ensure_future(database_call(hold)())
    assert await asyncio.to_thread(started.wait, 10)
    calls = [
        asyncio.ensure_future(database_call(note, priority=p)(name))
        for name, p in [
            ("bot", BACKGROUND),
            ("board", NORMAL),
            ("bot 2", BACKGROUND),
            ("move", URGENT),
            ("board 2", NORMAL),
        ]
    ]
    waiting = database_call.single_thread_executor._work_queue
    for _ in range(1000):  # until every call is queued behind the one holding the thread
        if waiting.qsize() == len(calls):
            break
        await asyncio.sleep(0)
    assert waiting.qsize() == len(calls)
    gate.set()
    await asyncio.gather(holding, *calls)
    assert order == ["move", "board", "board 2", "bot", "bot 2"]


async def test_a_change_without_a_version_during_a_render_is_drawn_after_it(monkeypatch):
    """A presence notice (no new version) that arrives while the board is being rendered from
    a read made before it: the page gets the board again afterwards, not "seen that version"."""
    import asyncio

    from games import consumers
    from games.sockets import Drawing

    table = {"version": 5, "presence": "connected"}
    reads, gate = [], asyncio.Event()

    def snapshot(code, user, language, since=-1, committed=None, opened=frozenset(), seen=None):
        reads.append(since)
        if table["version"] <= since:
            return views_live.Frame("", table["version"])
        return views_live.Frame(f"board {table['version']} {table['presence']}", table["version"])

    def database_call(fn, priority=None):
        async def call(*args, **kwargs):
            result = fn(*args, **kwargs)  # the read is made now ...
            if len(reads) == 1:
                await gate.wait()  # ... and the first one's frame is held back
            return result

        return call

    monkeypatch.setattr(consumers, "database_call", database_call)
    monkeypatch.setattr(consumers.views_live, "snapshot", snapshot)
    consumer = consumers.TableConsumer()
    consumer.scope = {"user": None}
    consumer.code, consumer.open_parts = "ABC", frozenset()
    consumer.drawing = Drawing()
    consumer.drawing.sent(4)
    consumer.game = "gongzhu"
    consumer.language = lambda: "en"
    sent = []
    consumer.frames = type(
        "Frames", (), {"message": lambda self, frame: frame.html, "seen": None}
    )()

    async def send(text_data):
        sent.append(text_data)

    consumer.send = send
    rendering = asyncio.ensure_future(
        consumer.table_changed({"type": "table.changed", "version": 5})
    )
    while not reads and not rendering.done():
        await asyncio.sleep(0)
    table["presence"] = "reconnecting"  # a person's socket closed: no new version
    await consumer.table_changed({"type": "table.changed", "version": 5, "refresh": True})
    gate.set()
    await asyncio.wait_for(rendering, 10)
    assert sent == ["board 5 connected", "board 5 reconnecting"]


async def test_a_move_made_while_a_socket_opens_reaches_it(monkeypatch):
    """The table moves between the socket's first read and its first frame: the notice of that
    move must reach the socket, or its page keeps the older board until the next move (with
    the bots waiting for the person, that is never)."""
    from games import realtime

    user = await make_user("ren")
    table = await make_table(user)
    first = await connect(user, table)
    await until(first, my_turn)  # the bots wait for the person now: nothing else moves
    version, legal, _obs = await legal_for_human(table)
    real_opening = views_live.opening

    def opening_then_a_move(code, user_, language):
        opened = real_opening(code, user_, language)  # the board at ``version`` ...
        loop = getattr(realtime._serving, "loop", None)
        realtime.serving(None)  # ... then a move whose notice is sent before this returns
        try:
            services.submit_action(code, user_, legal[0], version)
        finally:
            realtime.serving(loop)
        return opened

    monkeypatch.setattr(views_live, "opening", opening_then_a_move)
    second = await connect(user, table)
    assert version_of(await second.receive_from(timeout=10)) == version
    newer = await until(second, lambda html: (version_of(html) or 0) > version, limit=5)
    assert version_of(newer) == (await reload(table)).version
    await first.disconnect()
    await second.disconnect()


async def test_paced_replies_made_together_come_right_after_the_answer_each_marked_with_its_time(
    settings, fixed_deal
):
    """Paced, the bots' replies to a move are made in its transaction; at a table where the
    player may show them at once, they reach the socket right after the move's answer, drawn
    ahead in one message, each after a mark saying when it shows (a pause apart), ending at
    the player's turn with the table as it is."""
    settings.GAME_PACING = True
    fixed_deal(11)  # a deal where the player's moves draw replies early on
    user = await make_user("paced")
    table = await make_table(user, level="normal")
    comm = await connect(user, table)
    html = await until(comm, my_turn)  # the bots before the player move at their times
    for _ in range(12):  # until a move of the player's is answered by at least two replies
        version, legal, _obs = await legal_for_human(table)
        if version != version_of(html):
            html = await until(comm, my_turn)
            continue
        await comm.send_json_to(frame_for(legal[0], version))
        if legal[0]["type"] == "expose":  # everyone at once: no replies to a move of one's own
            html = await until(comm, lambda h, v=version: my_turn(h) and version_of(h) > v)
            continue
        answer = await comm.receive_from(timeout=10)
        assert version_of(answer) == version + 1
        if my_turn(answer) or "summary__panel" in answer:
            html = answer
            continue  # no reply on its way
        first, *marked = frames.AFTER_MARK.split(await comm.receive_from(timeout=10))
        assert first == ""
        steps = [
            (int(ms), version_of(step)) for ms, step in zip(marked[::2], marked[1::2], strict=True)
        ]
        html = marked[-1]
        if len(steps) >= 2 and my_turn(html):
            break
        # As the page: the next move once the last reply shows (the table is shown there).
        await asyncio.sleep(steps[-1][0] / 1000)
        if not my_turn(html):  # the hand's last move, shown at its time: not sent ahead
            html = await until(comm, lambda h: my_turn(h) or "summary__panel" in h)
            if not my_turn(html):
                break
    else:
        raise AssertionError("no move was answered by two replies")
    assert [v for _ms, v in steps] == list(range(version + 2, version + 2 + len(steps)))
    times = [0] + [ms for ms, _v in steps]
    assert min(b - a for a, b in zip(times[:-1], times[1:], strict=True)) >= 500  # a pause apart
    assert (await reload(table)).version == steps[-1][1]
    await comm.disconnect()


@sync_to_async
def _shown_and_raw(table):
    return services.get_table(table.code), Table.objects.get(pk=table.pk)


async def test_where_another_person_waits_the_replies_reach_the_movers_socket_each_at_its_time(
    settings,
):
    """At a table of two people the bots' replies to mia's move are not sent to her ahead
    (ren waits for them: nobody may show them at once, ``services.may_hurry``, tested with
    ``views_live`` in test_ahead.py): each reaches her socket as a frame of its own, a pause
    apart, with no mark of a time."""
    settings.GAME_PACING = True
    table, ren, mia = await sync_to_async(two_people)()
    comm = await connect(mia, table)
    html = await comm.receive_from(timeout=10)
    rng = random.Random(4)
    seen = []
    for _ in range(60):
        shown, raw = await _shown_and_raw(table)
        state = GAME.from_json(shown.state)
        assert not GAME.hand_over(state)
        seat = GAME.to_move(state)[0]
        if version_of(html) != raw.version or seat not in (0, 1):
            message = await comm.receive_from(timeout=10)  # bots' moves shown at their times
            html = message if version_of(message) is not None else html
            continue
        action = rng.choice(GAME.legal_actions(state, seat))
        if seat == 0:
            await sync_to_async(services.submit_action)(table.code, ren, action, shown.version)
            continue
        await comm.send_json_to(frame_for(action, shown.version))
        seen = []
        while version_of(html) != (await reload(table)).version:
            message = await comm.receive_from(timeout=10)
            assert "data-after" not in message
            if version_of(message) is not None:  # a board (not the people's row alone)
                html = message
                # Her move's answer and what follows it; not a board of before drawn again
                # (presence, or a notice of ren's move that reached her after she sent hers).
                new = version_of(html) > shown.version
                if new and (not seen or seen[-1][1] != version_of(html)):
                    seen.append((time.monotonic(), version_of(html)))
        if len(seen) >= 3:
            break
    else:
        raise AssertionError("no move of mia's was answered by two replies")
    assert [v for _t, v in seen] == list(range(seen[0][1], seen[0][1] + len(seen)))
    gaps = [b - a for (a, _v), (b, _w) in zip(seen[:-1], seen[1:], strict=True)]
    assert len(seen) >= 3 and min(gaps) >= 0.5  # a pause apart
    await comm.disconnect()


def test_a_move_on_its_way_is_drawn_from_the_copy_without_the_database(
    settings, clock, django_assert_num_queries
):
    """The socket draws each move on its way in its own thread, from this process's copy of
    the commit that made it: no query (and so no hop to the database's thread)."""
    settings.GAME_PACING = True
    user = get_user_model().objects.create_user("drawn")
    table = services.create_table(user, "gongzhu", "normal")

    def nothing_on_its_way(_shown):
        assert views_live.drawn(table.code, user, "en", -1) is None

    until_moves_on_their_way(table, user, random.Random(8), clock, check=nothing_on_its_way)
    shown = services.get_table(table.code)
    clock.to(shown.next_shown_at)
    with django_assert_num_queries(0):
        html, version = views_live.drawn(table.code, user, "en", shown.version)
    assert version == shown.version + 1 and f'data-version="{version}"' in html
    assert (html, version) == tuple(views_live.snapshot(table.code, user, "en"))


async def test_a_hint_is_sent_as_a_whole_board():
    """A hint selects its cards and nothing else: the page may have selected others (its own
    taps, which no patch knows of), so the hint's board comes whole, never as a patch."""
    user = await make_user("hinted")
    table = await make_table(user)
    await sync_to_async(services.run_bots)(table.code)
    comm = await connect(user, table)
    first = await comm.receive_from(timeout=10)
    assert first.startswith('<div id="board"')
    for n in (0, 1, 0):
        await comm.send_json_to({"action": "hint", "n": n})
        html = await until(comm, lambda html: 'id="board"' in html)
        assert html.startswith('<div id="board"'), html[:80]
    await comm.disconnect()


async def test_a_flood_of_refused_moves_is_refused_without_the_database_or_a_board(monkeypatch):
    """Each stale or out-of-turn move drew a whole board on the process's one database
    thread, at a person's priority (findings 3.3). Now a refused move comes without a board
    when the page has the table's board already; after a few refusals in a row the socket's
    moves lose their priority; beyond a person's pace they are refused by the socket itself,
    without the database. Another table plays on meanwhile."""
    from games import live
    from games.sockets import MOVES_BURST, REFUSED_BEFORE_DEMOTED

    calls = []
    real = views_live.handle

    def counted(code, *args, **kwargs):
        calls.append((str(code), live._priority.get()))
        return real(code, *args, **kwargs)

    monkeypatch.setattr(views_live, "handle", counted)
    flooder, other = await make_user("flood"), await make_user("calm")
    flooded, calm = await make_table(flooder), await make_table(other)
    await sync_to_async(services.run_bots)(flooded.code)  # no bot's move to come meanwhile
    comm = await connect(flooder, flooded, lang="de")
    await comm.receive_from(timeout=10)
    calm_comm = await connect(other, calm)
    await until(calm_comm, my_turn)
    sent = MOVES_BURST * 3
    for _ in range(sent):
        await comm.send_json_to({"action": "play", "card": "2C", "version": "1"})  # stale
    stale = refused = 0
    for _ in range(sent):
        answer = await comm.receive_from(timeout=10)
        assert 'id="board"' not in answer  # the page has the table's board: none is drawn
        if "Der Tisch ist inzwischen weiter." in answer:
            stale += 1
        else:
            assert "Nicht so schnell: Warte einen Moment bis zum nächsten Zug." in answer
            refused += 1
    flood = [priority for code, priority in calls if code == str(flooded.code)]
    assert len(flood) == stale  # the handler's answers, each without a board
    assert stale + refused == sent  # each frame answered once, by the one or the other
    assert stale >= MOVES_BURST and refused >= MOVES_BURST  # a person's pace passes
    # A person's first moves go first; a run of refusals waits its turn behind the boards.
    assert flood[:REFUSED_BEFORE_DEMOTED] == [live.URGENT] * REFUSED_BEFORE_DEMOTED
    assert set(flood[REFUSED_BEFORE_DEMOTED:]) == {live.NORMAL}
    # The other table's move is served as ever.
    version, legal, _obs = await legal_for_human(calm)
    await calm_comm.send_json_to(frame_for(legal[0], version))
    moved = await until(calm_comm, lambda h: (version_of(h) or 0) > version)
    assert 'class="toast__msg"' not in moved
    await comm.disconnect()
    await calm_comm.disconnect()


async def test_a_stale_move_on_an_older_board_brings_the_newer_board():
    """The page that has not yet been sent the table's newest board gets it with the
    refusal, so it catches up at once."""
    user = await make_user("behind")
    table = await make_table(user)
    await sync_to_async(services.run_bots)(table.code)
    version, legal, _obs = await legal_for_human(table)
    reply = await sync_to_async(views_live.handle)(
        str(table.code), user, "en", frame_for(legal[0], version - 1), shown=version - 1
    )
    assert reply.refused and reply.version == version and 'id="board"' in reply.html

    def handle_counting_reads():
        # The table is read once, locked, by the refused move; the answer reads it no more.
        with CaptureQueriesContext(connection) as done:
            frame = views_live.handle(
                str(table.code),
                user,
                "en",
                frame_for(legal[0], version - 1),
                table.game,  # as the socket knows it
                shown=version,
            )
        return frame, [q["sql"] for q in done.captured_queries if "games_table" in q["sql"]]

    same, reads = await sync_to_async(handle_counting_reads)()
    assert same.refused and same.version == -1 and 'id="board"' not in same.html
    assert "The table has moved on since you looked." in same.html
    assert len(reads) == 1, reads


async def test_a_flood_of_hints_is_refused_beyond_a_persons_pace_and_moves_nothing():
    """Each hint costs a bot's choice and a whole board: a dozen in a row are answered, a
    flood beyond that is refused with a sentence in the page's language, nothing moves, and
    every frame gets its one answer."""
    from games.sockets import HINTS_BURST

    user = await make_user("hasty")
    table = await make_table(user)
    await sync_to_async(services.run_bots)(table.code)
    before = (await sync_to_async(Table.objects.get)(pk=table.pk)).version
    comm = await connect(user, table, lang="de")
    await comm.receive_from(timeout=10)
    sent = HINTS_BURST * 3
    for n in range(sent):
        await comm.send_json_to({"action": "hint", "n": n})
    boards = refused = 0
    for _ in range(sent):
        answer = await comm.receive_from(timeout=10)
        if answer.startswith('<div id="board"'):
            boards += 1
        else:
            assert "Nicht so schnell: Warte einen Moment bis zum nächsten Tipp." in answer
            refused += 1
    assert boards >= HINTS_BURST and refused >= HINTS_BURST
    assert await comm.receive_nothing(timeout=0.2)
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).version == before
    await comm.disconnect()


async def test_a_board_sent_after_the_page_closed_is_dropped_without_an_error():
    """Between the page closing its socket and daphne marking it gone, autobahn refuses a
    send with Disconnected; the board is dropped instead of ending the handler with
    "Exception inside application" (and its traceback in the log)."""
    from autobahn.exception import Disconnected

    from games.live import _sent_while_open

    sent = []

    async def closed(message):
        if message["type"] == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")
        sent.append(message)

    send = _sent_while_open(closed)
    await send({"type": "websocket.send", "text": "<div id=board>"})
    await send({"type": "websocket.close", "code": 1000})
    assert sent == [{"type": "websocket.close", "code": 1000}]

    async def broken(message):
        raise ValueError("not a closed socket")

    with pytest.raises(ValueError):
        await _sent_while_open(broken)({"type": "websocket.send", "text": ""})
