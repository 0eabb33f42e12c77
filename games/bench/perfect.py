"""Perfect-information players: benchmark-only, the ceiling no honest bot reaches (issue #15).

Each game's bench plug-in names its player ``perfect`` in ``players()``; ``get_bot`` never
reaches them and no table can seat them, because they cheat: the harness hands them the whole
engine state (``sees_all``, see games/bench/harness.py) where every other bot gets its seat's
observation. Each one runs its game's honest search on the one true deal instead of sampled
deals, so that ``perfect`` against Normal, set beside Hard against Normal, tells how much of
the edge that perfect information would give Hard already has:

- Gong Zhu: as the sampler (games/bots/gongzhu_sampler.py), every legal card is played out to
  the end of the hand with Normal in all four seats, from the true state; the card of the
  best own score less the others' mean (Hard's aim; ``margin=false``: the best own score, the
  sampler's) wins. Normal is deterministic, so one playout per card is the exact value.
  Exposure is Normal's choice.
- Dou Dizhu: Hard's search (games/bots/doudizhu.py) over the true hands: Normal's best few
  candidates, and passing, each played out once with Normal's policy (deterministic). A bid
  is chosen by playing the hand out on the engine with Normal in every seat after each legal
  bid.
- Gan Deng Yan: Hard's search (games/bots/gandengyan_search.py) on the true hands and the
  true stock: each of Normal's best few candidates, and passing, played out once with the
  search's greedy policy (deterministic). ``stock=false`` sees the hands only and deals the
  stock afresh ``samples`` times, as Hard does for every unseen card.

Every budget is a count of playouts, never a clock, and the only randomness is the rng given,
so a state and a seed give the same action on any machine.
"""

from __future__ import annotations

import random

from games.bots import doudizhu, gandengyan, gandengyan_search, gongzhu, gongzhu_sampler
from games.engine.cards import JOKERS
from games.engine.doudizhu.combos import counts_of as doudizhu_counts
from games.engine.gandengyan.combos import INDEX
from games.engine.gandengyan.combos import counts_of as gandengyan_counts


def best(actions: list[dict], values: list[float]) -> dict:
    """The action of the highest value; a tie goes to the earlier one (the heuristic's order)."""
    i = max(range(len(actions)), key=lambda k: (values[k], -k))
    return actions[i]


# --- Gong Zhu ------------------------------------------------------------------------------


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


# --- Dou Dizhu -----------------------------------------------------------------------------


class DouDizhuPerfect:
    """Hard's candidates played out on the true hands; bids played out on the engine."""

    sees_all = True

    def __init__(self, candidates: int = 4, endgame: int | None = None):
        # ``endgame``: as Hard's option (its default unless given)
        options = {} if endgame is None else {"endgame": endgame}
        self.search = doudizhu.HardBot(samples=1, candidates=candidates, smart=True, **options)
        self.policy = doudizhu.NormalBot()

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        raise TypeError("the perfect player needs the whole state: act_seeing_all")

    def act_seeing_all(self, game, state, seat: int, legal: list[dict], rng: random.Random):
        if len(legal) == 1:
            return legal[0]
        if legal[0]["type"] == "bid":
            bid_seed = rng.getrandbits(64)  # the same playout rng after every bid
            return best(legal, [self.bid_value(game, state, seat, a, bid_seed) for a in legal])
        view = doudizhu.View(game.observation(state, seat), legal)
        moves = self.search._shortlist(view)
        if len(moves) == 1:
            return doudizhu._to_action(view, moves[0])
        hands = true_counts(game, state)
        playout_seed = rng.random()
        endgame = self.search.endgame_solver()
        values = [
            doudizhu.playout(view, hands, m, random.Random(playout_seed), True, endgame)
            for m in moves
        ]
        return best([doudizhu._to_action(view, m) for m in moves], values)

    def bid_value(self, game, state, seat: int, action: dict, seed: int) -> float:
        """This seat's hand score after ``action``, every seat then bidding and playing as
        Normal; a deal thrown in (all passed) is worth nothing."""
        state = game.apply(state, seat, action)
        redeals = game.to_json(state)["redeals"]
        playout_rng = random.Random(seed)
        while not game.hand_over(state):
            if game.to_json(state)["redeals"] != redeals:
                return 0.0
            (mover,) = game.to_move(state)
            legal = game.legal_actions(state, mover)
            choice = self.policy.act(game.observation(state, mover), legal, playout_rng)
            state = game.apply(state, mover, choice)
        return float(game.hand_result(state)["scores"][seat])


# --- Gan Deng Yan --------------------------------------------------------------------------


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


def true_counts(game, state) -> list[list[int]]:
    """Dou Dizhu's hands as the bots' rank counts, from the engine's JSON form of the state."""
    return [doudizhu_counts(hand) for hand in game.to_json(state)["hands"]]
