"""The actions of Gan Deng Yan and every reason one is refused ("How to play a hand and why a
card won't go"; ENGINE_CONTRACT.md, "Actions").

A play is ``{"type": "play", "cards": [...], "combo": {...}}`` (the combo may be left out
when only one reading is legal now); a pass is ``{"type": "pass"}``. The codes below are
the game's own, checked after the common ``not_your_turn``, ``malformed``, ``not_in_hand``
and ``ambiguous``.
"""

from __future__ import annotations

from typing import Any

from games.engine.base import Combo, IllegalAction, register_messages
from games.engine.cards import CARD_CODES
from games.engine.gandengyan.combos import combo_of

# The game's own codes, with the params each one carries.
MESSAGES = {
    # params: kind, rank (the table's lowest rank), needed (the one-higher rank or None), played
    "not_one_higher": "Follow a {kind} of {rank} with the same shape exactly one rank higher.",
    # params: kind, count (the table's), played_count
    "wrong_length": "Follow with the same number of cards: {count}.",
    # params: kind (the table's), played_kind
    "wrong_kind": "Follow a {kind} with a {kind}, a 2 where it counts, or a bomb.",
    # params: {} — a joker standing in for a 2
    "joker_as_two": "A joker stands for 3 to Ace, never for a 2.",
    # params: {} — a 2 inside a straight or a pair run
    "two_in_run": "A 2 never goes into a straight or a pair run.",
    # params: {} — a single joker, except as the last card on an empty stock
    "lone_joker": "A joker cannot be played alone, except as your last card on your lead once the stock is empty.",
    # params: {}
    "pass_on_lead": "You lead: play something, you cannot pass.",
    # params: {} — the cards form no play at all
    "not_a_play": "Those cards do not form a play.",
    # params: kind (the table's), rank, count
    "does_not_beat": "That does not beat the {kind} on the table.",
}
CODES = tuple(MESSAGES)
PLAY_KEYS = frozenset({"type", "cards", "combo"})

register_messages(MESSAGES)


def parse(action: Any) -> tuple[str, list[str], Combo | None]:
    """The action's type, cards and combo, or ``malformed``."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed", {})
    kind = action.get("type")
    if kind == "pass":
        if len(action) != 1:
            raise IllegalAction("malformed", {})
        return "pass", [], None
    if kind != "play" or not action.keys() <= PLAY_KEYS:
        raise IllegalAction("malformed", {})
    cards = action.get("cards")
    if (
        not isinstance(cards, list)
        or not cards
        or not all(type(c) is str for c in cards)
        or not CARD_CODES.issuperset(cards)
    ):
        raise IllegalAction("malformed", {})
    if len(set(cards)) != len(cards):
        raise IllegalAction("malformed", {})
    combo = None
    if action.get("combo") is not None:
        try:
            combo = combo_of(action["combo"])
        except ValueError:
            raise IllegalAction("malformed", {}) from None
    return "play", list(cards), combo
