"""Hard's look-ahead for Gan Deng Yan: sample the unseen cards, play each candidate out.

The unseen cards are those neither in Hard's hand nor played this round (the observation's
``unseen`` counts); they are dealt at random into the opponents' hands, at the counts the
table shows, and the stock, at its size. Every candidate then plays out the same sampled
deal (common random numbers) with a fast greedy policy for all seats, working on rank
counts only, and is scored by the round's settlement from Hard's seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from games.engine.base import Combo
from games.engine.gandengyan.combos import (
    ACE,
    BOMB,
    INDEX,
    JOKER_BOMB,
    ORDER,
    PAIR,
    PAIR_RUN,
    SINGLE,
    STRAIGHT,
    TWO,
    counts_of,
    follow_plays,
    lead_plays,
    readings_of_counts,
)
from games.engine.gandengyan.scoring import CAP

JOKER = 13  # a joker in a sampled stock
MAX_STEPS = 400


class World:
    """One sampled deal of the unseen cards, the round as Hard's seat sees it otherwise."""

    __slots__ = (
        "counts",
        "jokers",
        "stock",
        "table",
        "table_seat",
        "passes",
        "turn",
        "bombs",
        "played",
        "draw_all",
        "n",
    )

    def copy(self) -> World:
        w = World.__new__(World)
        w.counts = [list(c) for c in self.counts]
        w.jokers = list(self.jokers)
        w.stock = list(self.stock)
        w.table, w.table_seat, w.passes, w.turn = (
            self.table,
            self.table_seat,
            self.passes,
            self.turn,
        )
        w.bombs, w.played, w.draw_all, w.n = self.bombs, list(self.played), self.draw_all, self.n
        return w

    def size(self, seat: int) -> int:
        return sum(self.counts[seat]) + self.jokers[seat]

    def threat(self, seat: int) -> int:
        return min(self.size(s) for s in range(self.n) if s != seat)

    def play(self, seat: int, combo: Combo, used: list[int] | tuple, jokers: int) -> bool:
        """Make a play; True when it empties the hand."""
        c = self.counts[seat]
        if isinstance(used, tuple):
            for r, k in used:
                c[r] -= k
        else:
            for r in range(13):
                c[r] -= used[r]
        self.jokers[seat] -= jokers
        self.played[seat] = True
        if combo.kind in (BOMB, JOKER_BOMB):
            self.bombs += 1
        self.table, self.table_seat, self.passes = combo, seat, 0
        if self.size(seat) == 0:
            return True
        self.turn = (seat + 1) % self.n
        return False

    def pass_(self, seat: int) -> None:
        self.passes += 1
        if self.passes < self.n - 1:
            self.turn = (seat + 1) % self.n
            return
        winner = self.table_seat
        drawers = range(self.n) if self.draw_all else range(1)
        for k in drawers:
            if not self.stock:
                break
            s = (winner + k) % self.n
            card = self.stock.pop()
            if card == JOKER:
                self.jokers[s] += 1
            else:
                self.counts[s][card] += 1
        self.table, self.passes, self.turn = None, 0, winner

    def score(self, winner: int, me: int) -> int:
        def pays(s: int) -> int:
            mult = 2**self.bombs * (1 if self.played[s] else 2) * 2 ** self.jokers[s]
            return self.size(s) * min(mult, CAP)

        if winner == me:
            return sum(pays(s) for s in range(self.n) if s != me)
        return -pays(me)


# --- the playout policy ------------------------------------------------------------------


def _segments(c: list[int], width: int, need: int) -> tuple[int, int] | None:
    """The longest run of ranks holding ``width``…2 cards (no bombs broken): (low, length)."""
    best, start = None, None
    for r in range(ACE + 2):
        ok = r <= ACE and width <= c[r] <= 2
        if ok and start is None:
            start = r
        elif not ok and start is not None:
            length = r - start
            if length >= need and (best is None or length > best[1]):
                best = (start, length)
            start = None
    return best


def lead(w: World, seat: int) -> tuple[Combo, Any, int]:
    c, j = w.counts[seat], w.jokers[seat]
    whole = readings_of_counts(c, j)
    if whole:
        return whole[0], tuple((r, c[r]) for r in range(13) if c[r]), j
    if not any(c):
        rank = "BJ"  # the lone last joker on an empty stock
        return Combo(SINGLE, rank, rank, 1), (), 1
    straight = _segments(c, 1, 3)
    pairs = _segments(c, 2, 2)
    if straight or pairs:
        if pairs and (not straight or 2 * pairs[1] >= straight[1]):
            low, length = pairs
            combo = Combo(PAIR_RUN, ORDER[low], ORDER[low + length - 1], 2 * length)
            return combo, tuple((r, 2) for r in range(low, low + length)), 0
        low, length = straight
        combo = Combo(STRAIGHT, ORDER[low], ORDER[low + length - 1], length)
        return combo, tuple((r, 1) for r in range(low, low + length)), 0
    threat = w.threat(seat)
    for r in range(TWO):
        k = c[r]
        if 1 <= k <= 2:
            if k == 1 and j and (not w.stock or sum(c) + j <= 5):
                return Combo(PAIR, ORDER[r], ORDER[r], 2), ((r, 1),), 1
            if threat <= k:
                continue  # an opponent going out on this shape: keep looking
            kind = SINGLE if k == 1 else PAIR
            return Combo(kind, ORDER[r], ORDER[r], k), ((r, k),), 0
    plays = lead_plays(c, j)
    # Nothing cheap: the highest single or pair, a 2, then the smallest bomb.
    simple = [p for p in plays if p[0].kind in (SINGLE, PAIR) and p[2] == 0]
    if simple:
        return max(simple, key=lambda p: (p[0].count, INDEX[p[0].low]))
    return min(plays, key=lambda p: (p[0].kind == JOKER_BOMB, p[0].count))


