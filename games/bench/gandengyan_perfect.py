"""Gan Deng Yan's perfect-information player, benchmark-only (see games/bench/perfect.py)."""

from __future__ import annotations

import random

from games.bench.perfect import best
from games.bots import gandengyan, gandengyan_search
from games.engine.cards import JOKERS
from games.engine.gandengyan.combos import INDEX
from games.engine.gandengyan.combos import counts_of as gandengyan_counts


class GanDengYanPerfect:
    """Hard's candidates played out on the true hands (and, by default, the true stock)."""

    sees_all = True

    def __init__(self, candidates: int = 6, stock: bool = True, samples: int = 16):
        self.search = gandengyan.HardBot(candidates=candidates)
        self.stock = stock
        self.samples = max(1, int(samples))  # deals of the stock, with stock=false only

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        raise TypeError("the perfect player needs the whole state: act_seeing_all")

    def act_seeing_all(self, game, state, seat: int, legal: list[dict], rng: random.Random):
        observation = game.observation(state, seat)
        candidates = self.search.shortlist(observation, legal)
        if candidates is None:
            return legal[0]
        if len(candidates) == 1:
            return candidates[0]
        return best(candidates, self.values(game, state, observation, candidates, rng))

    def values(self, game, state, observation: dict, candidates: list[dict], rng):
        """Each candidate's score for this seat at the round's end, over the true world (or
        over ``samples`` deals of the stock, the same ones for every candidate)."""
        me = observation["seat"]
        world, _pool = gandengyan_search.root_world(observation)
        data = game.to_json(state)
        for s, hand in enumerate(data["hands"]):
            world.counts[s], world.jokers[s] = gandengyan_counts(hand)
        # The engine draws from the front of its stock, the search's world from the end.
        joker = gandengyan_search.JOKER
        world.stock = [joker if c in JOKERS else INDEX[c[0]] for c in reversed(data["stock"])]
        worlds = [world]
        if not self.stock:
            worlds = []
            for _ in range(self.samples):
                w = world.copy()
                rng.shuffle(w.stock)
                worlds.append(w)
        return gandengyan_search.mean_scores(worlds, gandengyan_search.moves_of(candidates), me)
