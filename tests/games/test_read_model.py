"""The live side's read model: each board ``views_live`` draws comes from one service call
(``services.look`` or, after a move, ``services.board`` on the table the move left), and a
refused move on a page that has the table's version reads nothing more."""

from __future__ import annotations

import inspect

import pytest

from games import services, views_live
from games.registry import table_game, table_games
from tests.games.people import player

pytestmark = pytest.mark.django_db


class Recorder:
    """``views_live``'s view of the services: every function it calls, by name."""

    def __init__(self):
        self.calls: list[str] = []

    def __getattr__(self, name):
        real = getattr(services, name)
        if not inspect.isfunction(real):
            return real  # the exceptions and types it names

        def call(*args, **kwargs):
            self.calls.append(name)
            return real(*args, **kwargs)

        return call


@pytest.fixture
def recorder(monkeypatch):
    found = Recorder()
    monkeypatch.setattr(views_live, "services", found)
    return found


def _seated(game: str):
    user = player(f"reader-{game}")
    table = services.create_table(user, game, "easy")
    services.run_bots(table.code)
    table = services.get_table(table.code)
    engine = table_game(game).engine
    state = engine.from_json(table.state)
    assert 0 in engine.to_move(state)
    return user, table, engine.legal_actions(state, 0)[0]


@pytest.mark.parametrize("game", [g.name for g in table_games() if g.playable])
def test_each_board_is_one_read_of_the_services(game, recorder):
    user, table, move = _seated(game)
    code, version = str(table.code), table.version
    frame = {**table_game(game).frame_for(move), "version": str(version)}

    assert views_live.opening(code, user, "en").frame.version == version
    assert recorder.calls == ["look"]

    recorder.calls.clear()
    assert views_live.snapshot(code, user, "en").version == version
    assert recorder.calls == ["look"]

    recorder.calls.clear()
    assert views_live.snapshot(code, user, "en", since=version).html == ""
    assert recorder.calls == ["look"]

    recorder.calls.clear()
    hinted = views_live.handle(code, user, "en", {"action": "hint"}, game)
    assert hinted.whole and 'id="board"' in hinted.html
    assert recorder.calls == ["look", "hint_for"]

    # A stale move from a page that has the newest board: the move's own read, and no other.
    recorder.calls.clear()
    stale = {**frame, "version": str(version - 1)}
    refused = views_live.handle(code, user, "en", stale, game, shown=version)
    assert refused.refused and refused.version == -1
    assert recorder.calls == ["submit_action"]

    # The move: the table it left is drawn, not read again.
    recorder.calls.clear()
    moved = views_live.handle(code, user, "en", frame, game, shown=version)
    assert not moved.refused and moved.version > version
    assert recorder.calls == ["submit_action", "board"]


@pytest.mark.parametrize("game", [g.name for g in table_games() if g.playable])
def test_no_engine_call_changes_a_state_it_is_given(game):
    """The process keeps decoded states and shares them (``services.store.kept_state``): that
    holds only while nothing changes a state in place. Every call the site makes of an engine,
    over a whole hand: the state's text is the same after it."""
    import random

    engine = table_game(game).engine
    rng = random.Random(3)
    state = engine.new_match(seed=11, seats=engine.info.seat_counts[0])
    for _ in range(400):
        if engine.hand_over(state):
            break
        text = engine.to_json(state)
        engine.public_view(state)
        movers = engine.to_move(state)
        for seat in range(len(engine.public_view(state)["totals"])):
            engine.observation(state, seat)
        seat = movers[0]
        action = rng.choice(engine.legal_actions(state, seat))
        after = engine.apply(state, seat, action)
        assert engine.to_json(state) == text, f"{game}: a call changed the state it was given"
        state = after
    assert engine.hand_over(state)


def test_a_tables_state_is_decoded_once_for_the_boards_that_follow(
    monkeypatch, django_capture_on_commit_callbacks
):
    """A move's state is kept as it is encoded: the board drawn after it takes it without
    decoding it again, and so does a second read of the same object."""
    engine = table_game("gongzhu").engine
    user = player("decoded-once")
    table = services.create_table(user, "gongzhu", "normal")
    services.run_bots(table.code)
    decoded = []
    real = engine.from_json
    monkeypatch.setattr(engine, "from_json", lambda text: decoded.append(1) or real(text))
    shown = services.get_table(table.code)
    first = services.load_state(shown)
    assert services.load_state(shown) is first
    assert len(decoded) <= 1
    decoded.clear()
    state = first
    assert 0 in engine.to_move(state)  # the bots played to the person's turn
    with django_capture_on_commit_callbacks(execute=True):  # as committed: kept
        moved = services.submit_action(
            table.code, user, engine.legal_actions(state, 0)[0], shown.version
        )
    decoded.clear()  # the move's transaction read the table from the database
    # The board a notice of that version draws (from this process's copy, as committed).
    views_live.snapshot(table.code, user, "en", committed=moved.version)
    assert decoded == []


@pytest.mark.parametrize("game", [g.name for g in table_games() if g.playable])
def test_the_pause_read_from_the_next_movers_observation_is_the_public_views(game):
    """A transaction's bot replies time their pauses from the observation of the bot to move
    next (``pacing._bot_delay``; its task takes the same one, ``moves._bot_task``): the same
    pause as the public views give, over random playouts of every game."""
    import random

    gspec = table_game(game)
    engine = gspec.engine
    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = engine.new_match(seed=seed, seats=gspec.info.default_seats)
        before_public = before_seen = None
        for _ in range(400):
            if engine.hand_over(state):
                break
            mover = engine.to_move(state)[0]
            public, seen = engine.public_view(state), engine.observation(state, mover)
            assert gspec.pause_after(before_seen, seen) == gspec.pause_after(before_public, public)
            compared += 1
            before_public, before_seen = public, seen
            state = engine.apply(state, mover, rng.choice(engine.legal_actions(state, mover)))
    assert compared > 20
