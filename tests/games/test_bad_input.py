"""Bad input is refused, never crashes a handler: malformed table codes over HTTP and the
socket, and frames whose version or shape the server must not trust.

Every refusal is the normal translated one, the socket stays open (a malformed table code
at connect closes with 4404, like an unknown table) and nothing changes.
"""

import html as htmllib
import json
import logging
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client
from django.utils import translation

from cardsite.asgi import application
from games import messages, services, views_live
from games.engine import get_game
from games.models import ActionLog, Table
from games.services import seating
from games.services.unit import Unit
from tests.games.test_consumers import ORIGIN, _cookie, make_user

GAME = get_game("gongzhu")
ERROR_LOGGERS = ("django", "daphne", "games")

# Table codes that are no UUID at all, or look like one but are not.
MALFORMED_CODES = [
    "x",
    "not-a-uuid",
    "-" * 36,  # fits the old route's [0-9a-f-]{36} but is no UUID
    "00000000-0000-0000-0000-00000000000g",
    "0" * 37,
    "é" * 36,
    "z" * 500,
]


# ---------------------------------------------------------------- helpers (shared with test_fuzz)


def server_errors(caplog) -> list[str]:
    """Records at ERROR or above from the server's loggers: each is a crash or a lost frame."""
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR and r.name.split(".")[0] in ERROR_LOGGERS
    ]


@sync_to_async
def table_at_my_turn(user) -> Table:
    """A Gong Zhu table where seat 0 (``user``) must act: nothing moves until it does."""
    table = services.create_table(user, "gongzhu", "easy")
    services.run_bots(table.code)
    return Table.objects.get(pk=table.pk)


@sync_to_async
def fingerprint(table) -> tuple:
    """What a refused frame must leave untouched."""
    t = Table.objects.get(pk=table.pk)
    return t.version, t.state, t.status, t.level, ActionLog.objects.filter(table=t).count()


@sync_to_async
def seat0_legal(table) -> list[dict]:
    state = GAME.from_json(Table.objects.get(pk=table.pk).state)
    return GAME.legal_actions(state, 0)


async def open_socket(user, code, lang="en") -> WebsocketCommunicator:
    cookie = await sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application, f"/ws/{lang}/tables/{code}/", headers=[ORIGIN, cookie]
    )
    connected, _ = await comm.connect()
    assert connected
    return comm


def toast_of(html: str) -> str | None:
    m = re.search(r'<p class="toast__msg"[^>]*>(.*?)</p>', html, re.S)
    return htmllib.unescape(m.group(1)) if m else None


def refusal_text(code: str, lang: str) -> str:
    with translation.override(lang):
        return str(messages.refusal(code))


def board_version(html: str) -> int | None:
    m = re.search(r'id="board"[^>]*data-version="(\d+)"', html)
    return int(m.group(1)) if m else None


def move_frame(action: dict) -> dict:
    """The frame the browser sends for an engine action, without its version."""
    if action["type"] == "expose":
        return {"action": "expose", "cards": action["cards"]}
    return {"action": "play", "card": action["card"]}


def with_raw_version(frame: dict, token: str) -> str:
    """``frame`` as JSON text with ``"version": <token>`` spliced in verbatim (1e400, Infinity…)."""
    return json.dumps(frame)[:-1] + f', "version": {token}}}'


# ---------------------------------------------------------------- the lookup helper


@pytest.mark.django_db
@pytest.mark.parametrize("code", [*MALFORMED_CODES, "", None, 17, 3.5, ["x"], {"a": 1}])
def test_every_lookup_by_code_treats_a_malformed_code_as_no_such_table(owner, code):
    services.create_table(owner, "gongzhu", "easy")
    for lookup in (
        services.get_table,
        services.game_of,
        lambda c: services.submit_action(c, owner, {"type": "play", "card": "AS"}, 1),
        lambda c: services.start_next_hand(c, owner, 1),
        lambda c: services.set_level(c, owner, "hard"),
        lambda c: services.fast_forward(c, owner),
        lambda c: services.resign(c, owner),
    ):
        with pytest.raises(services.Refused) as exc:
            lookup(code)
        assert exc.value.code == "no_such_table"
    with transaction.atomic():
        seating._end_session(Unit(), code, owner)  # a malformed session to end is no session
    assert services.play_due_bot_move(code) is None


