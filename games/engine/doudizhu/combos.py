"""Dou Dizhu combinations (RULINGS.md, Dou Dizhu: chains, kickers, following; the rule text's
"Gültige Kombinationen" and "Spielablauf").

Everything here works on rank counts: a hand is 15 counts, one per rank index
``3 … A, 2, BJ, RJ`` (0 … 14), and a play is a ``Move`` tuple ``(kind, low, length, ranks)``:
``low`` the lowest main rank index, ``length`` the number of main ranks (chain length, trios
in an airplane; 1 otherwise) and ``ranks`` the sorted rank index of every card, kickers and
wings included. Suits never matter, so the generators never look at subsets of cards.
"""

from __future__ import annotations

from itertools import combinations

from games.engine.base import Combo

RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ")
RANK_INDEX = {name: i for i, name in enumerate(RANK_NAMES)}
ACE, TWO, BJ, RJ = 11, 12, 13, 14
NRANKS = 15

KINDS = (
    "solo",
    "pair",
    "trio",
    "trio_solo",
    "trio_pair",
    "chain",
    "pair_chain",
    "airplane",
    "airplane_solo",
    "airplane_pair",
    "four_two_solo",
    "four_two_pair",
    "bomb",
    "rocket",
)

# Shortest runs (RULINGS: chains 5 to 12 singles, pair chains 3+ pairs, airplanes 2+ trios).
CHAIN_MIN, CHAIN_MAX = 5, 12
PAIR_CHAIN_MIN = 3
AIRPLANE_MIN = 2

Move = tuple  # (kind: str, low: int, length: int, ranks: tuple[int, ...])

_CARD_RANK = {c: i for i, c in enumerate("3456789TJQKA2")}


def rank_index(card: str) -> int:
    """The rank index of a card code (``BJ`` 13, ``RJ`` 14)."""
    if card == "BJ":
        return BJ
    if card == "RJ":
        return RJ
    return _CARD_RANK[card[0]]


CARD_INDEX = {r + s: i for r, i in _CARD_RANK.items() for s in "SHDC"} | {"BJ": BJ, "RJ": RJ}


def counts_of(cards) -> list[int]:
    counts = [0] * NRANKS
    index = CARD_INDEX
    for card in cards:
        counts[index[card]] += 1
    return counts


def counts_of_ranks(ranks) -> list[int]:
    counts = [0] * NRANKS
    for r in ranks:
        counts[r] += 1
    return counts


def to_combo(move: Move) -> Combo:
    kind, low, length, ranks = move
    if kind == "rocket":
        return Combo("rocket", None, None, 2)
    return Combo(kind, RANK_NAMES[low], RANK_NAMES[low + length - 1], len(ranks))


def combo_key(combo: Combo) -> tuple[str, int, int, int] | None:
    """``(kind, low, length, count)`` of a Combo, or None when it names no Dou Dizhu play."""
    if combo.kind == "rocket":
        return ("rocket", RJ, 1, 2) if combo.low is None and combo.high is None else None
    if combo.kind not in KINDS or combo.low not in RANK_INDEX or combo.high not in RANK_INDEX:
        return None
    low, high = RANK_INDEX[combo.low], RANK_INDEX[combo.high]
    if high < low:
        return None
    return (combo.kind, low, high - low + 1, combo.count)


def move_key(move: Move) -> tuple[str, int, int, int]:
    kind, low, length, ranks = move
    return (kind, low, length, len(ranks))


# --------------------------------------------------------------------------- readings


