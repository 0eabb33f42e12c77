"""Hand scoring (docs/RULINGS.md "Gong Zhu", hand score).

Hearts A −50, K −40, Q −30, J −20, 10…5 −10, 4 3 2 nothing (but point cards); all 13
hearts turn +200 and the taker's pig +100; pig −100, goat +100; the transformer alone +50,
with other point cards it doubles their sum. An exposed card doubles its own effect for
whoever takes it (the transformer: ×4 and +100). All 16 point cards is no extra rule; the
breakdown only names it.
"""

from __future__ import annotations

from collections.abc import Iterable

HEART_ACE = "AH"
PIG = "QS"
GOAT = "JD"
TRANSFORMER = "TC"
# The exposure phase offers exactly these, in this order.
EXPOSABLE = (HEART_ACE, PIG, GOAT, TRANSFORMER)

HEART_VALUES = {
    "AH": -50,
    "KH": -40,
    "QH": -30,
    "JH": -20,
    "TH": -10,
    "9H": -10,
    "8H": -10,
    "7H": -10,
    "6H": -10,
    "5H": -10,
    "4H": 0,
    "3H": 0,
    "2H": 0,
}
POINT_CARDS = frozenset(HEART_VALUES) | {PIG, GOAT, TRANSFORMER}
ALL_HEARTS_VALUE = 200


def breakdown(collected: Iterable[str], exposed: Iterable[str]) -> dict:
    """Every factor of one seat's hand score, as the hand summary shows it."""
    collected = set(collected)
    exposed = set(exposed)
    heart_factor = 2 if HEART_ACE in exposed else 1
    pig_factor = 2 if PIG in exposed else 1
    goat_factor = 2 if GOAT in exposed else 1
    transformer_factor = 2 if TRANSFORMER in exposed else 1

    hearts_taken = [c for c in collected if c in HEART_VALUES]
    all_hearts = len(hearts_taken) == 13
    if all_hearts:
        hearts = ALL_HEARTS_VALUE * heart_factor
    else:
        hearts = sum(HEART_VALUES[c] for c in hearts_taken) * heart_factor
    has_pig = PIG in collected
    has_goat = GOAT in collected
    has_transformer = TRANSFORMER in collected
    # With all hearts the taker's pig turns positive (RULINGS.md).
    pig = (100 if all_hearts else -100) * pig_factor if has_pig else 0
    goat = 100 * goat_factor if has_goat else 0
    base = hearts + pig + goat
    others = bool(hearts_taken) or has_pig or has_goat  # hearts 4 3 2 count as point cards

    multiplier = 1
    if not has_transformer:
        score = base
    elif others:
        multiplier = 2 * transformer_factor
        score = base * multiplier
    else:
        score = 50 * transformer_factor
    point_cards = [c for c in _POINT_ORDER if c in collected]
    return {
        "point_cards": point_cards,
        "hearts": hearts,
        "heart_count": len(hearts_taken),
        "all_hearts": all_hearts,
        "pig": pig,
        "goat": goat,
        "transformer_taken": has_transformer,
        "transformer_multiplier": multiplier,
        "transformer": score - base,
        "exposure_multipliers": {
            "hearts": heart_factor,
            "pig": pig_factor,
            "goat": goat_factor,
            "transformer": transformer_factor,
        },
        "all_16": all_hearts and has_pig and has_goat and has_transformer,
        "score": score,
    }


def score_hand(collected: Iterable[str], exposed: Iterable[str]) -> int:
    """One seat's hand score from the cards it took, when ``exposed`` were exposed this hand."""
    return breakdown(collected, exposed)["score"]


def quick_score(collected: Iterable[str], exposed: frozenset | set | tuple) -> int:
    """``score_hand`` without the breakdown: the bots' playouts call it thousands of times."""
    hearts = 0
    count = 0
    has_pig = has_goat = has_transformer = False
    for c in collected:
        v = HEART_VALUES.get(c)
        if v is not None:
            hearts += v
            count += 1
        elif c == PIG:
            has_pig = True
        elif c == GOAT:
            has_goat = True
        elif c == TRANSFORMER:
            has_transformer = True
    all_hearts = count == 13
    if all_hearts:
        hearts = ALL_HEARTS_VALUE
    if HEART_ACE in exposed:
        hearts *= 2
    base = hearts
    if has_pig:
        base += (100 if all_hearts else -100) * (2 if PIG in exposed else 1)
    if has_goat:
        base += 100 * (2 if GOAT in exposed else 1)
    if not has_transformer:
        return base
    t = 2 if TRANSFORMER in exposed else 1
    if count or has_pig or has_goat:
        return base * 2 * t
    return 50 * t


_POINT_ORDER = (*HEART_VALUES, PIG, GOAT, TRANSFORMER)
