"""Valid plays and who beats whom ("Valid plays", "Jokers", the two exceptions; RULINGS.md,
Gan Deng Yan: following, bombs, jokers).

Ranks are worked on as indexes into ``ORDER`` (``3`` … ``A`` then ``2``); a hand is a
vector of 13 rank counts plus a number of jokers, since suits never matter and the two
jokers are interchangeable. Every play is found from those counts, never from card subsets,
so a 30-card hand costs no more than a 10-card one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import Any

from games.engine.base import Combo
from games.engine.cards import JOKERS

ORDER = "3456789TJQKA2"
INDEX = {rank: i for i, rank in enumerate(ORDER)}
TWO = INDEX["2"]  # 12
ACE = INDEX["A"]  # 11: the highest rank a straight or pair run can reach

SINGLE, PAIR, STRAIGHT, PAIR_RUN, BOMB, JOKER_BOMB = (
    "single",
    "pair",
    "straight",
    "pair_run",
    "bomb",
    "joker_bomb",
)
KINDS = (SINGLE, PAIR, STRAIGHT, PAIR_RUN, BOMB, JOKER_BOMB)
RUN_KINDS = (STRAIGHT, PAIR_RUN)

JOKER_BOMB_COMBO = Combo(JOKER_BOMB, None, None, 2)


def card_order(card: str) -> tuple[int, str]:
    """Sort key for a hand: rank order 3 … A, 2, then the small and the big joker."""
    if card in JOKERS:
        return (13 + JOKERS.index(card), "")
    return (INDEX[card[0]], card[1])


# Each card's rank index (the jokers have none).
RANK_INDEX = {r + s: i for i, r in enumerate(ORDER) for s in "SHDC"}


def counts_of(cards: Iterable[str]) -> tuple[list[int], int]:
    """The 13 rank counts and the number of jokers of a selection."""
    counts = [0] * 13
    jokers = 0
    for card in cards:
        i = RANK_INDEX.get(card)
        if i is not None:
            counts[i] += 1
        elif card in JOKERS:
            jokers += 1
        else:
            raise KeyError(card)
    return counts, jokers


# --- readings -------------------------------------------------------------------------


def readings(cards: Iterable[str]) -> list[Combo]:
    """Every way to read the selection as one play; ``[]`` if none.

    Context-free: the lone last joker (a single joker to go out on an empty stock) is the
    engine's business, not a reading.
    """
    cards = list(cards)
    counts, jokers = counts_of(cards)
    return readings_of_counts(counts, jokers)


def readings_of_counts(counts: list[int], jokers: int, *, two_in_runs: bool = False) -> list[Combo]:
    n = sum(counts) + jokers
    if n == 0:
        return []
    if jokers == 2 and n == 2:
        # Both jokers alone are the joker bomb, never a pair.
        return [JOKER_BOMB_COMBO]
    held = [i for i in range(13) if counts[i]]
    if not held:
        return []  # a lone joker
    out: list[Combo] = []
    if len(held) == 1:
        r = held[0]
        rank = ORDER[r]
        if n == 1:
            out.append(Combo(SINGLE, rank, rank, 1))
        elif n == 2 and (jokers == 0 or r != TWO):
            out.append(Combo(PAIR, rank, rank, 2))
        elif n >= 3 and (jokers == 0 or r != TWO):
            out.append(Combo(BOMB, rank, rank, n))
    top = TWO if two_in_runs else ACE
    lo, hi = held[0], held[-1]
    if hi <= top:
        if n >= 3 and max(counts) == 1:
            for low in range(max(0, hi - n + 1), min(lo, top - n + 1) + 1):
                out.append(Combo(STRAIGHT, ORDER[low], ORDER[low + n - 1], n))
        if n >= 4 and n % 2 == 0 and max(counts) <= 2:
            length = n // 2
            for low in range(max(0, hi - length + 1), min(lo, top - length + 1) + 1):
                out.append(Combo(PAIR_RUN, ORDER[low], ORDER[low + length - 1], n))
    return out


# --- beating --------------------------------------------------------------------------


def one_higher(rank: str) -> str | None:
    """The rank exactly one higher for following: ``K`` → ``A``; nothing above ``A`` or ``2``
    (the ``2`` beats an ``A`` by its own exception, not by being one higher)."""
    i = INDEX[rank]
    return ORDER[i + 1] if i < ACE else None


def bomb_key(combo: Combo) -> tuple[int, int]:
    return (combo.count, INDEX[combo.low])


def beats(new: Combo, old: Combo) -> bool:
    """Whether ``new`` may follow ``old``."""
    if old.kind == JOKER_BOMB:
        return False
    if new.kind == JOKER_BOMB:
        return True
    if new.kind == BOMB:
        return old.kind != BOMB or bomb_key(new) > bomb_key(old)
    if old.kind == BOMB or new.kind != old.kind or new.count != old.count:
        return False
    if old.low not in INDEX or new.low not in INDEX:
        return False  # the lone last joker ends the round; nothing follows it
    if new.kind in (SINGLE, PAIR) and new.low == "2":
        return old.low != "2"
    return one_higher(old.low) == new.low


# --- plays from rank counts -----------------------------------------------------------

# The readings a play can have, made once: move generation hands these out instead of making
# a new (equal, immutable) Combo for every play it lists.
SINGLES = [Combo(SINGLE, ORDER[r], ORDER[r], 1) for r in range(13)]
PAIRS = [Combo(PAIR, ORDER[r], ORDER[r], 2) for r in range(13)]
STRAIGHTS = {
    (low, n): Combo(STRAIGHT, ORDER[low], ORDER[low + n - 1], n)
    for n in range(3, TWO + 2)
    for low in range(0, TWO - n + 2)
}
PAIR_RUNS = {
    (low, n): Combo(PAIR_RUN, ORDER[low], ORDER[low + n - 1], 2 * n)
    for n in range(2, TWO + 2)
    for low in range(0, TWO - n + 2)
}
# One deck: at most four cards of a rank, and both jokers standing in.
BOMBS = {(r, n): Combo(BOMB, ORDER[r], ORDER[r], n) for r in range(13) for n in range(3, 7)}
_KNOWN = {
    (c.kind, c.low, c.high, c.count): c
    for c in (
        *SINGLES,
        *PAIRS,
        *STRAIGHTS.values(),
        *PAIR_RUNS.values(),
        *BOMBS.values(),
        JOKER_BOMB_COMBO,
    )
}


def combo_of(data: Any) -> Combo:
    """A Combo from its dict form (``Combo.from_dict``), the shared one when it is one of the
    readings above: the engine reads the table's combo at every step."""
    try:
        key = (data["kind"], data["low"], data["high"], data["count"])
        known = _KNOWN.get(key) if len(data) == 4 and type(key[3]) is int else None
    except (TypeError, KeyError):
        known = None
    return known if known is not None else Combo.from_dict(data)


