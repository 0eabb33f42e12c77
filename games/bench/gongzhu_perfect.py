"""Gong Zhu's perfect-information player, benchmark-only (see games/bench/perfect.py)."""

from __future__ import annotations

import random

from games.bench.perfect import best
from games.bots import gongzhu, gongzhu_sampler


class GongZhuPerfect:
    """Every legal card played out with Normal for all four seats from the true state.

    It keeps the card of the best own hand score less the other seats' mean, Hard's aim;
    ``margin=false`` keeps the card of the best own score, the sampler's aim (measured against
    Normal in pairs, 200 deals: +168 points per hand, against +252 for the margin)."""

    sees_all = True

    def __init__(self, margin: bool = True):
        self.policy = gongzhu.NormalBot()
        self.margin = margin

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        raise TypeError("the perfect player needs the whole state: act_seeing_all")

    def act_seeing_all(self, game, state, seat: int, legal: list[dict], rng: random.Random):
        if len(legal) == 1:
            return legal[0]
        observation = game.observation(state, seat)
        if legal[0]["type"] == "expose":
            return self.policy.act(observation, legal, rng)
        return best(legal, self.values(game, state, seat, legal, rng))

    def values(self, game, state, seat: int, legal: list[dict], rng: random.Random):
        """Each legal card's hand score for this seat (less the others' mean with ``margin``),
        all four seats then playing Normal."""
        playout_seed = rng.getrandbits(64)
        values = []
        for action in legal:
            after = game.apply(state, seat, action)
            scores = gongzhu_sampler.play_out(after, self.policy, random.Random(playout_seed))
            others = [score for s, score in enumerate(scores) if s != seat]
            values.append(scores[seat] - (sum(others) / len(others) if self.margin else 0))
        return values
