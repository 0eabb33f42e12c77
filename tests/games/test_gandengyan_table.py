"""The Gan Deng Yan table on the machinery: services, frames, the live channel, history."""

import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services, views_live
from games.engine import get_game
from games.engine.gandengyan.combos import card_order
from games.models import Table
from games.tables.gandengyan import frames
from games.tables.gandengyan import presenter as present
from tests.games.test_consumers import ORIGIN, _cookie, version_of

GAME = get_game("gandengyan")
CARD = re.compile(r'data-card="(\w\w)"')


def state_of(table):
    table.refresh_from_db()
    return GAME.from_json(table.state)


def known_to(state, seat: int) -> set[str]:
    """Every card ``seat`` may see in the round now: its hand, the plays, its own draws."""
    known = set(state.hands[seat])
    for entry in state.log:
        if entry["type"] == "play" or entry["type"] == "draw" and entry["seat"] == seat:
            known |= set(entry["cards"])
    return known


def secret_from(state, seat: int) -> set[str]:
    hidden = set(state.stock)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= set(hand)
    return hidden


def check_frame(html: str, state, seat: int = 0) -> None:
    shown = set(CARD.findall(html))
    assert not shown & secret_from(state, seat), "a frame shows a hidden card"
    assert shown <= known_to(state, seat), "a frame shows a card the seat cannot know"


def play_rounds(user, seats, draw, rounds, rng, check=True):
    table = services.create_table(user, "gandengyan", "easy", {"draw": draw}, seats=seats)
    frames = 0
    while True:
        services.run_bots(table.code)
        state = state_of(table)
        if check:
            html, _ = views_live.snapshot(table.code, user, "en")
            check_frame(html, state)
            frames += 1
        if GAME.hand_over(state):
            if table.hands.count() >= rounds:
                return table, frames
            services.start_next_hand(table.code, user, table.version)
            continue
        services.submit_action(
            table.code, user, rng.choice(GAME.legal_actions(state, 0)), table.version
        )


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("ren", password="Kartenspiel-2026")


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize(("seats", "draw"), [(2, "all"), (3, "winner"), (4, "all")])
def test_it_never_shows_a_seat_another_seats_card_or_the_stock(owner, seats, draw):
    table, frames = play_rounds(owner, seats, draw, 3, random.Random(seats))
    assert frames > 10
    hands = list(table.hands.order_by("number"))
    assert len(hands) == 3 and all(h.ended_at for h in hands)
    assert all(sum(h.scores) == 0 for h in hands)
    assert table.seats.count() == seats
    # The previous winner deals the next round.
    for before, after in zip(hands, hands[1:], strict=False):
        winner = max(range(seats), key=lambda s: before.scores[s])
        dealt = [len(h) for h in after.deal["hands"]]
        assert dealt[winner] == 6


@pytest.mark.django_db
def test_a_two_seat_hand_past_25_cards_wraps(owner):
    """Two seats, everyone draws: the biggest hand of a few rounds still renders, wrapping."""
    table = services.create_table(owner, "gandengyan", "easy", {"draw": "all"}, seats=2)
    state = state_of(table)
    # Give the player a 26-card hand from the stock, as a long round would.
    data = GAME.to_json(state)
    data["hands"][0] = sorted(data["hands"][0] + data["stock"][:21])
    data["stock"] = data["stock"][21:]
    Table.objects.filter(pk=table.pk).update(state=data)
    html, _ = views_live.snapshot(table.code, owner, "en")
    assert html.count('class="hand__card') == 27
    assert "gdy-hand is-large" in html


def _refusal(owner, table, action, version=None):
    before = state_of(table)
    with pytest.raises(services.Refused) as e:
        services.submit_action(
            table.code, owner, action, table.version if version is None else version
        )
    assert GAME.to_json(state_of(table)) == GAME.to_json(before)
    return e.value


def _arrange(table, hands, table_play=None, stock=None, turn=0):
    state = state_of(table)
    data = GAME.to_json(state)
    used = {c for h in hands for c in h}
    # Every card stays in play once: what the scene takes leaves the stock, the rest joins it.
    data["stock"] = (
        stock
        if stock is not None
        else [c for c in data["stock"] + [c for h in data["hands"] for c in h] if c not in used]
    )
    data["hands"] = [sorted(h, key=card_order) for h in hands]
    data["turn"] = turn
    data["table"] = table_play
    data["trick"] = [table_play] if table_play else []
    Table.objects.filter(pk=table.pk).update(state=data, bot_due_at=None)
    table.refresh_from_db()


