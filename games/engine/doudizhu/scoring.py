"""Dou Dizhu settlement (RULINGS.md, Dou Dizhu: the stake per peasant; the rule text's
"Punktewertung": a 3-point hand with 2 bombs pays 12 from each peasant).
"""

from __future__ import annotations


def stake(bid: int, bombs: int, spring: bool, anti_spring: bool) -> int:
    """What each peasant pays or receives: bid × 2^(bombs and rocket) × spring × anti-spring."""
    return bid * 2**bombs * (2 if spring else 1) * (2 if anti_spring else 1)


def settle(
    landlord: int, winner: int, bid: int, bombs: int, played_count: list[int], cards_left
) -> dict:
    """``hand_result`` of a finished hand: scores per seat and every factor behind them."""
    peasants = [s for s in range(3) if s != landlord]
    landlord_won = winner == landlord
    spring = landlord_won and all(played_count[s] == 0 for s in peasants)
    anti_spring = not landlord_won and played_count[landlord] == 1
    each = stake(bid, bombs, spring, anti_spring)
    scores = [0, 0, 0]
    for s in peasants:
        scores[s] = -each if landlord_won else each
    scores[landlord] = -sum(scores[s] for s in peasants)
    breakdown = [
        {
            "role": "landlord" if s == landlord else "peasant",
            "won": landlord_won == (s == landlord),
            "went_out": s == winner,
            "bid": bid,
            "bombs": bombs,
            "bomb_factor": 2**bombs,
            "spring": spring,
            "anti_spring": anti_spring,
            "spring_factor": 2 if spring else 1,
            "anti_spring_factor": 2 if anti_spring else 1,
            "stake": each,
            "opponents": 2 if s == landlord else 1,
            "cards_left": cards_left[s],
            "score": scores[s],
        }
        for s in range(3)
    ]
    return {"scores": scores, "breakdown": breakdown}
