"""Gong Zhu's actions and the one list of its refusal codes (ENGINE_CONTRACT.md, "Actions").

``{"type": "expose", "cards": [...]}`` in the exposure phase, ``{"type": "play", "card": ..}``
in play. Refusals are checked in the contract's order: the shared codes first
(``not_your_turn``, ``malformed``, ``not_in_hand``; ``ambiguous`` never arises here), then
this game's codes below.
"""

from __future__ import annotations

from games.engine.base import IllegalAction, register_messages
from games.engine.cards import STANDARD_DECK

# Gong Zhu's own codes with their English sentences; the site translates by code.
CODES = {
    "wrong_phase": "That move does not belong to this phase of the hand ({phase}).",
    "not_exposable": "Only AH, QS, JD and TC can be exposed, not {card}.",
    "must_follow_suit": "You must follow the suit that was led ({suit}).",
    "exposed_card_first_trick": (
        "The exposed {card} may not go into the first trick of its suit ({suit}) "
        "while you hold other cards of that suit."
    ),
}
register_messages(CODES)

_CARDS = frozenset(STANDARD_DECK)


def malformed() -> IllegalAction:
    return IllegalAction("malformed", {})


def parse(action: object) -> tuple[str, object]:
    """``("play", card)`` or ``("expose", tuple_of_cards)``; anything else is malformed."""
    if not isinstance(action, dict):
        raise malformed()
    kind = action.get("type")
    if kind == "play":
        card = action.get("card")
        if len(action) != 2 or not isinstance(card, str) or card not in _CARDS:
            raise malformed()
        return "play", card
    if kind == "expose":
        cards = action.get("cards")
        if len(action) != 2 or not isinstance(cards, list | tuple):
            raise malformed()
        if not all(isinstance(c, str) and c in _CARDS for c in cards):
            raise malformed()
        if len(set(cards)) != len(cards):
            raise malformed()
        return "expose", tuple(cards)
    raise malformed()
