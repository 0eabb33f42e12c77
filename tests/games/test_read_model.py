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
