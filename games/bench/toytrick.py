"""Toy Trick's bench plug-in (the game for the tests only): the load client's move."""

from __future__ import annotations

import random


def load_move(html: str, rng: random.Random) -> dict | None:
    """The load client's move on this board (loadbench, the frames' conformance test), or
    None when it is not the human's turn: a random playable card."""
    from games.bench import load

    if load.offers_next_hand(html):
        return {"action": "next"}
    if "my-turn" in load.board_flags(html):
        cards = load.playable_cards(html)
        if cards:
            return {"action": "play", "card": rng.choice(cards)}
    return None