@pytest.mark.django_db
def test_stale_out_of_turn_ambiguous_and_illegal_plays_are_refused_with_a_reason(owner, settings):
    from django.utils import translation

    settings.GAME_PACING = True  # the bots wait, so the table stays where the test put it

    from games.messages import refusal

    table = services.create_table(owner, "gandengyan", "easy", {"draw": "all"}, seats=3)
    seven = {
        "type": "play",
        "seat": 2,
        "cards": ["7C"],
        "combo": {"kind": "single", "low": "7", "high": "7", "count": 1},
    }
    _arrange(
        table,
        [["7S", "8H", "9D", "BJ", "2C", "KS"], ["3S", "4S", "5S", "6S", "TC"], ["4H"]],
        table_play=None,
    )
    html, _ = views_live.snapshot(table.code, owner, "en")
    chips = json.loads(re.search(r'class="readings-data"[^>]*>(.*?)</script>', html).group(1))
    assert [r["label"] for r in chips["78*"]] == [
        "straight 6–8 (joker as 6)",
        "straight 7–9 (joker as 9)",
    ]
    # Stale.
    e = _refusal(owner, table, {"type": "play", "cards": ["KS"]}, version=table.version - 1)
    assert e.code == "stale"
    # Ambiguous: 7 8 joker reads 6–8 and 7–9.
    e = _refusal(owner, table, {"type": "play", "cards": ["7S", "8H", "BJ"]})
    assert e.code == "ambiguous" and len(e.params["readings"]) == 2
    # A lone joker, a joker as a 2, no play at all, a pass on the lead.
    assert _refusal(owner, table, {"type": "play", "cards": ["BJ"]}).code == "lone_joker"
    assert _refusal(owner, table, {"type": "play", "cards": ["2C", "BJ"]}).code == "joker_as_two"
    assert _refusal(owner, table, {"type": "play", "cards": ["7S", "KS"]}).code == "not_a_play"
    assert _refusal(owner, table, {"type": "pass"}).code == "pass_on_lead"
    # Following a single 7: only an 8 (or a 2, or a bomb).
    _arrange(
        table,
        [["7S", "8H", "9D", "BJ", "2C", "KS"], ["3S", "4S", "5S", "6S", "TC"], ["4H"]],
        table_play=seven,
    )
    e = _refusal(owner, table, {"type": "play", "cards": ["9D"]})
    assert e.code == "not_one_higher"
    with translation.override("de"):
        assert refusal(e.code, e.params, "gandengyan") == (
            "Genau einen Rang höher: Gegen Einzelkarte 7 geht nur Einzelkarte 8."
        )
    assert _refusal(owner, table, {"type": "play", "cards": ["8H", "9D", "BJ"]}).code in (
        "wrong_kind",
        "wrong_length",
    )
    # The chosen reading of an ambiguous selection goes through.
    _arrange(table, [["7S", "8H", "BJ", "KS", "KD"], ["3S", "4S", "5S", "6S", "TC"], ["4H"]])
    reading = {"kind": "straight", "low": "7", "high": "9", "count": 3}
    services.submit_action(
        table.code,
        owner,
        {"type": "play", "cards": ["7S", "8H", "BJ"], "combo": reading},
        table.version,
    )
    shown = services.get_table(table.code)  # the bots' replies are on their way
    assert GAME.from_json(shown.state).table["combo"] == reading
    html, _ = views_live.snapshot(table.code, owner, "en")
    assert "as 9" in html
    # Out of turn.
    e = _refusal(owner, table, {"type": "play", "cards": ["KS"]}, version=shown.version)
    assert e.code == "not_your_turn"


@pytest.mark.django_db
def test_the_last_card_joker_goes_out_on_an_empty_stock(owner):
    table = services.create_table(owner, "gandengyan", "easy", {"draw": "all"}, seats=3)
    _arrange(table, [["RJ"], ["3S", "4S"], ["5H"]], stock=[])
    html, _ = views_live.snapshot(table.code, owner, "en")
    assert re.search(r'<div id="hand-state"[^>]*\sdata-playable="RJ ?"', html)  # (table.js)
    assert 'data-testid="pass"' not in html  # never on the lead
    services.submit_action(table.code, owner, {"type": "play", "cards": ["RJ"]}, table.version)
    state = state_of(table)
    assert GAME.hand_over(state) and state.winner == 0
    html, _ = views_live.snapshot(table.code, owner, "en")
    assert 'data-testid="settlement"' in html and 'data-testid="sum"><strong>0<' in html


