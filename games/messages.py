"""Refusals and card names in the player's language.

The engine and the services refuse with a stable code and params; this module is the one
place that turns them into sentences.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

SUIT_NAMES = {
    "S": gettext_lazy("spades"),
    "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"),
    "C": gettext_lazy("clubs"),
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = {
    "A": gettext_lazy("ace"),
    "K": gettext_lazy("king"),
    "Q": gettext_lazy("queen"),
    "J": gettext_lazy("jack"),
    "T": "10",
}
RANK_SHORT = {"T": "10"}


def rank_label(rank: str) -> str:
    return str(RANK_NAMES.get(rank, rank))


def card_name(card: str) -> str:
    """A card's spoken name: "queen of spades" / "Pik-Dame"."""
    if card == "BJ":
        return _("black joker")
    if card == "RJ":
        return _("red joker")
    rank, suit = card[0], card[1]
    # Translators: a card's name, e.g. "queen of spades"; German "Pik-Dame".
    return _("%(rank)s of %(suit)s") % {"rank": rank_label(rank), "suit": SUIT_NAMES[suit]}


def refusal(code: str, params: dict | None = None) -> str:
    """The sentence for a refused action (engine or service code)."""
    p = params or {}
    suit = SUIT_NAMES.get(p.get("suit", ""), "")
    card = card_name(p["card"]) if isinstance(p.get("card"), str) and len(p["card"]) == 2 else ""
    play, needed = _gandengyan_play(p)
    messages = {
        # common engine codes
        "not_your_turn": _("It is not your turn."),
        "malformed": _("That move is not understood. Please reload the page."),
        "not_in_hand": _("You do not hold that card."),
        "ambiguous": _("Those cards can be read more than one way: choose a reading."),
        "hand_not_over": _("The hand is not over yet."),
        "match_over": _("The match is over."),
        # Gong Zhu
        "wrong_phase": _("That move does not fit this phase of the hand."),
        "not_exposable": _(
            "Only the ace of hearts, the pig, the goat and the transformer can be exposed."
        ),
        "must_follow_suit": _("You must follow %(suit)s.") % {"suit": suit},
        "exposed_card_first_trick": _(
            "You exposed the %(card)s: it may not go into the first trick of %(suit)s while you hold another card of that suit."
        )
        % {"card": card, "suit": suit},
        # Gan Deng Yan
        "not_one_higher": (
            _("Exactly one rank higher: on the %(play)s only %(needed)s goes.")
            % {"play": play, "needed": needed}
            if needed
            else _("Nothing is one rank higher than the %(play)s.") % {"play": play}
        ),
        "wrong_length": _("Follow the %(play)s with as many cards: %(count)s.")
        % {"play": play, "count": p.get("count", "")},
        "wrong_kind": _(
            "Follow the %(play)s with the same shape one rank higher, a 2 where it counts, or a bomb."
        )
        % {"play": play},
        "joker_as_two": _("A joker stands for 3 to ace, never for a 2."),
        "two_in_run": _("A 2 never goes into a straight or a pair run."),
        "lone_joker": _(
            "A joker cannot be played alone – only as your last card, on your lead, once the stock is empty."
        ),
        "pass_on_lead": _("You lead: play something – you cannot pass."),
        "not_a_play": _(
            "Those cards form no play: a single, a pair, a straight of 3 or more, a pair run or a bomb."
        ),
        "does_not_beat": _("That does not beat the %(play)s on the table.") % {"play": play},
        # the site
        "stale": _("The table has moved on since you looked. Here is the current state."),
        "not_seated": _("You are not seated at this table, so you cannot act here."),
        "match_finished": _("This match is finished."),
        "hand_over": _("The hand is over. Start the next hand to play on."),
        "no_such_table": _("There is no such table."),
        "bad_level": _("Choose easy, normal or hard."),
        "bad_frame": _("That message was not understood."),
        "bad_seats": _("This game cannot be played with that many players."),
        "bad_options": _("Those table settings are not available."),
    }
    return messages.get(code) or _("That move is not allowed.")


def _gandengyan_play(p: dict) -> tuple[str, str]:
    """Gan Deng Yan refusals name the play on the table and the one that would beat it."""
    if p.get("kind") not in ("single", "pair", "straight", "pair_run", "bomb", "joker_bomb"):
        return "", ""
    from games.presenters_gandengyan import combo_label

    rank = p.get("rank")
    count = p.get("count") if isinstance(p.get("count"), int) else 1
    combo = {"kind": p["kind"], "low": rank, "high": rank, "count": count}
    if p["kind"] in ("straight", "pair_run") and isinstance(rank, str):
        from games.engine.gandengyan.combos import ORDER

        length = count if p["kind"] == "straight" else count // 2
        i = ORDER.find(rank)
        combo["high"] = ORDER[min(i + length - 1, len(ORDER) - 1)] if i >= 0 else rank
    needed = p.get("needed")
    if isinstance(needed, str) and needed:
        high = combo["high"]
        if p["kind"] in ("straight", "pair_run") and isinstance(high, str):
            from games.engine.gandengyan.combos import ORDER

            high = ORDER[min(ORDER.find(high) + 1, len(ORDER) - 1)]
        needed = combo_label({"kind": p["kind"], "low": needed, "high": high, "count": count})
    else:
        needed = ""
    return combo_label(combo), needed
