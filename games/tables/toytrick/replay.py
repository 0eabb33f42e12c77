"""Toy Trick: a finished hand, trick by trick."""

from __future__ import annotations

from games.tables.base import TableSummary
from games.tables.common import Card


def context(table: TableSummary, hand, steps, names) -> dict:
    """From the rebuilt hand (``steps``) or, failing that, the logged plays two by two."""
    if steps is not None:
        tricks = (steps[-1][2].get("tricks") or []) if steps else []
    else:
        plays = [(e.seat, e.action.get("card")) for e in hand.actions.order_by("seq")]
        tricks = [
            {"plays": [{"seat": s, "card": c} for s, c in plays[i : i + 2]], "winner": None}
            for i in range(0, len(plays), 2)
        ]
    return {
        "tricks": [
            {
                "number": i + 1,
                "plays": [
                    {"name": names[p["seat"]]["name"], "card": Card(p["card"])} for p in t["plays"]
                ],
                "winner": names[t["winner"]]["name"] if t.get("winner") is not None else "",
            }
            for i, t in enumerate(tricks)
        ]
    }