# A play up to suit and joker: its reading, the count of real cards used per rank index
# (only ranks that are used), and how many jokers it uses.
Play = tuple[Combo, tuple[tuple[int, int], ...], int]


def _singles(counts: list[int], ranks: Iterable[int]) -> Iterator[Play]:
    for r in ranks:
        if counts[r]:
            yield SINGLES[r], ((r, 1),), 0


def _pairs(
    counts: list[int], jokers: int, ranks: Iterable[int], natural_twos: bool = True
) -> Iterator[Play]:
    for r in ranks:
        combo = PAIRS[r]
        if counts[r] >= 2 and (r != TWO or natural_twos):
            yield combo, ((r, 2),), 0
        if counts[r] >= 1 and jokers and r != TWO:
            yield combo, ((r, 1),), 1


def _bombs(counts: list[int], jokers: int) -> Iterator[Play]:
    if max(counts) + jokers < 3:
        return  # the usual case: nothing to bomb with
    for r in range(13):
        c = counts[r]
        if not c:
            continue
        wild = 0 if r == TWO else jokers
        if c + wild < 3:
            continue
        for real in range(1, c + 1):
            for j in range(wild + 1):
                if real + j >= 3:
                    yield BOMBS[r, real + j], ((r, real),), j


def _straights(counts: list[int], jokers: int, low: int, length: int) -> Iterator[Play]:
    span = range(low, low + length)
    missing = [r for r in span if not counts[r]]
    if len(missing) > jokers:
        return
    present = [r for r in span if counts[r]]
    combo = STRAIGHTS[low, length]
    for extra in range(jokers - len(missing) + 1):
        for replaced in combinations(present, extra):
            used = tuple([(r, 1) for r in present if r not in replaced])
            if used:
                yield combo, used, len(missing) + extra


