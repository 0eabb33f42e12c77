"""Gong Zhu: a finished hand, trick by trick, with the exposures."""

from __future__ import annotations

from games.engine.gongzhu import GongZhuView
from games.tables.base import TableSummary
from games.tables.common import Card


def context(table: TableSummary, hand, steps, names) -> dict:
    """Trick by trick, from the rebuilt hand (``steps``) or, failing that, the logged plays."""
    if steps is not None:
        final: GongZhuView | None = steps[-1][2] if steps else None  # the last public view
        tricks = final["tricks"] if final else []
        exposures = [
            {"name": names[s]["name"], "cards": [Card(c) for c in cards]}
            for s, cards in enumerate((final["exposed"] if final else None) or [])
            if cards
        ]
    else:
        plays = [
            (e.seat, e.action.get("card"))
            for e in hand.actions.order_by("seq")
            if e.action.get("type") == "play"
        ]
        tricks = [
            {"plays": [{"seat": s, "card": c} for s, c in plays[i : i + 4]], "winner": None}
            for i in range(0, len(plays), 4)
        ]
        exposures = []
    return {
        "exposures": exposures,
        # From the record alone the exposures are unknown: say nothing rather than "none".
        "exposures_known": steps is not None,
        "tricks": [
            {
                "number": i + 1,
                "plays": [
                    {"name": names[p["seat"]]["name"], "card": Card(p["card"])} for p in t["plays"]
                ],
                "winner": names[t["winner"]]["name"] if t["winner"] is not None else "",
            }
            for i, t in enumerate(tricks)
        ],
    }
