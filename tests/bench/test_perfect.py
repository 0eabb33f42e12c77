"""The benchmark-only ``perfect`` players (games/bench/<game>_perfect.py): reachable by botmatch
only, handed the whole state by the harness, deterministic, legal, and really using what
their seat cannot see."""

from __future__ import annotations

import io
import random
import re

import pytest
from django.core.management import call_command

from games.bench import gongzhu as gongzhu_bench
from games.bench import harness
from games.bots import get_bot
from games.engine import get_game
from games.engine.cards import STANDARD_DECK

GAMES = {"gongzhu": 4, "doudizhu": 3, "gandengyan": 3}


def positions(name: str, seats: int, seed: int, count: int):
    """``count`` (state, seat) decisions from one hand of Normal against Normal."""
    game = get_game(name)
    normal = get_bot(name, "normal")
    rng = random.Random(seed)
    state = game.new_match(seed=seed, seats=seats)
    found = []
    while not game.hand_over(state):
        for seat in game.to_move(state):
            legal = game.legal_actions(state, seat)
            if len(legal) > 1:
                found.append((state, seat))
            state = game.apply(state, seat, normal.act(game.observation(state, seat), legal, rng))
    return found[:: max(1, len(found) // count)][:count]


@pytest.mark.parametrize("name", GAMES)
def test_perfect_is_a_botmatch_player_and_no_level(name):
    assert "perfect" in harness.player_names(name)
    assert harness.make_bot(name, "perfect").sees_all
    with pytest.raises(ValueError):
        get_bot(name, "perfect")


@pytest.mark.parametrize("name", GAMES)
def test_a_decision_repeats_for_the_same_state_and_seed_and_is_legal(name):
    game = get_game(name)
    bot = harness.make_bot(name, "perfect")
    for state, seat in positions(name, GAMES[name], seed=3, count=6):
        legal = game.legal_actions(state, seat)
        first = bot.act_seeing_all(game, state, seat, legal, random.Random(7))
        again = bot.act_seeing_all(game, state, seat, legal, random.Random(7))
        assert first == again
        assert first in legal
        game.apply(state, seat, first)  # the engine accepts it


class Spy:
    """Records what the harness hands it and plays the first legal action."""

    seen: list = []

    def act(self, observation, legal_actions, rng):
        Spy.seen.append(("observation", observation))
        return legal_actions[0]


class AllSeeingSpy(Spy):
    sees_all = True

    def act_seeing_all(self, game, state, seat, legal, rng):
        Spy.seen.append(("state", game.to_json(state)["hands"], seat))
        return legal[0]


def test_the_harness_hands_the_whole_state_only_to_a_player_that_sees_all(monkeypatch):
    monkeypatch.setattr(gongzhu_bench, "players", lambda: {"spy": Spy, "seer": AllSeeingSpy})
    monkeypatch.setattr(harness, "_BOTS", {})
    monkeypatch.setattr(Spy, "seen", [])
    config = harness.MatchConfig("gongzhu", "seer", "spy", 4, 5, layout="pairs")
    harness.play_deal(config, 0)
    states = [s for s in Spy.seen if s[0] == "state"]
    observations = [s[1] for s in Spy.seen if s[0] == "observation"]
    assert states and observations
    # The seer is handed every seat's hand (its first decision is an exposure, before any
    # card is played), the honest spy its own hand only.
    hands = states[0][1]
    assert sorted(c for h in hands for c in h) == sorted(STANDARD_DECK)
    for obs in observations:
        assert "hands" not in obs
        assert len(obs["hand"]) <= 13


def gongzhu_lead(hands):
    """Seat 0 to lead the first trick of ``hands`` after nobody exposed anything."""
    game = get_game("gongzhu")
    state = game.new_match_from_deal({"hands": hands}, dealer=0)
    for seat in range(4):
        state = game.apply(state, seat, {"type": "expose", "cards": []})
    return state


def test_gong_zhu_perfect_plays_by_the_hands_it_should_not_see():
    # Seat 0 keeps its hand while the other 39 cards are dealt anew: its observation stays
    # the same, so any honest bot leads the same card; the perfect player need not.
    game = get_game("gongzhu")
    bot = harness.make_bot("gongzhu", "perfect")
    for k in range(10):
        deck = list(STANDARD_DECK)
        random.Random(k).shuffle(deck)
        mine, rest = deck[:13], deck[13:]
        leads, observations = set(), []
        for j in range(4):
            other = list(rest)
            random.Random(f"{k}:{j}").shuffle(other)
            state = gongzhu_lead([mine, other[:13], other[13:26], other[26:]])
            observations.append(game.observation(state, 0))
            legal = game.legal_actions(state, 0)
            leads.add(bot.act_seeing_all(game, state, 0, legal, random.Random(1))["card"])
        assert all(obs == observations[0] for obs in observations)
        if len(leads) > 1:
            return
    pytest.fail("the perfect player led the same card whatever the hidden hands")


@pytest.mark.parametrize(
    ("name", "extra"),
    [
        ("gongzhu", {"layout": "pairs"}),
        ("doudizhu", {}),
        ("gandengyan", {"seats": 3}),
    ],
)
def test_a_tiny_botmatch_with_the_perfect_hero(name, extra):
    out = io.StringIO()
    call_command(
        "botmatch",
        name,
        hero="perfect",
        villain="normal",
        hands=1,
        jobs=1,
        stdout=out,
        stderr=io.StringIO(),
        **extra,
    )
    text = out.getvalue()
    assert "hero perfect" in text
    assert re.search(r"[+-]\d+\.\d points per hand", text)


def test_a_spec_may_set_the_perfect_players_options_and_no_others():
    harness.check_spec("gandengyan", "perfect:stock=false,samples=4")
    harness.check_spec("doudizhu", "perfect:candidates=6,endgame=16")
    with pytest.raises(ValueError):
        harness.check_spec("gongzhu", "perfect:samples=4")
    harness.check_spec("gongzhu", "perfect:margin=false")


def test_gan_deng_yan_perfect_without_the_stock_still_plays_legally():
    game = get_game("gandengyan")
    bot = harness.make_bot("gandengyan", "perfect:stock=false,samples=3")
    for state, seat in positions("gandengyan", 3, seed=2, count=4):
        legal = game.legal_actions(state, seat)
        assert bot.act_seeing_all(game, state, seat, legal, random.Random(2)) in legal