def follow(w: World, seat: int) -> tuple[Combo, Any, int] | None:
    c, j = w.counts[seat], w.jokers[seat]
    plays = follow_plays(c, j, w.table)
    if not plays:
        return None
    size = sum(c) + j
    for p in plays:
        if p[0].count == size:
            return p
    threat = w.threat(seat)
    plain = [p for p in plays if p[0].kind not in (BOMB, JOKER_BOMB)]
    if plain:
        natural = [p for p in plain if p[2] == 0 and p[0].low != "2"]
        if natural:
            return natural[0]
        if threat <= 2 or size <= 4 or c[TWO] >= 2:
            return min(plain, key=lambda p: p[2])
        if any(p[2] for p in plain) and not w.stock:
            return min(plain, key=lambda p: p[2])
    if threat <= 2 or size - plays[-1][0].count <= 2:
        bombs = [p for p in plays if p[0].kind in (BOMB, JOKER_BOMB)]
        if bombs:
            return min(bombs, key=lambda p: (p[0].kind == JOKER_BOMB, p[0].count))
    return None


def playout(w: World, me: int) -> int:
    for _ in range(MAX_STEPS):
        seat = w.turn
        move = lead(w, seat) if w.table is None else follow(w, seat)
        if move is None:
            w.pass_(seat)
        elif w.play(seat, *move):
            return w.score(seat, me)
    return 0


# --- the search --------------------------------------------------------------------------


def root_world(obs: dict[str, Any]) -> tuple[World, list[int]]:
    """The round as seen, opponents' hands empty, and the pool of unseen cards to deal."""
    n, me = obs["seats"], obs["seat"]
    w = World.__new__(World)
    w.n = n
    w.counts = [[0] * 13 for _ in range(n)]
    w.jokers = [0] * n
    w.counts[me], w.jokers[me] = counts_of(obs["hand"])
    w.stock = []
    table = obs["table"]
    w.table = Combo.from_dict(table["combo"]) if table else None
    w.table_seat = table["seat"] if table else None
    w.passes = obs["passes"]
    w.turn = me
    w.bombs = obs["bombs"]
    w.played = [s not in obs["not_played"] for s in range(n)]
    w.draw_all = obs["draw"] == "all"
    pool = [INDEX[r] for r in ORDER for _ in range(obs["unseen"][r])]
    pool += [JOKER] * obs["unseen"]["jokers"]
    return w, pool


def deal_unseen(base: World, pool: list[int], obs: dict[str, Any], rng: random.Random) -> World:
    w = base.copy()
    cards = list(pool)
    rng.shuffle(cards)
    pos = 0
    for s in range(w.n):
        if s == obs["seat"]:
            continue
        for card in cards[pos : pos + obs["counts"][s]]:
            if card == JOKER:
                w.jokers[s] += 1
            else:
                w.counts[s][card] += 1
        pos += obs["counts"][s]
    w.stock = cards[pos:]  # drawn from the end
    return w


def values(
    obs: dict[str, Any], candidates: list[dict], rng: random.Random, samples: int
) -> list[float] | None:
    """Each candidate's mean score for this seat over ``samples`` deals of the unseen cards
    (the same deals for every candidate), or None for an observation that does not add up."""
    me = obs["seat"]
    base, pool = root_world(obs)
    if len(pool) != sum(obs["counts"][s] for s in range(obs["seats"]) if s != me) + obs["stock"]:
        return None
    worlds = (deal_unseen(base, pool, obs, rng) for _ in range(samples))
    return mean_scores(worlds, moves_of(candidates), me)


def moves_of(candidates: list[dict]) -> list:
    """Each candidate action as the search plays it: None for a pass, else its combo with the
    rank counts and jokers of its cards."""
    moves = []
    for action in candidates:
        if action["type"] == "pass":
            moves.append(None)
        else:
            counts, jokers = counts_of(action["cards"])
            moves.append((Combo.from_dict(action["combo"]), counts, jokers))
    return moves


def mean_scores(worlds: Iterable[World], moves: list, me: int) -> list[float]:
    """Each move's mean score for ``me`` over ``worlds`` (each world copied for every move),
    the round played out by the greedy policy after it."""
    totals = [0.0] * len(moves)
    count = 0
    for world in worlds:
        count += 1
        for i, move in enumerate(moves):
            w = world.copy()
            if move is None:
                w.pass_(me)
                totals[i] += playout(w, me)
            elif w.play(me, *move):
                totals[i] += w.score(me, me)
            else:
                totals[i] += playout(w, me)
    return [t / max(1, count) for t in totals]


def search(obs: dict[str, Any], candidates: list[dict], rng: random.Random, samples: int) -> dict:
    totals = values(obs, candidates, rng, samples)
    if totals is None:
        return candidates[0]  # an observation that does not add up: trust the heuristics
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]
