"""Dou Dizhu actions and every way one can be refused (ENGINE_CONTRACT.md, "Actions";
RULINGS.md, Dou Dizhu: bidding and following).

``CODES`` is the one list of refusal codes: the contract's common ones first, in the
contract's order, then this game's own.
"""

from __future__ import annotations

from games.engine.base import COMMON_CODES, Combo, IllegalAction, register_messages
from games.engine.cards import is_card

GAME_CODES = {
    "not_bidding_phase": "The bidding is over; play or pass.",
    "still_bidding": "The bidding is still on; bid or pass the bid.",
    "bid_out_of_range": "A bid is 1, 2 or 3, or 0 to pass; {value} is none of these.",
    "bid_too_low": "A bid must be higher than the current bid of {current}.",
    "already_passed": "You passed the bid and cannot bid again this deal.",
    "not_a_combination": "Those cards form no combination.",
    "wrong_kind": "You must follow a {kind} with a {kind}, a bomb or the rocket.",
    "wrong_count": "You must follow with the same number of cards ({count}).",
    "does_not_beat": "That play does not beat the {kind} on the table.",
    "pass_on_lead": "You are leading: you must play.",
}

CODES = (*COMMON_CODES, *GAME_CODES)

register_messages(GAME_CODES)


def parse(action) -> tuple[str, object, Combo | None]:
    """``(type, payload, combo)`` of a well-formed action; raises ``malformed`` otherwise.

    The payload is the bid value for a bid, the list of cards for a play, None for a pass.
    Keys beyond the ones an action needs are ignored.
    """
    if not isinstance(action, dict):
        raise IllegalAction("malformed", {"reason": "not_a_dict"})
    kind = action.get("type")
    if kind == "pass":
        return "pass", None, None
    if kind == "bid":
        value = action.get("value")
        if not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction("malformed", {"reason": "bid_value"})
        return "bid", value, None
    if kind == "play":
        cards = action.get("cards")
        if not isinstance(cards, list) or not all(is_card(c) for c in cards):
            raise IllegalAction("malformed", {"reason": "cards"})
        if len(set(cards)) != len(cards):
            raise IllegalAction("malformed", {"reason": "repeated_card"})
        combo = None
        if action.get("combo") is not None:
            try:
                combo = Combo.from_dict(action["combo"])
            except ValueError:
                raise IllegalAction("malformed", {"reason": "combo"}) from None
        return "play", cards, combo
    raise IllegalAction("malformed", {"reason": "type"})