def read_counts(c: list[int]) -> list[Move]:
    """Every reading of a selection given as rank counts (the contract's ``readings``)."""
    n = sum(c)
    if n == 0 or c[BJ] > 1 or c[RJ] > 1 or max(c) > 4:
        return []
    ranks = tuple(r for r in range(NRANKS) for _ in range(c[r]))
    present = [r for r in range(NRANKS) if c[r]]
    out: list[Move] = []
    if n == 1:
        return [("solo", present[0], 1, ranks)]
    if n == 2:
        if c[BJ] and c[RJ]:
            return [("rocket", RJ, 1, ranks)]
        if len(present) == 1:
            return [("pair", present[0], 1, ranks)]
        return []
    if len(present) == 1:
        r = present[0]
        if n == 3:
            return [("trio", r, 1, ranks)]
        return [("bomb", r, 1, ranks)]  # n == 4
    if n == 4:
        for r in present:
            if c[r] == 3:
                out.append(("trio_solo", r, 1, ranks))
        return out
    if n == 5:
        for r in present:
            if c[r] == 3 and len(present) == 2:
                other = present[0] if present[1] == r else present[1]
                if c[other] == 2:
                    out.append(("trio_pair", r, 1, ranks))
    # runs: all main ranks consecutive within 3 … A
    lo, hi = present[0], present[-1]
    if hi <= ACE and hi - lo + 1 == len(present):
        same = {c[r] for r in present}
        if same == {1} and CHAIN_MIN <= n <= CHAIN_MAX:
            out.append(("chain", lo, n, ranks))
        elif same == {2} and n // 2 >= PAIR_CHAIN_MIN:
            out.append(("pair_chain", lo, n // 2, ranks))
        elif same == {3} and n // 3 >= AIRPLANE_MIN:
            out.append(("airplane", lo, n // 3, ranks))
    # airplanes with wings: k consecutive ranks held exactly three times
    for wing, per in (("airplane_solo", 4), ("airplane_pair", 5)):
        if n % per:
            continue
        k = n // per
        if k < AIRPLANE_MIN:
            continue
        for low in range(0, ACE - k + 2):
            if all(c[r] == 3 for r in range(low, low + k)):
                rest = [r for r in present if not low <= r < low + k]
                if wing == "airplane_solo":
                    ok = len(rest) == k and all(c[r] == 1 for r in rest)
                    ok = ok and not (c[BJ] and c[RJ])
                else:
                    ok = len(rest) == k and all(c[r] == 2 for r in rest)
                if ok:
                    out.append((wing, low, k, ranks))
    # four with two
    if n in (6, 8):
        for r in present:
            if c[r] != 4:
                continue
            rest = [x for x in present if x != r]
            solo_ok = len(rest) == 2 and all(c[x] == 1 for x in rest)
            if n == 6 and solo_ok and not (c[BJ] and c[RJ]):
                out.append(("four_two_solo", r, 1, ranks))
            if n == 8 and len(rest) == 2 and all(c[x] == 2 for x in rest):
                out.append(("four_two_pair", r, 1, ranks))
    return out


def readings(cards) -> list[Combo]:
    """Every way to read a selection of cards as one play; ``[]`` if none (contract)."""
    cards = list(cards)
    if len(set(cards)) != len(cards):
        return []
    try:
        c = counts_of(cards)
    except (KeyError, IndexError, TypeError):
        return []
    return [to_combo(m) for m in read_counts(c)]


# --------------------------------------------------------------------------- beating


def beats_key(new: tuple, old: tuple) -> bool:
    """``beats`` on ``(kind, low, length, count)`` keys."""
    nk, ok = new[0], old[0]
    if ok == "rocket":
        return False
    if nk == "rocket":
        return True
    if nk == "bomb":
        return ok != "bomb" or new[1] > old[1]
    if ok == "bomb":
        return False
    return nk == ok and new[3] == old[3] and new[2] == old[2] and new[1] > old[1]


def beats(new: Combo, old: Combo) -> bool:
    """Whether ``new`` may be played over ``old`` (RULINGS: following)."""
    nk, ok = combo_key(new), combo_key(old)
    if nk is None or ok is None:
        return False
    return beats_key(nk, ok)


# --------------------------------------------------------------------------- generation


def _runs(c, need, length, min_low):
    """Lows of runs of ``length`` consecutive ranks (3 … A) each held ``need`` times."""
    out = []
    for low in range(min_low, ACE - length + 2):
        for r in range(low, low + length):
            if c[r] < need:
                break
        else:
            out.append(low)
    return out


def _all_runs(c, need, min_len, max_len):
    """``(low, length)`` of every run of at least ``min_len`` ranks held ``need`` times."""
    out = []
    r = 0
    while r <= ACE:
        if c[r] < need:
            r += 1
            continue
        start = r
        while r <= ACE and c[r] >= need:
            r += 1
        # ranks start … r-1 form a maximal run
        for low in range(start, r - min_len + 1):
            for length in range(min_len, min(r - low, max_len) + 1):
                out.append((low, length))
    return out


# the ranks of every run, built once: _RUN[need][low][length]
_RUN = {
    need: [
        [tuple(x for x in range(low, low + length) for _ in range(need)) for length in range(13)]
        for low in range(12)
    ]
    for need in (1, 2, 3)
}


def _solos(c, min_low=-1):
    return [("solo", r, 1, (r,)) for r in range(min_low + 1, NRANKS) if c[r]]


def _pairs(c, min_low=-1):
    return [("pair", r, 1, (r, r)) for r in range(min_low + 1, TWO + 1) if c[r] >= 2]


def _trios(c, min_low=-1):
    return [("trio", r, 1, (r, r, r)) for r in range(min_low + 1, TWO + 1) if c[r] >= 3]


def _trio_solos(c, min_low=-1):
    out = []
    present = [r for r in range(NRANKS) if c[r]]
    for r in range(min_low + 1, TWO + 1):
        if c[r] >= 3:
            for k in present:
                if k != r:
                    out.append(("trio_solo", r, 1, (k, r, r, r) if k < r else (r, r, r, k)))
    return out


def _trio_pairs(c, min_low=-1):
    out = []
    pairs = [r for r in range(TWO + 1) if c[r] >= 2]
    for r in range(min_low + 1, TWO + 1):
        if c[r] >= 3:
            for p in pairs:
                if p != r:
                    out.append(("trio_pair", r, 1, (p, p, r, r, r) if p < r else (r, r, r, p, p)))
    return out


def _chains(c, length, min_low=-1):
    return [
        ("chain", low, length, _RUN[1][low][length]) for low in _runs(c, 1, length, min_low + 1)
    ]


def _pair_chains(c, length, min_low=-1):
    return [
        ("pair_chain", low, length, _RUN[2][low][length])
        for low in _runs(c, 2, length, min_low + 1)
    ]


def _airplanes(c, length, min_low=-1):
    return [
        ("airplane", low, length, _RUN[3][low][length]) for low in _runs(c, 3, length, min_low + 1)
    ]


def _airplane_wings(c, length, min_low, pair_wings):
    out = []
    for low in _runs(c, 3, length, min_low + 1):
        main = [r for r in range(low, low + length) for _ in (0, 1, 2)]
        if pair_wings:
            cand = [r for r in range(TWO + 1) if c[r] >= 2 and not low <= r < low + length]
        else:
            cand = [r for r in range(NRANKS) if c[r] and not low <= r < low + length]
        for wings in combinations(cand, length):
            if not pair_wings and wings[-1] == RJ and length >= 2 and wings[-2] == BJ:
                continue
            extra = list(wings) * 2 if pair_wings else list(wings)
            out.append(
                (
                    "airplane_pair" if pair_wings else "airplane_solo",
                    low,
                    length,
                    tuple(sorted(main + extra)),
                )
            )
    return out


def _four_twos(c, min_low, pair_kickers):
    out = []
    for r in range(min_low + 1, TWO + 1):
        if c[r] != 4:
            continue
        if pair_kickers:
            cand = [x for x in range(TWO + 1) if x != r and c[x] >= 2]
        else:
            cand = [x for x in range(NRANKS) if x != r and c[x]]
        for a, b in combinations(cand, 2):
            if a == BJ and b == RJ:
                continue
            extra = [a, a, b, b] if pair_kickers else [a, b]
            out.append(
                (
                    "four_two_pair" if pair_kickers else "four_two_solo",
                    r,
                    1,
                    tuple(sorted([r] * 4 + extra)),
                )
            )
    return out


def _bombs(c, min_low=-1):
    return [("bomb", r, 1, (r, r, r, r)) for r in range(min_low + 1, TWO + 1) if c[r] == 4]


def _rocket(c):
    return [("rocket", RJ, 1, (BJ, RJ))] if c[BJ] and c[RJ] else []


def leads(c: list[int]) -> list[Move]:
    """Every play that may open a trick from a hand of rank counts, once per reading."""
    out = _solos(c) + _pairs(c) + _trios(c) + _trio_solos(c) + _trio_pairs(c)
    run1, run2 = _RUN[1], _RUN[2]
    for low, length in _all_runs(c, 1, CHAIN_MIN, CHAIN_MAX):
        out.append(("chain", low, length, run1[low][length]))
    for low, length in _all_runs(c, 2, PAIR_CHAIN_MIN, 12):
        out.append(("pair_chain", low, length, run2[low][length]))
    n = sum(c)
    for length in range(AIRPLANE_MIN, 7):
        if 3 * length > n:
            break
        planes = _airplanes(c, length)
        if not planes:
            break
        out += planes
        if 4 * length <= n:
            out += _airplane_wings(c, length, -1, False)
        if 5 * length <= n:
            out += _airplane_wings(c, length, -1, True)
    if 4 in c:
        out += _four_twos(c, -1, False) + _four_twos(c, -1, True) + _bombs(c)
    if c[BJ] and c[RJ]:
        out.append(("rocket", RJ, 1, (BJ, RJ)))
    return out


def follows(c: list[int], table: tuple) -> list[Move]:
    """Every play that beats ``table`` (a ``(kind, low, length, count)`` key), passes excluded."""
    kind, low, length, _count = table
    if kind == "rocket":
        return []
    if kind == "bomb":
        return _bombs(c, low) + _rocket(c)
    if kind == "solo":
        out = _solos(c, low)
    elif kind == "pair":
        out = _pairs(c, low)
    elif kind == "trio":
        out = _trios(c, low)
    elif kind == "trio_solo":
        out = _trio_solos(c, low)
    elif kind == "trio_pair":
        out = _trio_pairs(c, low)
    elif kind == "chain":
        out = _chains(c, length, low)
    elif kind == "pair_chain":
        out = _pair_chains(c, length, low)
    elif kind == "airplane":
        out = _airplanes(c, length, low)
    elif kind == "airplane_solo":
        out = _airplane_wings(c, length, low, False)
    elif kind == "airplane_pair":
        out = _airplane_wings(c, length, low, True)
    elif kind == "four_two_solo":
        out = _four_twos(c, low, False)
    elif kind == "four_two_pair":
        out = _four_twos(c, low, True)
    else:  # pragma: no cover - keys come from read_counts
        out = []
    return out + _bombs(c) + _rocket(c)
