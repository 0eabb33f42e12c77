"""Gong Zhu: what holding a hand costs a seat, in points (its burden), the sharp evaluation of
the published greedy sampler (issue 47): the benchmark's ``greedy`` opponent scores a trick
with it (games/bench/gongzhu_greedy.py), and Hard's truncated playouts score the position
where they stop (``horizon``). Hand-tuned values: spades above the pig while the pig is out,
the pig held, high diamonds (an asset) while the goat is out, high clubs by what the
transformer would double, high hearts while a lower heart is out, any high card a little.
"""

from __future__ import annotations

from games.bots.gongzhu import RANK
from games.engine.gongzhu.scoring import GOAT, PIG, TRANSFORMER, quick_score

# Spades above the pig are a burden while the pig is out and someone else holds it.
SPADES_OVER_PIG = {"AS": 30.0, "KS": 25.0}
# Holding the pig: a burden that low spades to shed it under lighten.
OWN_PIG = 60.0
OWN_PIG_GUARD = 10.0
# High diamonds are an asset (a negative burden) while the goat is out.
DIAMONDS_OVER_GOAT = {"AD": -20.0, "KD": -15.0, "QD": -10.0}
# High clubs take the transformer: per club, this share of the doubling it threatens (what the
# seat has taken, or the transformer's lone +50 when it has taken no point card).
CLUBS_OVER_TRANSFORMER = {"AC": 0.3, "KC": 0.25, "QC": 0.2, "JC": 0.15}
LONE_TRANSFORMER = 50
# High hearts are a burden while a lower heart is out (they may have to win a heart trick).
HIGH_HEARTS = {
    "AH": 20.0,
    "KH": 16.0,
    "QH": 12.0,
    "JH": 9.0,
    "TH": 6.0,
    "9H": 4.0,
    "8H": 3.0,
    "7H": 2.0,
}
# Any high card may have to win a trick one would rather not: per rank above eight.
HIGH_CARD = 1.0


HEARTS = tuple(r + "H" for r in "23456789TJQKA")


def burden(hand: list[str], gone: set[str], taken: list[str], exposed) -> float:
    """What holding ``hand`` costs a seat (positive: bad) with the cards in ``gone`` played
    and ``taken`` its point cards so far."""
    total = sum(HIGH_CARD * max(0, RANK[c] - RANK["8S"]) for c in hand)
    lowest_out = min(
        (RANK[c] for c in HEARTS if c not in gone and c not in hand), default=len(RANK)
    )
    total += sum(v for c, v in HIGH_HEARTS.items() if c in hand and RANK[c] > lowest_out)
    if PIG not in gone:
        if PIG in hand:
            low = sum(1 for c in hand if c[1] == "S" and RANK[c] < RANK[PIG])
            total += OWN_PIG - OWN_PIG_GUARD * min(low, 4)
        else:
            total += sum(SPADES_OVER_PIG.get(c, 0.0) for c in hand)
    if GOAT not in gone:
        total += sum(DIAMONDS_OVER_GOAT.get(c, 0.0) for c in hand)
    if TRANSFORMER not in gone and TRANSFORMER not in hand:
        weight = sum(CLUBS_OVER_TRANSFORMER.get(c, 0.0) for c in hand)
        if weight:
            doubling = quick_score(taken, exposed) if taken else LONE_TRANSFORMER
            total -= weight * doubling
    return total