@pytest.mark.django_db
def test_a_table_is_found_by_its_code_in_any_spelling_of_the_uuid(owner):
    table = services.create_table(owner, "gongzhu", "easy")
    for code in (table.code, str(table.code), str(table.code).upper(), table.code.hex):
        assert services.get_table(code).pk == table.pk
        assert services.game_of(code) == "gongzhu"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"version": 7}, 7),
        ({"version": "7"}, 7),  # the browser's forms send it as text (htmx ws-send)
        ({"version": 0}, 0),
        ({"version": True}, None),
        ({"version": False}, None),
        ({"version": 7.0}, None),
        ({"version": 7.5}, None),
        ({"version": float("inf")}, None),
        ({"version": float("nan")}, None),
        ({"version": "7.0"}, None),
        ({"version": " 7"}, None),
        ({"version": "1e3"}, None),
        ({"version": "٧"}, None),  # an Arabic-Indic digit: int() would take it
        ({"version": -1}, None),
        ({"version": "-1"}, None),
        ({"version": 10**40}, None),
        ({"version": "9" * 4000}, None),
        ({"version": None}, None),
        ({"version": [7]}, None),
        ({}, None),
    ],
)
def test_a_frame_version_is_a_plain_integer(data, expected):
    assert views_live._version(data) == expected


# ---------------------------------------------------------------- HTTP


@pytest.fixture
def player_client(owner):
    client = Client()
    client.force_login(owner)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("code", MALFORMED_CODES)
def test_the_setup_page_ignores_a_malformed_session_to_replace(player_client, owner, caplog, code):
    services.create_table(owner, "gandengyan", "easy", seats=3)
    response = player_client.get("/en/play/gandengyan/", {"replaces": code})
    assert response.status_code == 200
    assert b'name="replaces"' not in response.content  # nothing is replaced
    assert not server_errors(caplog)


@pytest.mark.django_db
@pytest.mark.parametrize("code", MALFORMED_CODES)
def test_starting_a_match_with_a_malformed_session_to_replace_ends_nothing(
    player_client, owner, caplog, code
):
    old = services.create_table(owner, "gandengyan", "easy", seats=3)
    before = (old.version, old.status)
    response = player_client.post(
        "/en/play/gandengyan/", {"seats": "3", "draw": "all", "level": "easy", "replaces": code}
    )
    assert response.status_code == 302
    new = Table.objects.exclude(pk=old.pk).get(owner=owner)
    assert response.url == f"/en/tables/{new.code}/"
    old.refresh_from_db()
    assert (old.version, old.status) == before
    assert not server_errors(caplog)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/en/tables/not-a-uuid/"),
        ("get", "/en/tables/------------------------------------/"),
        ("post", "/en/tables/not-a-uuid/resign/"),
        ("get", "/en/matches/not-a-uuid/"),
        ("get", "/en/matches/not-a-uuid/hands/1/"),
        ("get", "/de/tables/00000000-0000-0000-0000-000000000000/"),
    ],
)
def test_a_malformed_or_unknown_code_in_a_page_url_is_404(player_client, caplog, method, path):
    response = getattr(player_client, method)(path)
    assert response.status_code == 404
    assert not server_errors(caplog)


# ---------------------------------------------------------------- the socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("code", MALFORMED_CODES)
async def test_a_malformed_table_code_closes_the_socket_with_4404(caplog, code):
    user = await make_user("ren")
    comm = await open_socket(user, code)
    assert toast_of(await comm.receive_from(timeout=10)) == "There is no such table."
    assert await comm.receive_output(timeout=10) == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()
    assert not server_errors(caplog)


