"""A bounded fuzz of the table's live channel over real WebSockets.

Random and malformed frames, huge and deeply nested frames, unknown actions, foreign and
malformed table codes, stale and replayed versions and out-of-turn moves go through the real
ASGI application (``cardsite.asgi.application``), and the nastiest of them through a real
daphne process. Each one must be answered with the normal translated refusal, change
nothing, log no error and leave the socket open (a malformed table code at connect closes
with 4404, like an unknown table).

The fuzzed tables are built so that no frame can be a legal move: at our own table a second
human sits in seat 1 and it is that seat's turn, so nothing moves (no bot is due) and every
move of seat 0 is out of turn; at the foreign table we are not seated at all; at the table
where it is our turn, the fuzzer sends legal moves only with a version that is not the
table's.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from asgiref.sync import sync_to_async
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games import services
from games.engine import get_game
from games.models import Seat, Table
from tests.games.test_bad_input import (
    board_version,
    fingerprint,
    make_user,
    move_frame,
    open_socket,
    refusal_text,
    seat0_legal,
    server_errors,
    table_at_my_turn,
    toast_of,
    with_raw_version,
)
from tests.servers import daphne, free_port, fresh_database

pytestmark = pytest.mark.django_db(transaction=True)

# Bounded so the whole file runs in well under a minute; no example database is written
# into the working tree, and one table and one socket serve all examples of a test.
FUZZ = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
        HealthCheck.filter_too_much,
    ],
)

# ---------------------------------------------------------------- what the fuzzer sends

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=10,
)

# How a frame names its version, resolved against the table when the frame is sent:
# ("current",) the table's version as a JSON integer, ("text",) as the decimal string the
# page's forms send, ("offset", k) a stale or future one, ("replay", i) one seat 0 really
# played at, ("as", fmt) the current version dressed up as no integer, ("raw", token) a
# JSON token verbatim, ("json", value) a JSON value that is no integer or string,
# ("anything", value) any JSON value (it may be the current version), ("missing",) none.
NASTY_TOKENS = [
    "Infinity",
    "-Infinity",
    "NaN",
    "1e400",
    "-1e400",
    "1e-400",
    "-0.0",
    "0.0",
    "9" * 4000,
    '"' + "9" * 30 + '"',
    '""',
    "true",
    "false",
    "null",
]
wrong_versions = st.one_of(
    st.tuples(st.just("offset"), st.sampled_from([-5, -3, -2, -1, 1, 2, 7])),
    st.tuples(st.just("replay"), st.integers(0, 100)),
    st.tuples(st.just("as"), st.sampled_from(["{v}.0", "{v}.5", "{v}e0", '"{v}.0"', '" {v}"'])),
    st.tuples(st.just("raw"), st.sampled_from(NASTY_TOKENS)),
    st.tuples(
        st.just("json"),
        json_values.filter(lambda x: isinstance(x, bool) or not isinstance(x, int | str)),
    ),
    st.just(("missing",)),
)
versions = st.one_of(
    st.just(("current",)),
    st.just(("text",)),
    st.tuples(st.just("anything"), json_values),
    wrong_versions,
)

# Card values: ("hand", i) one of seat 0's real cards, ("other", i) another seat's card.
cards = st.one_of(
    st.tuples(st.just("hand"), st.integers(0, 20)),
    st.tuples(st.just("other"), st.integers(0, 60)),
    st.tuples(st.just("value"), st.sampled_from(["ZZ", "", "AS ", "as", "10H", "BJ", "RJ"])),
    st.tuples(st.just("value"), json_values),
)
# Gan Deng Yan's chips send the chosen reading as JSON text inside the frame.
combos = st.one_of(
    json_values,
    json_values.map(json.dumps),
    st.text(max_size=30),
    st.integers(1, 5_000).map(lambda n: "[" * n + "]" * n),
)
KNOWN_ACTIONS = ["play", "expose", "pass", "next", "level", "hint"]
# Mostly the actions the site knows (so the fuzzer gets past the first check), else anything.
# "fast" is a legal command for a seated player (it hurries due bots, here there are none,
# and answers with the board, no refusal); a real level changes the table.
actions = st.one_of(
    *[st.sampled_from(KNOWN_ACTIONS)] * 3, st.text(max_size=12), json_values, st.just(None)
).filter(lambda a: a != "fast")
levels = json_values.filter(lambda x: not (isinstance(x, str) and x in services.LEVELS))


def _no_command(value) -> bool:
    """False for a (random) JSON object that happens to be a legal command."""
    if not isinstance(value, dict):
        return True
    level = value.get("level")
    return value.get("action") != "fast" and not (
        value.get("action") == "level" and isinstance(level, str) and level in services.LEVELS
    )


move_frames = st.fixed_dictionaries(
    {"action": actions},
    optional={
        "card": cards,
        "cards": st.lists(cards, max_size=4) | cards,
        "combo": combos,
        "level": levels,
        "HEADERS": st.dictionaries(st.text(max_size=10), st.text(max_size=20), max_size=3),
    },
)
NO_VERSION = st.just(("missing",))
junk = st.one_of(
    st.tuples(st.tuples(st.just("text"), st.text(min_size=1, max_size=200)), NO_VERSION),
    st.tuples(st.tuples(st.just("bytes"), st.binary(min_size=1, max_size=200)), NO_VERSION),
    st.tuples(st.tuples(st.just("value"), json_values.filter(_no_command)), NO_VERSION),
    st.tuples(
        st.tuples(st.just("deep"), st.integers(2, 100_000), st.sampled_from(["[", '{"a": '])),
        NO_VERSION,
    ),
    st.tuples(st.tuples(st.just("deep card"), st.integers(2, 10_000)), st.just(("current",))),
    st.tuples(st.tuples(st.just("huge"), st.sampled_from([16_385, 65_537, 1_000_000])), versions),
)
# Half are move-like frames (they get furthest into the handlers), half are junk.
frames = st.booleans().flatmap(
    lambda movelike: (
        st.tuples(st.tuples(st.just("move"), move_frames), versions) if movelike else junk
    )
)

# The moves of each game: anything else is a frame the game cannot read.
MOVES = {"gongzhu": ("play", "expose"), "gandengyan": ("play", "pass")}


class Scene:
    """The table a fuzzed socket talks to, and what the fuzzer may name there."""

    def __init__(self, table, hand, others, replays, lang, seated):
        self.table, self.game, self.version = table, table.game, table.version
        self.hand, self.others, self.replays = hand, others, replays
        self.lang, self.seated = lang, seated


def _card(spec, scene: Scene):
    kind, value = spec
    if kind == "hand":
        return scene.hand[value % len(scene.hand)]
    if kind == "other":
        return scene.others[value % len(scene.others)]
    return value


def _version_token(spec, scene: Scene) -> tuple[str | None, bool | None]:
    """The raw JSON text of the version, and whether it is the table's current version:
    yes (True), no (False) or perhaps (None: an arbitrary integer or string)."""
    v, kind = scene.version, spec[0]
    if kind == "current":
        return str(v), True
    if kind == "text":
        return f'"{v}"', True
    if kind == "offset":
        return str(v + spec[1]), False
    if kind == "replay":
        return str(scene.replays[spec[1] % len(scene.replays)]), False
    if kind == "as":
        return spec[1].format(v=v), False
    if kind == "raw":
        return spec[1], False
    if kind in ("json", "anything"):
        value = spec[1]
        if isinstance(value, bool) or not isinstance(value, int | str):
            return json.dumps(value), False
        return json.dumps(value), (value == v) if isinstance(value, int) else None
    return None, False


def render(frame, scene: Scene) -> tuple[str | bytes, set[str]]:
    """The frame to send, and the refusals it may get."""
    (kind, *body), version = frame
    event(kind)
    token, current = _version_token(version, scene)
    if kind in ("text", "bytes"):
        # Random text is no frame: the rare parseable one is a scalar, a list or an object
        # without a known action. A binary frame never is one.
        return body[0], {"bad_frame"}
    if kind == "value":
        value = body[0]
        if not isinstance(value, dict):
            return json.dumps(value), {"bad_frame"}
        return json.dumps(value), _expect(value, None, scene)
    if kind == "deep":
        depth, opener = body
        inner, closer = ("", "]") if opener == "[" else ("1", "}")
        return opener * depth + inner + closer * depth, {"bad_frame"}
    if kind == "deep card":
        depth = body[0]
        text = f'{{"action": "play", "card": {"[" * depth}{"]" * depth}, "version": {token}}}'
        # Too deep or too big to parse is a bad frame; parsed, it is a move with no card.
        return text, {"bad_frame", *_expect({"action": "play"}, True, scene)}
    if kind == "huge":
        text = json.dumps({"action": "play", "card": scene.hand[0], "pad": ""})
        if token is not None:
            text = text[:-1] + f', "version": {token}}}'
        text = text.replace('"pad": ""', '"pad": "' + "x" * (body[0] - len(text)) + '"')
        return text, {"bad_frame"}  # refused by its size alone, whatever it says
    data = dict(body[0])
    if "card" in data:
        data["card"] = _card(data["card"], scene)
    if isinstance(data.get("cards"), list):
        data["cards"] = [_card(c, scene) for c in data["cards"]]
    elif "cards" in data:
        data["cards"] = _card(data["cards"], scene)
    text = json.dumps(data) if token is None else with_raw_version(data, token)
    expected = _expect(data, current, scene)
    combo = data.get("combo")
    if scene.game == "gandengyan" and data["action"] == "play" and isinstance(combo, str):
        event("gandengyan reading as text")
        if combo.startswith("[" * 500):
            expected.add("bad_frame")  # perhaps nested deeper than the parser goes
    return text, expected


@pytest.fixture(autouse=True, scope="module")
def _any_pace():
    """One socket carries all of a test's examples, faster than any person: the socket's
    limit on moves (tested in test_consumers) would answer them before the handler does."""
    from games import sockets

    kept, sockets.MOVES_BURST = sockets.MOVES_BURST, 10**6
    yield
    sockets.MOVES_BURST = kept


def _expect(data: dict, current: bool | None, scene: Scene) -> set[str]:
    """The refusals a parsed frame may get (``current``: is its version the table's)."""
    kind = data.get("action")
    is_move = kind in MOVES[scene.game]
    if kind == "level":
        return {"bad_level"}  # the fuzzer never names a real level
    if kind == "hint":
        # Beyond a person's pace (sockets.HINTS_BURST in a row), refused as too fast.
        return {"not_your_turn" if scene.seated else "not_seated", "slow_hints"}
    if not scene.seated and (is_move or kind == "next"):
        return {"not_seated"}
    if kind == "next":
        return {True: {"hand_not_over"}, False: {"stale"}}.get(current, {"stale", "hand_not_over"})
    if is_move:
        # With the current version a move is out of turn (seat 1 is to move), else stale.
        return {True: {"not_your_turn"}, False: {"stale"}}.get(current, {"stale", "not_your_turn"})
    return {"bad_frame"}  # no action, an unknown one, or another game's move


# ---------------------------------------------------------------- the scenes


def _scene(table, replays, lang, seated) -> Scene:
    engine = get_game(table.game)
    state = engine.from_json(table.state)
    others = [c for seat, hand in enumerate(state.hands) if seat != 0 for c in hand]
    hand = list(engine.observation(state, 0)["hand"])
    return Scene(table, hand, others, replays, lang, seated)


@sync_to_async
def _out_of_turn_scene(owner, other, game, lang) -> Scene:
    """Our own table, with a second human in seat 1 to move: seat 0 can do nothing legal."""
    engine = get_game(game)
    table = services.create_table(owner, game, "easy", seats=3 if game == "gandengyan" else 4)
    Seat.objects.filter(table=table, index=1).update(user=other, kind="person", bot_level="")
    replays = []
    for _ in range(60):
        # The bots play on; a move that came due while seat 1 was a bot is dropped here.
        services.run_bots(table.code)
        t = Table.objects.get(pk=table.pk)
        state = engine.from_json(t.state)
        movers = engine.to_move(state)
        if movers == [1]:
            break
        assert 0 in movers, movers
        replays.append(t.version)
        services.submit_action(t.code, owner, engine.legal_actions(state, 0)[0], t.version)
    else:
        raise AssertionError("seat 1 never came to move")
    table = Table.objects.get(pk=table.pk)
    assert table.bot_due_at is None and not engine.hand_over(engine.from_json(table.state))
    # Seat 1 may lead at once (seat 0 then never moved): replay the deal's versions instead.
    return _scene(table, replays or [table.version - 1, table.version - 2], lang, seated=True)


@sync_to_async
def _foreign_scene(stranger, lang) -> Scene:
    table = services.create_table(stranger, "gongzhu", "easy")
    services.run_bots(table.code)
    Table.objects.filter(pk=table.pk).update(spectators=True)  # so the fuzzer may watch
    table = Table.objects.get(pk=table.pk)
    return _scene(table, [table.version - 1, table.version - 2], lang, seated=False)


class Line:
    """The fuzzed socket: one for all of a test's examples, opened again after an example
    broke it, so that Hypothesis shrinks the frame that broke it rather than the frames
    that merely came after."""

    def __init__(self, user, scene: Scene):
        self.user, self.scene, self.comm = user, scene, None

    async def open(self) -> Line:
        self.comm = await open_socket(self.user, self.scene.table.code, self.scene.lang)
        # The first frame is the board as the scene left it.
        assert board_version(await self.comm.receive_from(timeout=10)) == self.scene.version
        return self

    async def exchange(self, text: str | bytes) -> str:
        """Send a frame, return the answer; a crash in the consumer is re-raised here, and a
        close would be no "websocket.send"."""
        if self.comm is None:
            await self.open()
        try:
            if isinstance(text, bytes):
                await self.comm.send_to(bytes_data=text)
            else:
                await self.comm.send_to(text_data=text)
            return await self._answer()
        except Exception:
            broken, self.comm = self.comm, None
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await broken.disconnect(timeout=0.2)  # it fails again with the same crash
            raise

    async def _answer(self) -> str:
        # The communicator reports a crashed consumer only once its timeout is over: watch
        # the application too, so that a crash fails its example at once.
        answer = asyncio.ensure_future(self.comm.receive_from(timeout=10))
        await asyncio.wait({answer, self.comm.future}, return_when=asyncio.FIRST_COMPLETED)
        if not answer.done():
            answer.cancel()
            self.comm.future.result()  # the consumer's exception
            raise AssertionError("the consumer ended without answering")
        return answer.result()

    async def close(self):
        if self.comm is not None:
            assert await self.comm.receive_nothing()  # nothing more came: no change, no close
            await self.comm.disconnect()


async def _check(line: Line, frame, before, caplog):
    scene = line.scene
    text, expected = render(frame, scene)
    reply = await line.exchange(text)
    event(f"refused: {toast_of(reply)}")
    allowed = {refusal_text(code, scene.lang) for code in expected}
    assert toast_of(reply) in allowed, (str(text)[:300], expected, toast_of(reply))
    assert board_version(reply) in (None, scene.version)
    assert await fingerprint(scene.table) == before
    assert not server_errors(caplog)


@pytest.fixture(params=["gongzhu", "gandengyan"])
async def own_table(request):
    owner, other = await make_user("ren"), await make_user("zoe")
    scene = await _out_of_turn_scene(owner, other, request.param, "en")
    line = await Line(owner, scene).open()
    yield line, await fingerprint(scene.table)
    await line.close()


@pytest.fixture
async def foreign_table():
    me, stranger = await make_user("ren"), await make_user("kai")
    scene = await _foreign_scene(stranger, "de")
    line = await Line(me, scene).open()
    yield line, await fingerprint(scene.table)
    await line.close()


@pytest.fixture
async def my_turn_table():
    owner = await make_user("ren")
    table = await table_at_my_turn(owner)
    scene = _scene(table, [table.version - 1, table.version - 2], "en", seated=True)
    line = await Line(owner, scene).open()
    yield line, await fingerprint(table), await seat0_legal(table)
    await line.close()


@pytest.fixture
async def socket_user():
    return await make_user("ren")


# ---------------------------------------------------------------- the fuzz


@FUZZ
@given(frame=frames)
async def test_fuzzed_frames_at_my_own_table_out_of_turn_are_refused(own_table, caplog, frame):
    line, before = own_table
    await _check(line, frame, before, caplog)


@settings(FUZZ, max_examples=100)
@given(frame=frames)
async def test_fuzzed_frames_at_a_foreign_table_are_refused_in_german(foreign_table, caplog, frame):
    line, before = foreign_table
    await _check(line, frame, before, caplog)


@settings(FUZZ, max_examples=100)
@given(version=wrong_versions, pick=st.integers(0, 50))
async def test_a_legal_move_with_a_stale_replayed_or_malformed_version_is_stale(
    my_turn_table, caplog, version, pick
):
    line, before, legal = my_turn_table
    scene = line.scene
    data = move_frame(legal[pick % len(legal)])
    token, current = _version_token(version, scene)
    event(version[0])
    assert current is False
    text = json.dumps(data) if token is None else with_raw_version(data, token)
    reply = await line.exchange(text)
    assert toast_of(reply) == refusal_text("stale", "en"), text[:200]
    # The socket has sent this page the table's board: the refusal comes alone.
    assert board_version(reply) is None
    assert await fingerprint(scene.table) == before
    assert not server_errors(caplog)


def _no_uuid(code: str) -> bool:
    try:
        uuid.UUID(code)
    except ValueError:
        return True
    return False  # a well-formed UUID of no table: test_consumers covers that 4404


# Codes a socket's path may carry: anything but "/", "?", "#" or "%" (those end the path or
# change it before it reaches the router).
malformed_codes = st.one_of(
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cs", "Cc", "Zs"), blacklist_characters="/?#%\\"
        ),
        min_size=1,
        max_size=80,
    ),
    st.text(alphabet="0123456789abcdef-", min_size=36, max_size=36),
    st.text(alphabet="0123456789abcdefABCDEF-{}:urn", min_size=1, max_size=60),
    st.integers(1, 2000).map(lambda n: "a" * n),
).filter(_no_uuid)


