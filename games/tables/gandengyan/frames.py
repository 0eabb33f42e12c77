"""Gan Deng Yan: a browser frame -> an engine action (a pass, or cards with their reading)."""

from __future__ import annotations

from games.tables.common import frame_cards, frame_combo, frame_reading


def action(data: dict) -> dict | None:
    """A Gan Deng Yan move from a browser frame, or None if the frame is no move at all."""
    kind = data.get("action")
    if kind == "pass":
        return {"type": "pass"}
    if kind != "play":
        return None
    action: dict = {"type": "play", "cards": frame_cards(data.get("cards"))}
    combo = frame_combo(data.get("combo"))
    if combo:
        action["combo"] = combo
    return action


def frame(move: dict) -> dict:
    """The frame the table's forms send for an engine action (the inverse of ``action``):
    the cards, and the chosen reading as the chips send it."""
    if move["type"] == "pass":
        return {"action": "pass"}
    data: dict = {"action": "play", "cards": list(move["cards"])}
    if move.get("combo"):
        data["combo"] = frame_reading(move["combo"])
    return data
