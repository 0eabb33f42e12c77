"""Hard's look-ahead for Gan Deng Yan: sample the unseen cards, play each candidate out.

The unseen cards are those neither in Hard's hand nor played this round (the observation's
``unseen`` counts); they are dealt at random into the opponents' hands, at the counts the
table shows, and the stock, at its size. Every candidate then plays out the same sampled
deal (common random numbers) with a fast greedy policy for all seats, working on rank
counts only, and is scored by the round's settlement from Hard's seat.

Two refinements, each an option of Hard's: the round can be played out by Normal's own
policy on rank counts (``normal_choice``, the same choices as ``NormalBot``) for every seat
or for the opponents only; and the sampled deals can be kept to those in which Normal would
have made the opponents' decisions of the last tricks (``checks``, ``deal_fitting``).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from typing import Any

from games.bots.gandengyan import plan_cost as normal_plan_cost
from games.bots.gandengyan import play_value, worth_following
from games.engine.base import Combo
from games.engine.gandengyan import GanDengYanObservation
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
# Inference's effort per sampled deal, in cards of the hands Normal is asked about: a few
# tries at reading two or three decisions of hands of five or six cards.
INFER_CARDS = 60


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


# --- Normal's policy on rank counts ------------------------------------------------------

_PLAN: dict[tuple, float] = {}


def plan_cost(counts: list[int], jokers: int) -> float:
    """Normal's ``plan_cost``, remembered by hand (a pure function of the counts)."""
    key = (*counts, jokers)
    cost = _PLAN.get(key)
    if cost is None:
        if len(_PLAN) > 500_000:
            _PLAN.clear()
        cost = _PLAN[key] = normal_plan_cost(counts, jokers)
    return cost


def normal_value(
    c: list[int], j: int, table: Combo | None, threat: int, stock: int, play: tuple
) -> float:
    """Normal's ``score_play`` for a play from rank counts ``c`` and ``j`` jokers, with the
    table, the fewest cards an opponent holds and the stock's size as the seat sees them."""
    combo, used, used_jokers = play
    left = list(c)
    n_cards = used_jokers
    for r, k in used:
        left[r] -= k
        n_cards += k
    uses_two = left[TWO] < c[TWO]
    return play_value(
        left,
        j - used_jokers,
        n_cards,
        combo,
        uses_two,
        used_jokers,
        threat,
        stock,
        table is None,
        plan_cost,
    )


# Normal's choices, remembered across decisions. Keys and values hold numbers only: tables
# and plays stand for themselves by a number. Kept as objects, a full cache made every full
# pass of the garbage collector walk hundreds of thousands of them: a sixth of Hard's time,
# and its slowest decisions twice as slow.
CHOICE_CAP = 200_000  # choices remembered at most; past it they are forgotten together


class _Choices:
    """One generation of remembered choices with its own numbering; a full one is replaced
    whole, so a caller holding it keeps consistent numbers. New numbers are handed out under
    a lock: two threads never give two tables or plays the same one."""

    def __init__(self) -> None:
        self.by_key: dict[tuple, int] = {}
        self.tables: dict[Combo | None, int] = {}
        self.plays: dict[Any, int] = {}
        self.play_list: list = []

    def table_number(self, table: Combo | None) -> int:
        with _NUMBERING:
            return self.tables.setdefault(table, len(self.tables))

    def play_number(self, move) -> int:
        with _NUMBERING:
            number = self.plays.get(move)
            if number is None:
                number = self.plays[move] = len(self.play_list)
                self.play_list.append(move)
            return number


_NUMBERING = threading.Lock()
_choices = _Choices()


def normal_choice(
    c: list[int], j: int, table: Combo | None, threat: int, stock: int
) -> tuple[Combo, Any, int] | None:
    """What Normal would do holding rank counts ``c`` and ``j`` jokers (None: pass): its
    best-valued play when leading (the last of equals, as Normal breaks ties); when
    following, that play only if it is worth more than keeping the hand. Remembered by
    what it depends on: the hand, the table, the threat up to 3 cards, a stock under 6."""
    global _choices
    memo = _choices
    if len(memo.by_key) > CHOICE_CAP:
        memo = _choices = _Choices()
    table_number = memo.tables.get(table)
    if table_number is None:
        table_number = memo.table_number(table)
    key = (*c, j, table_number, min(threat, 3), stock < 6)
    number = memo.by_key.get(key)
    if number is None:
        move = _normal_choice(c, j, table, threat, stock)
        number = memo.by_key[key] = memo.play_number(move)
    return memo.play_list[number]


