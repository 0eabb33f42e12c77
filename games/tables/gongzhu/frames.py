"""Gong Zhu: a browser frame -> an engine action (the exposure form, a card to play)."""

from __future__ import annotations

from games.tables.common import frame_cards


def action(data: dict) -> dict | None:
    """A Gong Zhu move from a browser frame, or None if the frame is no move at all."""
    kind = data.get("action")
    if kind == "play":
        return {"type": "play", "card": data.get("card")}
    if kind == "expose":
        return {"type": "expose", "cards": frame_cards(data.get("cards"))}
    return None


def frame(move: dict) -> dict:
    """The frame the table's forms send for an engine action (the inverse of ``action``)."""
    if move["type"] == "play":
        return {"action": "play", "card": move["card"]}
    return {"action": "expose", "cards": list(move["cards"])}