@pytest.mark.django_db(transaction=True)
async def test_the_4404_refusal_speaks_german_on_a_german_page():
    user = await make_user("ren")
    comm = await open_socket(user, "-" * 36, lang="de")
    assert toast_of(await comm.receive_from(timeout=10)) == "Diesen Tisch gibt es nicht."
    assert await comm.receive_output(timeout=10) == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_table_code_in_capitals_reaches_the_table_and_its_notices():
    """Any spelling of the UUID finds the table; the socket joins the table's one group."""
    user = await make_user("ren")
    table = await table_at_my_turn(user)
    shouting = await open_socket(user, str(table.code).upper())
    plain = await open_socket(user, table.code)
    version = board_version(await shouting.receive_from(timeout=10))
    assert version == table.version == board_version(await plain.receive_from(timeout=10))
    legal = await seat0_legal(table)
    await plain.send_json_to({**move_frame(legal[0]), "version": version})
    assert board_version(await plain.receive_from(timeout=10)) > version
    # The other socket hears of the move through the table's group.
    notice = await shouting.receive_from(timeout=10)
    assert board_version(notice) > version and toast_of(notice) is None
    await shouting.disconnect()
    await plain.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_version_that_is_no_plain_integer_is_stale_and_moves_nothing(caplog, lang):
    user = await make_user("ren")
    table = await table_at_my_turn(user)
    comm = await open_socket(user, table.code, lang)
    v = board_version(await comm.receive_from(timeout=10))
    assert v == table.version
    legal = await seat0_legal(table)
    before = await fingerprint(table)
    tokens = [
        "Infinity",
        "-Infinity",
        "NaN",
        "1e400",
        "-1e400",
        f"{v}.0",  # the current version, as a float
        f"{v}.5",
        f"{v}e0",
        f"{v * 10}e-1",
        "true",
        "false",
        "null",
        f'"{v}.0"',
        f'" {v}"',
        f"[{v}]",
        f'{{"version": {v}}}',
        "-" + str(v),
        "9" * 4000,
    ]
    for token in tokens:
        await comm.send_to(text_data=with_raw_version(move_frame(legal[0]), token))
        reply = await comm.receive_from(timeout=10)
        assert toast_of(reply) == refusal_text("stale", lang), token
        assert board_version(reply) is None, token  # the page has board v: no board
        assert await fingerprint(table) == before, token
    assert await comm.receive_nothing()
    await comm.disconnect()
    assert not server_errors(caplog)


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.django_db(transaction=True)
async def test_deep_and_huge_frames_are_bad_frames_and_leave_the_socket_open(caplog):
    user = await make_user("ren")
    table = await table_at_my_turn(user)
    comm = await open_socket(user, table.code)
    v = board_version(await comm.receive_from(timeout=10))
    before = await fingerprint(table)
    frames = [
        _deep(100_000),
        _deep(5_000),  # small enough to be parsed, too deep to be parsed recursively
        '{"action": "play", "card": ' + _deep(5_000) + f', "version": {v}}}',
        '{"a": ' * 2_000 + "1" + "}" * 2_000,
        "x" * 1_000_000,
        json.dumps({"action": "play", "card": "ZZ", "version": v, "pad": "x" * 1_000_000}),
        " ",
        "not json",
        "[]",
        '"play"',
        "17",
        "null",
    ]
    for text in frames:
        await comm.send_to(text_data=text)
        reply = await comm.receive_from(timeout=10)
        assert toast_of(reply) == "That message was not understood.", text[:60]
        assert await fingerprint(table) == before
    await comm.send_to(bytes_data=json.dumps({"action": "play", "card": "ZZ"}).encode())
    assert toast_of(await comm.receive_from(timeout=10)) == "That message was not understood."
    # Still open and still answering: a stale move gets the board back.
    legal = await seat0_legal(table)
    await comm.send_json_to({**move_frame(legal[0]), "version": v - 1})
    reply = await comm.receive_from(timeout=10)
    assert toast_of(reply) == refusal_text("stale", "en") and board_version(reply) is None
    assert await fingerprint(table) == before
    await comm.disconnect()
    assert not server_errors(caplog)


@sync_to_async
def gandengyan_at_my_turn(user) -> tuple[Table, list[str]]:
    table = services.create_table(user, "gandengyan", "easy", seats=3)
    services.run_bots(table.code)
    table = Table.objects.get(pk=table.pk)
    engine = get_game("gandengyan")
    state = engine.from_json(table.state)
    assert 0 in engine.to_move(state)
    return table, list(engine.observation(state, 0)["hand"])


@pytest.mark.django_db(transaction=True)
async def test_a_gan_deng_yan_reading_nested_too_deep_is_refused(caplog):
    """Gan Deng Yan's chips send the chosen reading as JSON text inside the frame: the frame
    is small, the reading inside it nested deeper than the parser goes."""
    user = await make_user("ren")
    table, hand = await gandengyan_at_my_turn(user)
    comm = await open_socket(user, table.code)
    v = board_version(await comm.receive_from(timeout=10))
    assert v == table.version
    before = await fingerprint(table)
    for combo in ("[" * 5_000 + "]" * 5_000, '{"kind": ' * 3_000 + '"single"' + "}" * 3_000):
        await comm.send_json_to(
            {"action": "play", "cards": [hand[0]], "combo": combo, "version": v}
        )
        assert toast_of(await comm.receive_from(timeout=10)) == "That message was not understood."
        assert await fingerprint(table) == before
    # A reading that parses but means nothing is the engine's to refuse, with the board.
    for combo in (
        "[" * 500 + "]" * 500,
        '{"kind": "single", "low": Infinity, "high": 1e400, "count": NaN}',
        '{"kind": ' * 400 + '"single"' + "}" * 400,
    ):
        await comm.send_json_to(
            {"action": "play", "cards": [hand[0]], "combo": combo, "version": v}
        )
        reply = await comm.receive_from(timeout=10)
        assert toast_of(reply) and board_version(reply) is None, combo[:40]
        assert await fingerprint(table) == before
    await comm.disconnect()
    assert not server_errors(caplog)
