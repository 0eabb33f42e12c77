"""Gan Deng Yan bots: always legal, reproducible per rng seed, never handed the state."""

from __future__ import annotations

import inspect
import json
import random

import pytest

from games.bots import gandengyan as bots
from games.bots import get_bot
from games.engine import get_game

GAME = get_game("gandengyan")
LEVELS = ("easy", "normal", "hard")


def bot_for(level):
    # Hard with a small budget keeps the suite fast; the budget changes strength, not rules.
    return (
        get_bot("gandengyan", level, samples=2) if level == "hard" else get_bot("gandengyan", level)
    )


def play_rounds(levels, seats, draw, seed, rounds, on_decision=None):
    state = GAME.new_match(seed=seed, seats=seats, options={"draw": draw})
    players = [bot_for(levels[s % len(levels)]) for s in range(seats)]
    rng = random.Random(seed)
    for _ in range(rounds):
        while not GAME.hand_over(state):
            (seat,) = GAME.to_move(state)
            obs = GAME.observation(state, seat)
            legal = GAME.legal_actions(state, seat)
            action = players[seat].act(json.loads(json.dumps(obs)), legal, rng)
            assert action in legal or action == {"type": "pass"} and {"type": "pass"} in legal, (
                action
            )
            if on_decision:
                on_decision(seat, obs, legal, action)
            state = GAME.apply(state, seat, action)
        assert sum(GAME.hand_result(state)["scores"]) == 0
        state = GAME.next_hand(state)
    return state


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("draw", ["all", "winner"])
def test_every_level_plays_only_legal_actions(seats, draw):
    play_rounds(["easy", "normal", "hard"], seats, draw, seed=seats * 3 + len(draw), rounds=3)


@pytest.mark.slow
def test_easy_and_normal_stay_legal_over_many_rounds():
    for seats in (2, 3, 4):
        play_rounds(["easy", "normal"], seats, "all", seed=40 + seats, rounds=15)


@pytest.mark.parametrize("level", LEVELS)
def test_same_rng_seed_same_choices(level):
    def trail():
        picks = []
        state = GAME.new_match(seed=9, seats=3)
        bot = bot_for(level)
        for step in range(40):
            if GAME.hand_over(state):
                break
            (seat,) = GAME.to_move(state)
            obs, legal = GAME.observation(state, seat), GAME.legal_actions(state, seat)
            action = bot.act(obs, legal, random.Random(step))
            picks.append(action)
            state = GAME.apply(state, seat, action)
        return picks

    assert trail() == trail()


def test_bots_are_given_no_state():
    for cls in bots.BOTS.values():
        params = list(inspect.signature(cls.act).parameters)
        assert params == ["self", "observation", "legal_actions", "rng"]
    source = inspect.getsource(bots) + inspect.getsource(
        __import__("games.bots.gandengyan_search", fromlist=["x"])
    )
    assert "django" not in source.lower()
    # The engine's combo helpers only: never its state, rules or observation builder.
    for forbidden in ("gandengyan.state", "gandengyan.rules", "gandengyan.observation", "State"):
        assert forbidden not in source


def test_hard_deals_only_the_unseen_cards():
    from games.bots.gandengyan_search import deal_unseen, root_world

    state = GAME.new_match(seed=4, seats=3)
    obs = GAME.observation(state, 0)
    base, pool = root_world(obs)
    world = deal_unseen(base, pool, obs, random.Random(1))
    assert [world.size(s) for s in range(3)] == obs["counts"]
    assert len(world.stock) == obs["stock"]
    assert world.counts[0] == base.counts[0]


def test_hint_is_normals_choice_and_legal():
    state = GAME.new_match(seed=2, seats=3)
    for _ in range(30):
        if GAME.hand_over(state):
            break
        (seat,) = GAME.to_move(state)
        obs, legal = GAME.observation(state, seat), GAME.legal_actions(state, seat)
        pick = bots.hint(obs, legal)
        assert pick in legal
        assert pick == get_bot("gandengyan", "normal").act(obs, legal, random.Random(0))
        state = GAME.apply(state, seat, pick)


def test_normal_goes_out_when_it_can_and_keeps_a_2_early():
    state = GAME.new_match(seed=1, seats=3)
    state.hands = [
        ["5S", "6H", "7D"],
        ["3C", "4C", "8C", "9C", "KC"],
        ["3D", "4D", "8D", "9D", "KD"],
    ]
    obs, legal = GAME.observation(state, 0), GAME.legal_actions(state, 0)
    assert bots.hint(obs, legal)["combo"]["kind"] == "straight"
    state.hands[0] = ["5S", "9H", "TD", "JC", "QC", "2S"]
    obs, legal = GAME.observation(state, 0), GAME.legal_actions(state, 0)
    pick = bots.hint(obs, legal)
    assert pick["combo"]["kind"] == "straight" and "2S" not in pick["cards"]
