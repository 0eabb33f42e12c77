"""The registry: one record per game, and a table plug-in is all of its hooks or nothing."""

from __future__ import annotations

import random
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

import games.tables
from games import registry
from games.engine import game_names
from games.tables.base import HOOKS

HOOK_CODE = {
    "presenter": "def context(table, view, seat, selected=()): return {}\ndef parts(c): return None\n",
    "frames": "def action(data): return None\ndef frame(move): return {}\n",
    "replay": "def context(table, hand, steps, names): return {}\n",
    "messages": "def refusal(code, params): return None\n",
    "stats": "def facts(hands): return []\n",
    "review": "def position(observation): return {}\ndef note(position, names): return ''\n",
}


@pytest.fixture
def plug_in(tmp_path, monkeypatch):
    """Write a plug-in package ``games.tables.fake`` with the given modules."""
    monkeypatch.setattr(games.tables, "__path__", [*games.tables.__path__, str(tmp_path)])

    def write(modules: dict[str, str]):
        package = tmp_path / "fake"
        package.mkdir(exist_ok=True)
        (package / "__init__.py").write_text(
            "from games.tables.base import Labels\nLABELS = Labels('Fake', '', '', '', '')\n"
        )
        for name, code in modules.items():
            (package / f"{name}.py").write_text(code)
        for name in list(sys.modules):
            if name.startswith("games.tables.fake"):
                monkeypatch.delitem(sys.modules, name)

    return write


def test_every_game_the_engine_knows_has_its_record_and_plug_in():
    assert [g.name for g in registry.table_games()] == game_names(unlisted=True)
    for game in registry.table_games():
        assert str(game.labels.name)
        if game.playable:
            assert set(game.hooks) == set(HOOKS)


def test_a_plug_in_missing_a_hook_is_refused_by_name(plug_in):
    plug_in({**HOOK_CODE, "frames": "def action(data): return None\n"})
    with pytest.raises(ImproperlyConfigured, match=r"fake\.frames must define frame"):
        registry._load("fake")


def test_a_presenter_leaves_the_rules_facts_to_the_engine(plug_in, monkeypatch):
    # Whether a trick closed is a rules fact: the presenter, context() alone, is complete.
    plug_in(HOOK_CODE)
    from games.engine import get_game

    monkeypatch.setattr(registry, "get_game", lambda name: get_game("gongzhu"))
    assert registry._load("fake").playable


def test_the_bots_rest_longer_after_a_trick_closes_as_the_engine_says():
    for game in registry.table_games():
        engine = game.engine
        rng = random.Random(3)
        state = engine.new_match(3, game.info.seat_counts[0])
        before = None
        pauses = []
        while not engine.hand_over(state):
            seat = rng.choice(engine.to_move(state))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            after = engine.public_view(state)
            closed = engine.trick_closed(before, after)
            assert closed == engine.trick_closed(before, engine.observation(state, seat))
            pauses.append(game.pause_after(before or {}, after))
            assert pauses[-1] == (registry.TRICK_PAUSE if closed else registry.MOVE_PAUSE)
            before = after
        assert registry.TRICK_PAUSE in pauses and registry.MOVE_PAUSE in pauses, game.name


def test_a_plug_in_missing_a_module_is_refused_by_name(plug_in):
    plug_in({k: v for k, v in HOOK_CODE.items() if k != "replay"})
    with pytest.raises(ImproperlyConfigured, match="has no replay module"):
        registry._load("fake")


def test_a_game_without_a_table_lists_its_labels_only(plug_in, monkeypatch):
    plug_in({})
    from games.engine import get_game

    monkeypatch.setattr(registry, "get_game", lambda name: get_game("gongzhu"))
    fake = registry._load("fake")
    assert not fake.playable and fake.hooks == {} and fake.labels.name == "Fake"
    assert fake.refusal("stale", {}) is None


def test_the_manifest_owns_the_games_bots_hint_and_review_budget():
    from django.contrib.staticfiles import finders

    from games.bots import RandomBot

    for game in registry.table_games():
        engine = game.engine
        state = engine.new_match(7, game.info.seat_counts[0])
        seat = engine.to_move(state)[0]
        legal = engine.legal_actions(state, seat)
        assert game.hint(engine.observation(state, seat), legal) in legal
        assert game.bots.BOTS.keys() >= {"easy", "normal", "hard"}
        assert isinstance(game.bot("random"), RandomBot)
        assert callable(game.bot("normal").act)
        assert game.review_samples > 0
        assert game.seat_counts_vary == (len(game.info.seat_counts) > 1)
        assert finders.find(game.stylesheet), f"{game.name} has no {game.stylesheet}"
        assert all(game.rule_page(language).is_file() for language in ("de", "en"))
