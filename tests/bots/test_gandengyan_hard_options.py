"""Hard's Gan Deng Yan options (issue #15): each runs, repeats for the same observation and
seed, and returns a legal action; Normal's policy on rank counts is Normal's; a deal fits the
opponents' decisions it reads when it is the true one."""

from __future__ import annotations

import random

import pytest

from games.bots import gandengyan as bots
from games.bots import gandengyan_search as search
from games.bots import get_bot
from games.engine import get_game
from games.engine.gandengyan.combos import counts_of

GAME = get_game("gandengyan")

OPTIONS = (
    {"rollout": "greedy", "infer": 0},  # Hard before issue #15
    {"rollout": "greedy"},
    {"rollout": "normal", "infer": 0},
    {"rollout": "mixed"},
    {"infer": 2},
    {"infer": 2, "rollout": "normal", "tries": 3},
)


def decisions(seats, seed, count):
    """``count`` decisions with a choice to make, from a round of Normal against Normal: the
    state, the seat to move, its observation and legal actions."""
    normal = bots.NormalBot()
    state = GAME.new_match(seed=seed, seats=seats)
    found = []
    while not GAME.hand_over(state) and len(found) < count:
        (seat,) = GAME.to_move(state)
        obs, legal = GAME.observation(state, seat), GAME.legal_actions(state, seat)
        if len(legal) > 1:
            found.append((state, seat, obs, legal))
        state = GAME.apply(state, seat, normal.choose(obs, legal))
    return found


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("seats", [2, 4])
def test_each_option_is_legal_and_repeats_for_a_seed(options, seats):
    bot = get_bot("gandengyan", "hard", samples=3, **options)
    for step, (_state, _seat, obs, legal) in enumerate(decisions(seats, 11 + seats, 12)):
        first = bot.act(obs, legal, random.Random(step))
        again = get_bot("gandengyan", "hard", samples=3, **options).act(
            obs, legal, random.Random(step)
        )
        assert first == again
        assert first in legal


def test_an_unknown_rollout_is_refused():
    with pytest.raises(ValueError):
        get_bot("gandengyan", "hard", rollout="random")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_normal_on_rank_counts_is_normal(seats):
    normal = bots.NormalBot()
    for state, seat, obs, legal in decisions(seats, 30 + seats, 40):
        world, _pool = search.root_world(obs)
        for s, hand in enumerate(state.hands):
            world.counts[s], world.jokers[s] = counts_of(hand)
        world.stock = [0] * obs["stock"]
        move = search.normal_move(world, seat)
        pick = normal.choose(obs, legal)
        if pick["type"] == "pass":
            assert move is None
        else:
            combo, used, jokers = move
            counts, pick_jokers = counts_of(pick["cards"])
            assert (combo.kind, combo.low, combo.count) == (
                pick["combo"]["kind"],
                pick["combo"]["low"],
                pick["combo"]["count"],
            )
            mine = [0] * 13
            for r, k in used:
                mine[r] += k
            assert (mine, jokers) == (counts, pick_jokers)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_true_deal_fits_the_opponents_last_two_tricks(seats):
    """Against Normal, the real hands always fit what inference reads off the log."""
    rng = random.Random(5)
    checked = 0
    found = [d for seed in range(50, 54) for d in decisions(seats, seed, 60)]
    for state, seat, obs, _legal in found:
        seen = search.checks(obs, 2)
        world, _pool = search.root_world(obs)
        for s, hand in enumerate(state.hands):
            world.counts[s], world.jokers[s] = counts_of(hand)
        assert all(ck.seat != seat for ck in seen)
        assert all(search.agrees(world, ck, rng) for ck in seen)
        checked += len(seen)
    assert checked > 20
