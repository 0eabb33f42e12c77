"""Gong Zhu's own refusals, as sentences (the codes come from the engine)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.tables.common import SUIT_NAMES, card_name

# The board's words with a context (cardsite/jinja.py: ``say``).
BOARD_WORDS = {
    # The chip with this hand's score beside the total: not a hand's number.
    "hand_chip": pgettext_lazy("score chip", "Hand"),
}


def refusal(code: str, params: dict) -> str | None:
    suit = SUIT_NAMES.get(params.get("suit", ""), "")
    card = params.get("card")
    card = card_name(card) if isinstance(card, str) and len(card) == 2 else ""
    if code == "wrong_phase":
        return _("That move does not fit this phase of the hand.")
    if code == "not_exposable":
        return _("Only the ace of hearts, the pig, the goat and the transformer can be exposed.")
    if code == "must_follow_suit":
        return _("You must follow %(suit)s.") % {"suit": suit}
    if code == "exposed_card_first_trick":
        return _(
            "You exposed the %(card)s: it may not go into the first trick of %(suit)s while you hold another card of that suit."
        ) % {"card": card, "suit": suit}
    return None
