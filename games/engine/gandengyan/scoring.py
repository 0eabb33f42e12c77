"""Settlement of a round ("Scoring" and its worked example; RULINGS.md, Gan Deng Yan: the
loser's multiplier, the cap at 64, the table summing to zero)."""

from __future__ import annotations

from typing import Any

from games.engine.cards import JOKERS

CAP = 64


def loser_breakdown(cards: list[str], bombs: int, played: bool) -> dict[str, Any]:
    """Every factor of what one loser pays, as the settlement screen shows it."""
    jokers = sum(1 for c in cards if c in JOKERS)
    bomb_factor = 2**bombs
    spring = not played
    spring_factor = 2 if spring else 1
    joker_factor = 2**jokers
    product = bomb_factor * spring_factor * joker_factor
    multiplier = min(product, CAP)
    return {
        "winner": False,
        "cards_left": len(cards),
        "bombs": bombs,
        "bomb_factor": bomb_factor,
        "spring": spring,
        "spring_factor": spring_factor,
        "jokers": jokers,
        "joker_factor": joker_factor,
        "product": product,
        "capped": product > CAP,
        "multiplier": multiplier,
        "payment": len(cards) * multiplier,
        "score": -len(cards) * multiplier,
    }


def breakdown(
    winner: int, hands: list[list[str]], bombs: int, played: list[bool]
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for seat, cards in enumerate(hands):
        if seat == winner:
            rows.append({"winner": True, "cards_left": 0, "bombs": bombs, "bomb_factor": 2**bombs})
        else:
            rows.append(loser_breakdown(cards, bombs, played[seat]))
    collected = sum(row["payment"] for row in rows if not row["winner"])
    rows[winner].update(collected=collected, payment=-collected, score=collected)
    for seat, row in enumerate(rows):
        row["seat"] = seat
    return rows


def settle(winner: int, hands: list[list[str]], bombs: int, played: list[bool]) -> list[int]:
    """Per-seat scores of a finished round: each loser pays cards left × multiplier, where the
    multiplier is 2^bombs, ×2 for spring, ×2 per joker in hand, capped at 64."""
    return [row["score"] for row in breakdown(winner, hands, bombs, played)]
