"""Toy Trick: a browser frame -> an engine action (a card to play)."""

from __future__ import annotations


def action(data: dict) -> dict | None:
    if data.get("action") == "play":
        return {"type": "play", "card": data.get("card")}
    return None


def frame(move: dict) -> dict:
    return {"action": "play", "card": move["card"]}