def _pair_runs(counts: list[int], jokers: int, low: int, length: int) -> Iterator[Play]:
    span = range(low, low + length)
    if sum(2 - counts[r] for r in span if counts[r] < 2) > jokers:
        return
    combo = PAIR_RUNS[low, length]

    def fill(i: int, budget: int, used: tuple[tuple[int, int], ...]) -> Iterator[Play]:
        if i == length:
            yield combo, used, jokers - budget
            return
        r = span[i]
        for real in range(min(2, counts[r]), -1, -1):
            need = 2 - real
            if need > budget:
                break
            yield from fill(i + 1, budget - need, (*used, (r, real)) if real else used)

    yield from fill(0, jokers, ())


def _runs(counts: list[int], jokers: int) -> Iterator[Play]:
    # Which windows of ranks can hold a run at all, from running sums of what each window
    # lacks (ranks for a straight, cards for a pair run) against the jokers: most hands can
    # form few of the 144 windows, and the others cost one subtraction each.
    gaps = [0]  # ranks missing, 3 … A
    short = [0]  # cards missing to a pair of each rank
    for r in range(ACE + 1):
        c = counts[r]
        gaps.append(gaps[-1] + (c == 0))
        short.append(short[-1] + (2 - c if c < 2 else 0))
    longest = min(ACE + 1, ACE + 1 - gaps[-1] + jokers)
    for length in range(3, longest + 1):
        for low in range(0, ACE - length + 2):
            if gaps[low + length] - gaps[low] <= jokers:
                yield from _straights(counts, jokers, low, length)
    for length in range(2, ACE + 2):
        feasible = False
        for low in range(0, ACE - length + 2):
            if short[low + length] - short[low] <= jokers:
                feasible = True
                yield from _pair_runs(counts, jokers, low, length)
        if not feasible:
            break  # a longer window lacks at least as much as the one it contains


def lead_plays(counts: list[int], jokers: int) -> list[Play]:
    """Every play open to a leader holding these counts (the lone last joker aside)."""
    plays: list[Play] = []
    plays.extend(_singles(counts, range(13)))
    plays.extend(_pairs(counts, jokers, range(13)))
    plays.extend(_runs(counts, jokers))
    plays.extend(_bombs(counts, jokers))
    if jokers == 2:
        plays.append((JOKER_BOMB_COMBO, (), 2))
    return plays


def follow_plays(counts: list[int], jokers: int, table: Combo) -> list[Play]:
    """Every play that beats ``table``, found without listing the plays that don't."""
    if table.kind == JOKER_BOMB or table.low not in INDEX:
        return []
    plays: list[Play] = []
    kind = table.kind
    if kind in (SINGLE, PAIR):
        r = INDEX[table.low]
        targets = [r + 1] if r < ACE else []
        if r != TWO:
            targets.append(TWO)
        if kind == SINGLE:
            plays.extend(_singles(counts, targets))
        else:
            plays.extend(_pairs(counts, jokers, targets))
    elif kind in RUN_KINDS:
        low = INDEX[table.low] + 1
        length = table.count if kind == STRAIGHT else table.count // 2
        if low + length - 1 <= ACE:
            make = _straights if kind == STRAIGHT else _pair_runs
            plays.extend(make(counts, jokers, low, length))
    plays.extend(
        p for p in _bombs(counts, jokers) if kind != BOMB or bomb_key(p[0]) > bomb_key(table)
    )
    if jokers == 2:
        plays.append((JOKER_BOMB_COMBO, (), 2))
    return plays


def joker_stand_ins(combo: Combo, cards: Iterable[str]) -> dict[str, str]:
    """Which rank each joker of a play stands for ("as 9"), jokers taking the gaps in
    rank order, the small joker first."""
    cards = list(cards)
    jokers = sorted((c for c in cards if c in JOKERS), key=JOKERS.index)
    if not jokers or combo.low not in INDEX:
        return {}
    counts, _ = counts_of(cards)
    lo, hi = INDEX[combo.low], INDEX[combo.high]
    per_rank = {SINGLE: 1, PAIR: 2, STRAIGHT: 1, PAIR_RUN: 2}.get(combo.kind, combo.count)
    gaps: list[str] = []
    for r in range(lo, hi + 1):
        gaps.extend(ORDER[r] for _ in range(per_rank - counts[r]))
    return dict(zip(jokers, gaps, strict=False))