def _normal_choice(
    c: list[int], j: int, table: Combo | None, threat: int, stock: int
) -> tuple[Combo, Any, int] | None:
    if table is None:
        if not any(c):
            rank = "BJ"  # the lone last joker on an empty stock
            return Combo(SINGLE, rank, rank, 1), (), 1
        plays = lead_plays(c, j)
    else:
        plays = follow_plays(c, j, table)
        if not plays:
            return None
    best, best_value = None, None
    for p in plays:
        value = normal_value(c, j, table, threat, stock, p)
        if best_value is None or value >= best_value:
            best, best_value = p, value
    if table is None or worth_following(best_value, c, j, threat, plan_cost):
        return best
    return None


def normal_move(w: World, seat: int) -> tuple[Combo, Any, int] | None:
    """What Normal would do in the seat's place in the world (None: pass)."""
    return normal_choice(w.counts[seat], w.jokers[seat], w.table, w.threat(seat), len(w.stock))


def greedy_move(w: World, seat: int) -> tuple[Combo, Any, int] | None:
    return lead(w, seat) if w.table is None else follow(w, seat)


POLICIES = ("greedy", "normal", "mixed")


def playout(w: World, me: int, policy: str = "greedy") -> int:
    """The round played out from ``w``: every seat by the fast greedy (``greedy``), every
    seat as Normal plays (``normal``), or the opponents as Normal and ``me`` greedily
    (``mixed``); the settlement from ``me``'s seat (0 if it runs past ``MAX_STEPS``)."""
    for _ in range(MAX_STEPS):
        seat = w.turn
        if policy == "greedy" or (policy == "mixed" and seat == me):
            move = lead(w, seat) if w.table is None else follow(w, seat)
        else:
            move = normal_move(w, seat)
        if move is None:
            w.pass_(seat)
        elif w.play(seat, *move):
            return w.score(seat, me)
    return 0


# --- the search --------------------------------------------------------------------------


def root_world(obs: GanDengYanObservation) -> tuple[World, list[int]]:
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


def deal_unseen(
    base: World, pool: list[int], obs: GanDengYanObservation, rng: random.Random
) -> World:
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


# --- reading the opponents' decisions ----------------------------------------------------


class Check:
    """One opponent decision seen this round, as it can be replayed on a sampled hand: the
    seat, what it saw (the table, the fewest cards another seat held, the stock's size),
    what it did (None for a pass, else its combo with rank counts and jokers), and what has
    happened to its hand since (the cards it played, the cards it drew)."""

    __slots__ = ("seat", "table", "threat", "stock", "did", "played", "jokers", "drawn")


def checks(obs: GanDengYanObservation, tricks: int) -> list[Check]:
    """The opponents' decisions in the last ``tricks`` tricks of the round (the current one
    included), newest first; none when the log does not add up to the table's card counts."""
    n, me = obs["seats"], obs["seat"]
    dealer = obs["dealer"]
    sizes = [6 if s == dealer else 5 for s in range(n)]
    stock = 54 - sum(sizes)
    table = None
    trick = 0
    seen: list[tuple[int, int, dict, Combo | None, list[int], int]] = []
    for e in obs["log"]:
        kind = e["type"]
        if kind in ("play", "pass") and e["seat"] != me:
            s = e["seat"]
            threat = min(sizes[o] for o in range(n) if o != s)
            seen.append((trick, s, e, table, threat, stock))
        if kind == "play":
            sizes[e["seat"]] -= len(e["cards"])
            table = Combo.from_dict(e["combo"])
        elif kind == "trick_won":
            table = None
            trick += 1
        elif kind == "draw":
            sizes[e["seat"]] += e["count"]
            stock -= e["count"]
    if sizes != list(obs["counts"]) or stock != obs["stock"]:
        return []
    out: list[Check] = []
    played = [[0] * 13 for _ in range(n)]
    jokers = [0] * n
    drawn = [0] * n
    log = obs["log"]
    k = len(log)
    for t, s, e, table, threat, stock in reversed(seen):
        if t <= trick - tricks:
            break
        # What the seat has played and drawn since (this decision's own play included).
        while k > 0 and log[k - 1] is not e:
            k -= 1
            later = log[k]
            if later["type"] == "draw":
                drawn[later["seat"]] += later["count"]
            elif later["type"] == "play":
                c, j = counts_of(later["cards"])
                for r in range(13):
                    played[later["seat"]][r] += c[r]
                jokers[later["seat"]] += j
        ck = Check()
        ck.seat, ck.table, ck.threat, ck.stock = s, table, threat, stock
        if e["type"] == "pass":
            ck.did = None
        else:
            c, j = counts_of(e["cards"])
            ck.did = (Combo.from_dict(e["combo"]), c, j)
            for r in range(13):
                played[s][r] += c[r]
            jokers[s] += j
        k -= 1  # this decision's own entry
        ck.played, ck.jokers, ck.drawn = list(played[s]), jokers[s], drawn[s]
        out.append(ck)
    return out