@settings(FUZZ, max_examples=40)
@given(code=malformed_codes, german=st.booleans())
async def test_fuzzed_malformed_table_codes_close_with_4404(socket_user, caplog, code, german):
    lang = "de" if german else "en"
    comm = await open_socket(socket_user, urllib.parse.quote(code, safe=""), lang)
    assert toast_of(await comm.receive_from(timeout=10)) == refusal_text("no_such_table", lang)
    assert await comm.receive_output(timeout=10) == {"type": "websocket.close", "code": 4404}
    # On the Redis layer the closed consumer's pending channel receive ends only when it is
    # cancelled, which disconnect() does after its timeout: a full second per example.
    await comm.disconnect(timeout=0.2)
    assert not server_errors(caplog)


# ---------------------------------------------------------------- a real daphne


def _nasty_frames(card: str, v: int) -> list[tuple[str, str]]:
    """The frames a real server must survive, each with the refusal it answers."""
    pad = 1_000_000 - len(json.dumps({"action": "play", "card": card, "version": v, "pad": ""}))
    return [
        (with_raw_version({"action": "play", "card": card}, "Infinity"), "stale"),
        (with_raw_version({"action": "play", "card": card}, "1e400"), "stale"),
        (with_raw_version({"action": "play", "card": card}, f"{v}.0"), "stale"),
        ("[" * 100_000 + "]" * 100_000, "bad_frame"),
        ("[" * 5_000 + "]" * 5_000, "bad_frame"),
        ("x" * 1_000_000, "bad_frame"),
        (json.dumps({"action": "play", "card": card, "version": v, "pad": "x" * pad}), "bad_frame"),
        (json.dumps({"action": "teleport", "version": v}), "bad_frame"),
    ]