@pytest.mark.django_db
def test_the_status_line_says_what_beats_the_table(owner):
    req = {
        "kind": "single",
        "low": "7",
        "high": "7",
        "count": 1,
        "one_higher": "8",
        "two_beats": True,
        "bomb_beats": True,
    }
    from django.utils import translation

    with translation.override("en"):
        assert present.requirement_text(req) == "To beat single 7: only 8 · or a 2 · or a bomb"
    with translation.override("de"):
        assert present.requirement_text(req) == (
            "Gegen Einzelkarte 7: nur 8 · oder eine 2 · oder eine Bombe"
        )


@pytest.mark.django_db
def test_hint_selects_and_never_plays(owner):
    table = services.create_table(owner, "gandengyan", "easy", {"draw": "all"}, seats=3)
    services.run_bots(table.code)
    table.refresh_from_db()
    version = table.version
    html, _ = views_live.handle(table.code, owner, "en", {"action": "hint"})
    assert "is-selected" in html
    table.refresh_from_db()
    assert table.version == version


@pytest.mark.django_db
def test_frames_read_plays_with_a_chosen_reading_and_passes():
    assert frames.action({"action": "pass", "version": "3"}) == {"type": "pass"}
    combo = {"kind": "straight", "low": "7", "high": "9", "count": 3}
    assert frames.action(
        {"action": "play", "cards": ["7S", "8H", "BJ"], "combo": json.dumps(combo)}
    ) == {"type": "play", "cards": ["7S", "8H", "BJ"], "combo": combo}
    assert frames.action({"action": "play", "cards": "7S", "combo": ""}) == {
        "type": "play",
        "cards": ["7S"],
    }
    assert frames.action({"action": "next"}) is None


@pytest.mark.django_db
def test_setup_page_starts_a_session_and_a_change_of_settings_replaces_it(owner):
    client = Client()
    client.force_login(owner)
    url = reverse("games:play_now", kwargs={"game": "gandengyan"})
    page = client.get(url)
    assert page.status_code == 200
    assert b'data-testid="seats-3"' in page.content and b"checked" in page.content
    response = client.post(url, {"seats": "4", "draw": "winner", "level": "hard"})
    first = Table.objects.get()
    assert response.status_code == 302 and first.options == {"draw": "winner"}
    assert first.seats.count() == 4 and first.level == "hard"
    page = client.get(url + f"?replaces={first.code}")
    assert b'data-testid="replaces-note"' in page.content
    client.post(url, {"seats": "2", "draw": "all", "level": "easy", "replaces": str(first.code)})
    first.refresh_from_db()
    assert first.status == Table.Status.FINISHED
    assert Table.objects.filter(status=Table.Status.ACTIVE).get().seats.count() == 2
    table_page = client.get(reverse("games:table", kwargs={"code": first.code}))
    assert table_page.status_code == 200


@pytest.mark.django_db
def test_a_finished_round_replays_with_every_draw_and_a_running_one_hides_all(owner):
    table, _ = play_rounds(owner, 2, "all", 1, random.Random(5), check=False)
    services.start_next_hand(table.code, owner, state_of(table) and table.version)
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("games:replay", kwargs={"code": table.code, "number": 1}))
    html = page.content.decode()
    assert page.status_code == 200 and 'class="trick-row gdy-trick"' in html
    hand = table.hands.get(number=1)
    drawn = set(CARD.findall(html)) - set(hand.deal["hands"][0]) - set(hand.deal["hands"][1])
    assert drawn <= set(hand.deal["stock"])
    running = client.get(reverse("games:replay", kwargs={"code": table.code, "number": 2}))
    assert not CARD.findall(running.content.decode())
    match = client.get(reverse("games:match", kwargs={"code": table.code}))
    assert match.content.decode().count("<polyline") == 2


# ---------------------------------------------------------------- the live channel


def _rebuilt(table: Table, version: int):
    """The engine state a frame of ``version`` was rendered from, rebuilt from seed and log;
    with the state just after the next deal too, when a frame falls between two rounds."""
    from games.models import ActionLog

    hands = list(table.hands.order_by("number"))
    state = GAME.new_match(int(table.seed), table.seats.count(), table.options)
    states = []
    for hand in hands:
        if hand.number > 1:
            state = GAME.next_hand(state)
        entries = list(ActionLog.objects.filter(hand=hand).order_by("seq"))
        if entries and entries[0].seq > version:
            states.append(state)
            break
        for entry in entries:
            if entry.seq > version:
                break
            state = GAME.apply(state, entry.seat, entry.action)
        states = [state]
        if entries and entries[-1].seq > version:
            break
    return states


