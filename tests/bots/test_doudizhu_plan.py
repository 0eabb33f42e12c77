"""The Dou Dizhu bots' hand planner: a plan splits the hand exactly, and its caches stay
small enough for the garbage collector (a full pass walks every entry)."""

from __future__ import annotations

import random

from games.bots import doudizhu_plan
from games.bots.doudizhu_plan import plan
from games.engine.doudizhu.combos import NRANKS, counts_of


def _random_hand(rng: random.Random, size: int) -> tuple:
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    counts = [0] * NRANKS
    for r in rng.sample(deck, size):
        counts[r] += 1
    return tuple(counts)


def test_a_plan_splits_the_hand_exactly():
    rng = random.Random(4)
    for size in (1, 5, 12, 17, 20):
        for _ in range(60):
            hand = _random_hand(rng, size)
            (cost, _weak), units = plan(hand)
            used = [0] * NRANKS
            for _kind, _low, _length, ranks in units:
                for r in ranks:
                    used[r] += 1
            assert tuple(used) == hand and cost == len(units)


def test_a_chain_and_its_rest():
    hand = tuple(counts_of(["3S", "4H", "5D", "6C", "7S", "9H", "9D", "KS"]))
    (cost, _weak), units = plan(hand)
    assert cost == 3
    assert {u[0] for u in units} == {"chain", "pair", "solo"}


def test_the_caches_stay_bounded():
    # The search's subproblems are remembered for one plan only; plans themselves, 50,000.
    assert not hasattr(doudizhu_plan._best, "cache_info")
    assert plan.cache_info().maxsize == 50_000
