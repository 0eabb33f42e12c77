"""Dou Dizhu: a browser frame -> an engine action (a bid, a pass, or cards with their
reading when the selection reads more than one way)."""

from __future__ import annotations

from games.tables.common import frame_cards, frame_combo, frame_reading


def action(data: dict) -> dict | None:
    """A Dou Dizhu move from a browser frame, or None if the frame is no move at all."""
    kind = data.get("action")
    if kind == "pass":
        return {"type": "pass"}
    if kind == "bid":
        value = data.get("value")
        try:
            value = int(value)
        except (TypeError, ValueError):
            value = "?"  # the engine refuses it as malformed
        return {"type": "bid", "value": value}
    if kind != "play":
        return None
    move: dict = {"type": "play", "cards": frame_cards(data.get("cards"))}
    combo = frame_combo(data.get("combo"))
    if combo:
        move["combo"] = combo
    return move


def frame(move: dict) -> dict:
    """The frame the table's forms send for an engine action (the inverse of ``action``)."""
    if move["type"] == "pass":
        return {"action": "pass"}
    if move["type"] == "bid":
        return {"action": "bid", "value": str(move["value"])}
    data: dict = {"action": "play", "cards": list(move["cards"])}
    if move.get("combo"):
        data["combo"] = frame_reading(move["combo"])
    return data