class Effort:
    """What inference may still spend on one decision, in cards of the hands Normal is asked
    about (a count, so a seed fixes the decision; a big hand costs more to read)."""

    __slots__ = ("left",)

    def __init__(self, cards: int):
        self.left = cards


def agrees(w: World, ck: Check, rng: random.Random, effort: Effort | None = None) -> bool:
    """Whether Normal, holding in ``w`` what the seat held then (its cards now, plus what it
    played since, less the cards it drew since), does what it did. One card drawn since: any
    card of the hand may be it; more: as many cards taken at random. Each question asked of
    Normal is charged to ``effort``; with none left, the answer is yes."""
    c = [a + b for a, b in zip(w.counts[ck.seat], ck.played, strict=True)]
    j = w.jokers[ck.seat] + ck.jokers
    if ck.drawn == 1:
        for r in range(14):
            if r < 13 and c[r]:
                c[r] -= 1
                fits = _does(ck, c, j, effort)
                c[r] += 1
            elif r == 13 and j:
                fits = _does(ck, c, j - 1, effort)
            else:
                continue
            if fits:
                return True
        return False
    for _ in range(ck.drawn):
        pick = rng.randrange(sum(c) + j)
        if pick >= sum(c):
            j -= 1
            continue
        for r in range(13):
            if pick < c[r]:
                c[r] -= 1
                break
            pick -= c[r]
    return _does(ck, c, j, effort)


def _does(ck: Check, c: list[int], j: int, effort: Effort | None) -> bool:
    if effort is not None:
        if effort.left <= 0:
            return True
        effort.left -= sum(c) + j
    move = normal_choice(c, j, ck.table, ck.threat, ck.stock)
    if move is None or ck.did is None:
        return move is None and ck.did is None
    combo, used, used_jokers = move
    did, did_counts, did_jokers = ck.did
    if (combo.kind, combo.low, combo.count) != (did.kind, did.low, did.count):
        return False
    mine = [0] * 13
    for r, k in used:
        mine[r] += k
    return used_jokers == did_jokers and mine == did_counts


def deal_fitting(
    base: World,
    pool: list[int],
    obs: GanDengYanObservation,
    rng: random.Random,
    seen: list[Check],
    tries: int,
    effort: Effort | None = None,
) -> World:
    """A deal of the unseen cards in which Normal would have made the opponents' recent
    decisions: the first of ``tries`` deals that fits them all, else the one that fits the
    most of the newest (the checks are read newest first, up to the first misfit)."""
    best, best_fit = None, -1
    for _ in range(tries):
        w = deal_unseen(base, pool, obs, rng)
        fit = 0
        for ck in seen:
            if not agrees(w, ck, rng, effort):
                break
            fit += 1
        if fit == len(seen):
            return w
        if fit > best_fit:
            best, best_fit = w, fit
    return best


def values(
    obs: GanDengYanObservation,
    candidates: list[dict],
    rng: random.Random,
    samples: int,
    policy: str = "greedy",
    infer: int = 0,
    tries: int = 8,
) -> list[float] | None:
    """Each candidate's mean score for this seat over ``samples`` deals of the unseen cards
    (the same deals for every candidate), or None for an observation that does not add up.
    The rounds are played out by ``policy`` (``playout``); with ``infer``, each deal is the
    first of ``tries`` that fits the opponents' decisions of the last ``infer`` tricks."""
    me = obs["seat"]
    base, pool = root_world(obs)
    if len(pool) != sum(obs["counts"][s] for s in range(obs["seats"]) if s != me) + obs["stock"]:
        return None
    seen = checks(obs, infer) if infer else []
    if seen:
        effort = Effort(INFER_CARDS * samples)
        worlds = (deal_fitting(base, pool, obs, rng, seen, tries, effort) for _ in range(samples))
    else:
        worlds = (deal_unseen(base, pool, obs, rng) for _ in range(samples))
    return mean_scores(worlds, moves_of(candidates), me, policy)


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


def mean_scores(
    worlds: Iterable[World], moves: list, me: int, policy: str = "greedy"
) -> list[float]:
    """Each move's mean score for ``me`` over ``worlds`` (each world copied for every move),
    the round played out by ``policy`` after it (``playout``)."""
    totals = [0.0] * len(moves)
    count = 0
    for world in worlds:
        count += 1
        for i, move in enumerate(moves):
            w = world.copy()
            if move is None:
                w.pass_(me)
                totals[i] += playout(w, me, policy)
            elif w.play(me, *move):
                totals[i] += w.score(me, me)
            else:
                totals[i] += playout(w, me, policy)
    return [t / max(1, count) for t in totals]