def _my_turn(html: str) -> bool:
    return 'class="gz-board phase-play is-my-turn' in html or (
        "phase-expose" in html and 'id="exposure-form"' in html
    )


def test_the_nastiest_frames_and_codes_against_a_real_daphne(tmp_path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    with fresh_database(tmp_path) as env, daphne(env, tmp_path, port) as url:
        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

        def fetch(path, form=None):
            data = None
            if form is not None:
                token = next(c.value for c in jar if c.name == "csrftoken")
                data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token}).encode()
            try:
                with browser.open(url + path, data=data, timeout=30) as resp:
                    return resp.status, resp.geturl(), resp.read().decode()
            except urllib.error.HTTPError as e:
                return e.code, e.geturl(), e.read().decode()

        # A visitor becomes a guest by starting a match (the setup page sets the CSRF cookie).
        assert fetch("/en/play/gandengyan/")[0] == 200
        status, where, _ = fetch("/en/play/gongzhu/", {"level": "easy"})
        assert status == 200 and re.search(r"/en/tables/[0-9a-f-]{36}/$", where), where
        code = where.rstrip("/").rsplit("/", 1)[1]
        # Malformed session codes and page codes: a normal page or 404, never 500.
        assert fetch("/en/play/gandengyan/?replaces=x")[0] == 200
        status, where, _ = fetch(
            "/en/play/gandengyan/", {"seats": "3", "draw": "all", "level": "easy", "replaces": "x"}
        )
        assert status == 200 and "/en/tables/" in where
        assert fetch("/en/tables/not-a-uuid/")[0] == 404

        session = next(c.value for c in jar if c.name == "sessionid")
        ws_base = url.replace("http://", "ws://")

        def socket(path):
            return connect(
                ws_base + path,
                origin=url,
                additional_headers={"Cookie": f"sessionid={session}"},
                max_size=None,
                open_timeout=10,
            )

        with socket(f"/ws/en/tables/{code}/") as ws:
            # The bots play their opening moves once the socket starts the driver; from the
            # player's turn on nothing moves until the player does.
            for _ in range(100):
                board = ws.recv(timeout=10)
                if _my_turn(board):
                    break
            else:
                raise AssertionError("the player's turn never came")
            v = board_version(board)
            card = re.search(r'data-card="(\w\w)"', board).group(1)
            for text, refusal in _nasty_frames(card, v):
                ws.send(text)
                reply = ws.recv(timeout=20)
                assert toast_of(reply) == refusal_text(refusal, "en"), text[:80]
                assert board_version(reply) in (None, v)
            # Still open, and the table has not moved.
            ws.send(json.dumps({"action": "play", "card": card, "version": v - 1}))
            reply = ws.recv(timeout=10)
            assert toast_of(reply) == refusal_text("stale", "en")
            assert board_version(reply) is None  # the page has board v: the refusal alone
        assert ws.close_code == 1000  # our own goodbye, answered: never a 1011 from the server

        for lang, bad in (("en", "not-a-uuid"), ("de", "-" * 36), ("en", "x" * 300)):
            with socket(f"/ws/{lang}/tables/{bad}/") as ws:
                assert toast_of(ws.recv(timeout=10)) == refusal_text("no_such_table", lang)
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    log = (tmp_path / f"daphne-{port}.log").read_text(errors="replace")
    assert "Traceback" not in log and "Exception inside application" not in log, log[-3000:]
