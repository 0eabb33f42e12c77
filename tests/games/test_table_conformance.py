"""What every table promises, checked over every playable game (a new game is covered by
adding it to the registry): no frame or page names a card its viewer may not know; bad,
stale and foreign actions change nothing and say why; a reload draws the same board; a
finished hand replays as dealt and logged; a watcher without a seat sees no hand.

The moves go through the browser's own path: the game's ``frames.frame`` for a legal action,
then ``views_live.handle``, which answers with the frame the seat receives.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import history, services, views_live
from games.models import ActionLog, Table
from games.registry import table_game, table_games
from games.tables.common import card_name
from tests.games.conftest import until_moves_on_their_way

pytestmark = pytest.mark.django_db
PLAYABLE = [g.name for g in table_games() if g.playable]
CARD = re.compile(r'data-card="(\w\w)"')
RULES = re.compile(r'<section class="table-rules".*?</section>', re.S)
COUNTER = re.compile(r"<!--region counter-->.*?<!--/region counter-->", re.S)


def cards_in(value, found: set[str], deck: set[str]) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        if value in deck:
            found.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            cards_in(v, found, deck)
    elif isinstance(value, list | tuple):
        for v in value:
            cards_in(v, found, deck)
    return found


def hidden_from(table: Table, seat: int | None) -> set[str]:
    """The cards of the current deal that ``seat`` (None: a watcher) may not know now: every
    dealt card its observation does not name."""
    game = table_game(table.game).engine
    table.refresh_from_db()
    state = game.from_json(table.state)
    dealt = table.current_hand.deal
    deck = {
        c
        for cards in dealt.values()
        for hand in cards
        for c in (hand if isinstance(hand, list) else [hand])
    }
    view = game.observation(state, seat) if seat is not None else game.public_view(state)
    return deck - cards_in(view, set(), deck)


def check_secrets(html: str, table: Table, seat: int | None) -> None:
    html = RULES.sub("", html)  # the rules' worked examples show cards of their own
    # The counter of unseen cards names every rank, the jokers among them, whoever holds them.
    html = COUNTER.sub("", html)
    hidden = hidden_from(table, seat)
    shown = set(CARD.findall(html))
    assert not shown & hidden, f"{table.game}: shows {shown & hidden} to seat {seat}"
    with translation.override("en"):
        named = {c for c in hidden if card_name(c) in html}
    assert not named, f"{table.game}: names {named} to seat {seat}"


DIV = re.compile(r"<div\b|</div>")


def board(html: str) -> str:
    """The board element (``#board`` and all inside it), whitespace folded."""
    start = html.index('<div id="board"')
    depth = 0
    for tag in DIV.finditer(html, start):
        depth += 1 if tag.group() != "</div>" else -1
        if depth == 0:
            return " ".join(html[start : tag.end()].split())
    raise AssertionError("the board is not closed")


def state_and_legal(table: Table, seat: int = 0):
    game = table_game(table.game).engine
    table.refresh_from_db()
    state = game.from_json(table.state)
    legal = game.legal_actions(state, seat) if seat in game.to_move(state) else []
    return state, legal


def send(table, user, data, lang="en") -> str:
    html, _version = views_live.handle(str(table.code), user, lang, data)
    return html


def move_frame(table: Table, action: dict) -> dict:
    return {**table_game(table.game).frame_for(action), "version": str(table.version)}


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("ren", password="Kartenspiel-2026")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("zoe", password="Kartenspiel-2026")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def play_hand(table, owner, rng, check=None) -> int:
    """Random legal moves through frames until the hand is over; the frames seen."""
    game = table_game(table.game).engine
    for frames in range(400):
        services.run_bots(table.code)
        state, legal = state_and_legal(table)
        if game.hand_over(state):
            return frames
        assert legal, "the player must be to move when the bots have played"
        html = send(table, owner, move_frame(table, rng.choice(legal)))
        if check:
            check(html)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("game", PLAYABLE)
def test_frames_and_actions_are_each_others_inverse(game, owner):
    gspec = table_game(game)
    rng = random.Random(3)
    engine = gspec.engine
    for seats in gspec.info.seat_counts:
        state = engine.new_match(seed=rng.randrange(2**32), seats=seats)
        for _ in range(60):
            if engine.hand_over(state):
                break
            seat = engine.to_move(state)[0]
            legal = engine.legal_actions(state, seat)
            for action in legal[:20]:
                frame = json.loads(json.dumps(gspec.frame_for(action)))
                assert gspec.action_from_frame(frame) == action
            state = engine.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize("game", PLAYABLE)
def test_no_frame_or_page_names_a_card_its_viewer_may_not_know(game, owner, outsider):
    rng = random.Random(game)
    seen = 0
    counts = table_game(game).info.seat_counts
    # Two hands per seat count, and more while fewer than 21 frames were checked (a game
    # whose hands can end in a few moves needs more of them).
    plan = [s for s in counts for _ in range(2)]
    for i in range(len(plan) + 6):
        if i >= len(plan) and seen > 20:
            break
        seats = plan[i] if i < len(plan) else counts[0]
        table = services.create_table(owner, game, "easy", seats=seats)

        def check(html, table=table):
            check_secrets(html, table, 0)

        seen += play_hand(table, owner, rng, check)
        page = client_for(owner).get(reverse("games:table", kwargs={"code": table.code}))
        check_secrets(page.content.decode(), table, 0)
        watcher = client_for(outsider).get(reverse("games:table", kwargs={"code": table.code}))
        check_secrets(watcher.content.decode(), table, None)
    assert seen > 20


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_watcher_without_a_seat_sees_no_hand_and_cannot_act(game, owner, outsider):
    table = services.create_table(owner, game, "easy")
    services.run_bots(table.code)
    _state, legal = state_and_legal(table)
    html = client_for(outsider).get(reverse("games:table", kwargs={"code": table.code}))
    html = html.content.decode()
    assert "hand__card" not in html
    check_secrets(html, table, None)
    before = (table.version, table.state)
    reply = send(table, outsider, move_frame(table, legal[0]))
    assert "not seated at this table" in reply
    assert "hand__card" not in reply
    table.refresh_from_db()
    assert (table.version, table.state) == before


@pytest.mark.parametrize("game", PLAYABLE)
def test_stale_duplicate_out_of_turn_malformed_and_foreign_actions_change_nothing(
    game, owner, outsider, settings
):
    settings.GAME_PACING = True  # bots' moves stay due, so the player can try out of turn
    table = services.create_table(owner, game, "easy")
    other = services.create_table(outsider, game, "easy")
    rng = random.Random(7)

    def unchanged(frame, says, user=owner, at=table, lang="en"):
        at.refresh_from_db()
        before = (at.version, at.state, ActionLog.objects.filter(table=at).count())
        reply = send(at, user, frame, lang)
        at.refresh_from_db()
        assert (at.version, at.state, ActionLog.objects.filter(table=at).count()) == before
        assert "toast__msg" in reply and says in reply, reply[-400:]
        return reply

    tried = set()
    for _ in range(40):
        services.run_bots(table.code)
        services.fast_forward(table.code, owner)  # the replies those moves drew show now
        state, legal = state_and_legal(table)
        if not legal:
            break
        frame = move_frame(table, rng.choice(legal))
        unchanged({**frame, "version": str(table.version - 1)}, "moved on")
        unchanged({**frame, "version": "abc"}, "moved on")
        unchanged(
            {"action": "play", "card": 17, "cards": {"x": 1}, "version": str(table.version)},
            "not understood",
        )
        unchanged({"action": "no-such-action", "version": str(table.version)}, "not understood")
        # Another player's table: not seated there.
        other.refresh_from_db()
        unchanged(frame, "not seated", user=owner, at=other)
        unchanged(frame, "nicht", user=owner, at=other, lang="de")
        send(table, owner, frame)
        # The same frame again is stale now.
        unchanged(frame, "moved on")
        tried.add("duplicate")
        table.refresh_from_db()
        shown = services.get_table(table.code)
        if table.bot_due_at is not None or getattr(shown, "next_shown_at", None):
            # Bots are to move (their moves due, or made and on their way): the player's
            # move is out of turn.
            game_ = table_game(game).engine
            st = game_.from_json(shown.state)
            if 0 not in game_.to_move(st):
                hand = game_.observation(st, 0).get("hand") or []
                if hand:
                    guess = next(
                        (
                            a
                            for a in game_.legal_actions(st, game_.to_move(st)[0])
                            if a["type"] != "pass"
                        ),
                        None,
                    )
                    frame = (
                        {**table_game(game).frame_for(guess), "version": str(shown.version)}
                        if guess
                        else {"action": "pass", "version": str(shown.version)}
                    )
                    unchanged(frame, "not your turn")
                    tried.add("out of turn")
            services.fast_forward(table.code, owner)  # what is on its way shows now
            services.run_bots(table.code)
        if len(tried) == 2:
            break
    assert tried == {"duplicate", "out of turn"}


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_reload_draws_the_board_the_socket_sent(game, owner):
    table = services.create_table(owner, game, "easy")
    rng = random.Random(11)
    client = client_for(owner)
    for _ in range(6):
        services.run_bots(table.code)
        _state, legal = state_and_legal(table)
        if not legal:
            break
        frame_html = send(table, owner, move_frame(table, rng.choice(legal)))
        table.refresh_from_db()
        page = client.get(reverse("games:table", kwargs={"code": table.code})).content.decode()
        snap, _v = views_live.snapshot(str(table.code), owner, "en")
        assert board(page) == board(snap)
        if f'data-version="{table.version}"' in frame_html:
            assert board(frame_html) == board(snap)


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_page_draws_the_board_at_every_turn_of_a_hand(game, owner):
    """The page has no hint or toast in its context, the socket's board has: each of the
    player's turns through a whole hand (bidding, leading, following) and its summary draw
    on both alike."""
    table = services.create_table(owner, game, "easy")
    client = client_for(owner)
    engine = table_game(game).engine
    rng = random.Random(3)
    for _ in range(400):
        services.run_bots(table.code)
        table.refresh_from_db()
        page = client.get(reverse("games:table", kwargs={"code": table.code}))
        assert page.status_code == 200
        snap, _v = views_live.snapshot(str(table.code), owner, "en")
        assert board(page.content.decode()) == board(snap)
        state, legal = state_and_legal(table)
        if engine.hand_over(state):
            return
        send(table, owner, move_frame(table, rng.choice(legal)))
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_finished_hand_replays_as_dealt_and_logged(game, owner):
    table = services.create_table(owner, game, "easy")
    play_hand(table, owner, random.Random(5))
    table.refresh_from_db()
    hand = table.hands.get(number=1)
    assert hand.ended_at is not None
    engine = table_game(game).engine
    fresh = engine.new_match(
        seed=int(table.seed), seats=table.seats.count(), options=table.options or None
    )
    assert engine.dealt(fresh) == hand.deal
    steps = history.replay_steps(table, 1)
    logged = list(ActionLog.objects.filter(hand=hand).order_by("seq").values_list("seat", "action"))
    assert steps is not None and [(s, a) for s, a, _ in steps] == logged
    page = client_for(owner).get(reverse("games:replay", kwargs={"code": table.code, "number": 1}))
    assert page.status_code == 200
    html = page.content.decode()
    for cards in hand.deal["hands"]:
        assert set(cards) <= set(CARD.findall(html))


@pytest.mark.parametrize("game", PLAYABLE)
def test_bots_replies_made_together_each_show_at_their_paced_time(
    game, owner, outsider, settings, clock
):
    """Paced, the bots' replies to a move are applied in its transaction (or, after a move
    of the driver's, in that one's); every view (the player's socket, a spectator, a reload)
    shows each of them only once its time has come, the player cannot act before their turn
    shows, and their turn timer starts then."""
    settings.GAME_PACING = True
    most = max(table_game(game).info.seat_counts)  # the more bots, the more replies
    table = services.create_table(owner, game, "normal", seats=most)
    table.spectators, table.turn_seconds = True, 30
    table.save(update_fields=["spectators", "turn_seconds"])
    engine = table_game(game).engine
    # A move's transaction brings along every bot before the player (the last of them is
    # the table as it is): more than ``most - 3`` steps on the way.
    raw = until_moves_on_their_way(
        table,
        owner,
        random.Random(5),
        clock,
        least=most - 3,
        play=lambda shown, action: send(shown, owner, move_frame(shown, action)),
    )
    steps, until = raw.reveal["steps"], raw.reveal["until"]
    shows = [*steps, [until, raw.version, raw.state]]
    # The steps are the table's own moves, one log line apart, each shown a pause after the
    # one before it (a person can follow them).
    lines = ActionLog.objects.filter(table=raw, seq__gt=steps[0][1]).order_by("seq")
    assert [line.seq for line in lines] == [v for _t, v, _s in shows[1:]]
    state = engine.from_json(steps[0][2])
    for line, before, after in zip(lines, shows[:-1], shows[1:], strict=True):
        state = engine.apply(state, line.seat, line.action)
        assert engine.to_json(state) == after[2]
        assert after[0] - before[0] >= 0.5
    page = client_for(outsider)
    url = reverse("games:table", kwargs={"code": raw.code})
    for at, version, _state in shows:
        clock.to(at)
        for viewer in (owner, outsider):
            html, shown_version = views_live.snapshot(str(raw.code), viewer, "en")
            assert shown_version == version
            assert f'data-version="{version}"' in html
            check_secrets(html, Table.objects.get(pk=raw.pk), 0 if viewer == owner else None)
        assert f'data-version="{version}"' in page.get(url).content.decode()
        if version != raw.version:
            # Not yet the player's turn as the table shows: whatever version a page sends.
            ahead = engine.from_json(raw.state)
            if 0 in engine.to_move(ahead):
                frame = move_frame(raw, engine.legal_actions(ahead, 0)[0])
                for sent in (str(version), str(raw.version)):
                    reply = send(raw, owner, {**frame, "version": sent})
                    assert "toast__msg" in reply
                    assert Table.objects.get(pk=raw.pk).version == raw.version
    final = engine.from_json(raw.state)
    if 0 in engine.to_move(final):
        assert raw.turn_due_at.timestamp() == pytest.approx(until + 30)
    else:  # the hand's last move waits for the driver, a pause after the replies
        assert raw.bot_due_at.timestamp() > until