@sync_to_async
def _check_socket_frame(table, html):
    version = version_of(html)
    if version is None:
        return
    table = Table.objects.get(pk=table.pk)
    shown = set(CARD.findall(html))
    states = _rebuilt(table, version)
    known = set().union(*(known_to(s, 0) for s in states))
    assert shown <= known, f"frame v{version} shows {shown - known}"


pytestmark_socket = pytest.mark.django_db(transaction=True)


@pytestmark_socket
async def test_a_round_over_the_socket_and_its_refusals():
    from channels.testing import WebsocketCommunicator

    from cardsite.asgi import application

    user = await sync_to_async(get_user_model().objects.create_user)("ren", password="x-Karte-1")
    table = await sync_to_async(services.create_table)(
        user, "gandengyan", "easy", {"draw": "all"}, 3
    )
    cookie = await sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application, f"/ws/de/tables/{table.code}/", headers=[ORIGIN, cookie]
    )
    assert (await comm.connect())[0]
    rng = random.Random(8)
    refused = False
    for _ in range(400):
        html = await comm.receive_from(timeout=10)
        await _check_socket_frame(table, html)
        if 'data-testid="settlement"' in html:
            break
        if "is-my-turn" not in html:
            continue
        t = await sync_to_async(Table.objects.get)(pk=table.pk)
        state = GAME.from_json(t.state)
        if version_of(html) != t.version or state.turn != 0:
            continue
        if not refused:
            before = t.state
            await comm.send_json_to({"action": "play", "cards": ["ZZ"], "version": str(t.version)})
            reply = await comm.receive_from(timeout=10)
            assert "toast__msg" in reply
            await comm.send_json_to({"action": "pass", "version": str(t.version - 1)})
            reply = await comm.receive_from(timeout=10)
            assert "Der Tisch ist inzwischen weiter" in reply
            assert (await sync_to_async(Table.objects.get)(pk=table.pk)).state == before
            refused = True
        action = rng.choice(GAME.legal_actions(state, 0))
        frame = {"action": action["type"], "version": str(t.version)}
        if action["type"] == "play":
            frame |= {"cards": action["cards"], "combo": json.dumps(action["combo"])}
        await comm.send_json_to(frame)
    else:
        raise AssertionError("the round did not end")
    assert refused
    await comm.disconnect()


@pytest.mark.django_db
def test_an_outsider_sees_the_open_table_only_and_cannot_act(owner):
    outsider = get_user_model().objects.create_user("zoe", password="Kartenspiel-2026")
    table = services.create_table(owner, "gandengyan", "easy", {"draw": "all"}, seats=3)
    services.run_bots(table.code)
    assert views_live.snapshot(table.code, outsider, "en") is None  # not open to watchers
    Table.objects.filter(pk=table.pk).update(spectators=True)
    state = state_of(table)
    html, _ = views_live.snapshot(table.code, outsider, "en")
    assert 'class="hand__card' not in html
    shown = set(CARD.findall(html))
    assert shown <= {c for e in state.log if e["type"] == "play" for c in e["cards"]}
    html, _ = views_live.handle(table.code, outsider, "en", {"action": "pass", "version": "1"})
    assert "not seated at this table" in html
    assert GAME.to_json(state_of(table)) == GAME.to_json(state)


@pytest.mark.django_db
def test_a_seat_that_passed_shows_its_pass_not_also_not_played_yet(owner):
    """A seat that has not played a card this round and has just passed shows its pass (the
    newer fact), not "not played yet" beside it."""
    rng = random.Random(7)
    table = services.create_table(owner, "gandengyan", "easy", {"draw": "all"}, seats=3)
    seen = 0
    for _ in range(300):
        services.run_bots(table.code)
        state = state_of(table)
        html, _ = views_live.snapshot(table.code, owner, "en")
        parts = re.findall(r"<!--region (seat-\d)-->(.*?)<!--/region \1-->", html, re.S)
        parts += re.findall(r"<!--region (me-info)-->(.*?)<!--/region \1-->", html, re.S)
        for name, part in parts:
            if "badge--pass" in part:
                assert "badge--spring" not in part, name
                seen += 1
        if GAME.hand_over(state):
            services.start_next_hand(table.code, owner, table.version)
            continue
        services.submit_action(
            table.code, owner, rng.choice(GAME.legal_actions(state, 0)), table.version
        )
        if seen > 5:
            break
    assert seen, "no seat passed"
