"""Dou Dizhu hand planning for the bots: split a hand into as few plays as it can be.

Works on rank counts (``games.engine.doudizhu.combos``). A plan is the chains, pair
chains and airplanes chosen by a small search, the rest grouped by rank (bombs, trios,
pairs, solos, the rocket), trios and airplanes then taking the lowest solos or pairs as
kickers. Its cost is the number of plays left, so a play that keeps the cost down one is
"part of the plan".
"""

from __future__ import annotations

from functools import lru_cache

from games.engine.doudizhu.combos import ACE, BJ, RJ, TWO

CONTROL = TWO  # 2s and jokers: the cards that win back the lead


# Hands seen again (a bot's own hand from move to move, the playouts' hands) hit this cache
# four times in five; 50,000 hands keep that, and a full pass of the garbage collector walks
# all of them (with 200,000 a pass took 0.1-0.2 s in a bot's process; with 50,000 about 30 ms).
@lru_cache(maxsize=50_000)
def plan(counts: tuple) -> tuple[tuple, tuple]:
    """``(cost, units)`` of the best split of a hand; units are ``(kind, low, length, ranks)``."""
    return _best(counts, 0, (), {})


def plan_cost(counts) -> tuple:
    return plan(tuple(counts))[0]


# (kind, copies of each rank, fewest ranks) of the runs a plan may take
_RUN_KINDS = (("chain", 1, 5), ("pair_chain", 2, 3), ("airplane", 3, 2))


def _lowest_runs(c, min_low):
    """The runs (chains, pair chains, airplanes) starting at the lowest rank from ``min_low``
    that starts any, as ``(kind, low, length, need)``, each kind from the shortest; ``[]``
    where none does. The search branches on that rank alone (the ranks above it are the
    subproblem where none is taken there)."""
    # how many ranks from each rank on are held at least once, twice, three times (3 … A)
    one, two, three = [0] * (ACE + 2), [0] * (ACE + 2), [0] * (ACE + 2)
    for r in range(ACE, max(min_low, 0) - 1, -1):
        n = c[r]
        if n:
            one[r] = one[r + 1] + 1
            if n > 1:
                two[r] = two[r + 1] + 1
                if n > 2:
                    three[r] = three[r + 1] + 1
    for low in range(max(min_low, 0), ACE):
        if one[low] >= 5 or two[low] >= 3 or three[low] >= 2:
            out = []
            for (kind, need, shortest), held in zip(_RUN_KINDS, (one, two, three), strict=True):
                out += [(kind, low, length, need) for length in range(shortest, held[low] + 1)]
            return out
    return []


def _best(c: tuple, min_low: int, planes: tuple, seen: dict) -> tuple[tuple, tuple]:
    """The search below one plan, remembering its own subproblems in ``seen`` (one plan's
    worth): a cache of them across plans hit 7 % of the time and made every full pass of the
    garbage collector walk its 200,000 entries (tenths of a second per pass)."""
    key = (c, min_low, planes)
    found = seen.get(key)
    if found is None:
        found = seen[key] = _search(c, min_low, planes, seen)
    return found


def _search(c: tuple, min_low: int, planes: tuple, seen: dict) -> tuple[tuple, tuple]:
    options = _lowest_runs(c, min_low)
    if not options:
        return _base(c, planes)
    r0 = options[0][1]
    best = _best(c, r0 + 1, planes, seen)
    for kind, low, length, need in options:
        rest = list(c)
        for r in range(low, low + length):
            rest[r] -= need
        unit = (kind, low, length, tuple(r for r in range(low, low + length) for _ in range(need)))
        if kind == "airplane":
            cost, units = _best(tuple(rest), r0, (*planes, unit), seen)
        else:
            cost, units = _best(tuple(rest), r0, planes, seen)
            cost = (cost[0] + 1, cost[1])
            units = (*units, unit)
        if cost < best[0]:
            best = (cost, units)
    return best


def _base(c, planes):
    """Group what no chain took, then hang kickers on trios and airplanes."""
    units = []
    solos, pairs, trios = [], [], []
    if c[BJ] and c[RJ]:
        units.append(("rocket", RJ, 1, (BJ, RJ)))
    elif c[BJ]:
        solos.append(BJ)
    elif c[RJ]:
        solos.append(RJ)
    for r in range(TWO + 1):
        n = c[r]
        if n == 4:
            units.append(("bomb", r, 1, (r,) * 4))
        elif n == 3:
            trios.append(r)
        elif n == 2:
            pairs.append(r)
        elif n == 1:
            solos.append(r)
    # kickers: lowest non-control solos and pairs go to the trios and airplanes
    spare_solos = [r for r in solos if r < CONTROL]
    spare_pairs = [r for r in pairs if r < CONTROL]
    for kind, low, length, ranks in planes:
        if len(spare_solos) >= length:
            wings, spare_solos = spare_solos[:length], spare_solos[length:]
            units.append(("airplane_solo", low, length, tuple(sorted(ranks + tuple(wings)))))
            for w in wings:
                solos.remove(w)
        elif len(spare_pairs) >= length:
            wings, spare_pairs = spare_pairs[:length], spare_pairs[length:]
            units.append(("airplane_pair", low, length, tuple(sorted(ranks + tuple(wings) * 2))))
            for w in wings:
                pairs.remove(w)
        else:
            units.append((kind, low, length, ranks))
    for r in trios:
        if spare_solos and (not spare_pairs or spare_solos[0] <= spare_pairs[0]):
            k = spare_solos.pop(0)
            solos.remove(k)
            units.append(("trio_solo", r, 1, tuple(sorted((r, r, r, k)))))
        elif spare_pairs:
            p = spare_pairs.pop(0)
            pairs.remove(p)
            units.append(("trio_pair", r, 1, tuple(sorted((r, r, r, p, p)))))
        else:
            units.append(("trio", r, 1, (r, r, r)))
    units += [("pair", r, 1, (r, r)) for r in pairs]
    units += [("solo", r, 1, (r,)) for r in solos]
    weak = sum(1 for u in units if u[0] in ("solo", "pair") and u[1] < ACE - 2)
    return (len(units), weak), tuple(units)


def is_control(unit) -> bool:
    kind, low = unit[0], unit[1]
    return kind in ("bomb", "rocket") or (kind in ("solo", "pair", "trio") and low >= CONTROL)
