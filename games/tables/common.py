"""What every table plug-in draws with: cards, their names, levels, rows of a result.

Card codes are the engine's ("QS", "TH", "BJ"/"RJ" for the jokers); names and symbols are
in the viewer's language.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy, pgettext, pgettext_lazy

from games.engine.base import Observation, PublicView

LEVEL_CHOICES = [
    ("easy", gettext_lazy("Easy")),
    ("normal", gettext_lazy("Normal")),
    ("hard", gettext_lazy("Hard")),
]

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


# Several cards of one rank, as a sentence names them: English "aces", "7s"; German keeps the
# faces' letters ("Paar A").
RANK_PLURALS = {
    "A": pgettext_lazy("several cards of a rank", "aces"),
    "K": pgettext_lazy("several cards of a rank", "kings"),
    "Q": pgettext_lazy("several cards of a rank", "queens"),
    "J": pgettext_lazy("several cards of a rank", "jacks"),
}


def rank_plural(rank: str) -> str:
    """Cards of ``rank`` in a name like "pair of aces", "three 7s" ("Paar A", "Drilling 7")."""
    word = RANK_PLURALS.get(rank)
    if word is not None:
        return str(word)
    return pgettext("several cards of a rank", "%(rank)ss") % {"rank": rank_short(rank)}


def rank_label(rank: str) -> str:
    return str(RANK_NAMES.get(rank, rank))


def rank_short(rank: str) -> str:
    return RANK_SHORT.get(rank, rank)


def card_name(card: str) -> str:
    """A card's spoken name: "queen of spades" / "Pik-Dame"."""
    if card == "BJ":
        return _("black joker")
    if card == "RJ":
        return _("red joker")
    rank, suit = card[0], card[1]
    # Translators: a card's name, e.g. "queen of spades"; German "Pik-Dame".
    return _("%(rank)s of %(suit)s") % {"rank": rank_label(rank), "suit": SUIT_NAMES[suit]}


@dataclass
class Card:
    """One card as the card renderer draws it."""

    code: str
    playable: bool = True
    selected: bool = False
    reason: str = ""
    marker: str = ""

    @property
    def suit(self) -> str:
        return "" if self.code in ("BJ", "RJ") else self.code[1]

    @property
    def rank(self) -> str:
        return rank_short(self.code[0]) if self.suit else "★"

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS.get(self.suit, "")

    @property
    def label(self) -> str:
        return card_name(self.code)


@dataclass
class HandCard(Card):
    """A card of the viewer's hand; ``new`` marks one just taken up (drawn, the kitty)."""

    new: bool = False


@dataclass
class Play:
    """One seat's move in a round: the cards and their reading in words, or a pass."""

    seat: int
    name: str
    cards: list = field(default_factory=list)
    label: str = ""
    passed: bool = False


def frame_cards(value) -> list:
    """Card codes from a browser frame: one value or a list (htmx sends a lone checkbox as a
    string)."""
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return value
    return [value]  # anything else reaches the engine, which refuses it as malformed


def frame_combo(value):
    """The reading a frame chose for its cards (the chips send it as JSON text), or None.

    Text that is not JSON becomes a value the engine refuses as malformed; JSON nested deeper
    than the parser goes raises RecursionError, which the live handler refuses as a frame it
    cannot read.
    """
    if isinstance(value, str) and value:
        try:
            return json.loads(value)
        except ValueError:
            return "?"
    return value or None


def frame_reading(combo: dict) -> str:
    """``frame_combo``'s inverse: a reading as the chips send it."""
    return json.dumps(combo, separators=(",", ":"))


def standings(rows: list[dict]) -> list[dict]:
    """``rows`` best total first, each with its ``place``: players with the same total share
    it (1, 2, 2, 4), as a ranking says it."""
    ranked = sorted(rows, key=lambda r: -r["total"])
    for i, row in enumerate(ranked):
        same = i and ranked[i - 1]["total"] == row["total"]
        row["place"] = ranked[i - 1]["place"] if same else i + 1
    return ranked


def seat_basics(names: dict, index: int, seat: int | None) -> dict:
    """What every board says of a seat, from the table's names (``TableSummary.names``): its
    index, who plays it (a computer player's level) and whether it is the viewer's."""
    return {
        "index": index,
        "name": names[index]["name"],
        "is_bot": names[index]["is_bot"],
        "level": names[index]["level"],
        "is_viewer": index == seat,
    }


def result_rows(view: PublicView, names: dict, viewer: int | None) -> list[dict]:
    """One row per seat of the hand's breakdown, with the running total."""
    return [
        {
            "seat": s,
            "name": names[s]["name"],
            "row": row,
            "is_viewer": s == viewer,
            "total": view["totals"][s],
        }
        for s, row in enumerate(view["result"]["breakdown"])
    ]


def selection_reading(view: Observation, cards: list, legal: list, readings, label) -> str:
    """What a selection of the player's own cards is as a play now, in words: the play(s)
    it would be, or why it cannot be one. From the seat's own view: its ``legal`` actions
    (the engine's, as the observation lists them), the play to beat (its ``table``, a key
    of the games that read selections) and the engine's context-free
    ``readings``; nothing else is looked at.

    ``label`` names a combination ("pair of 9s"). A selection holding a card the seat does
    not hold reads as nothing (the page only sends its own cards).
    """
    cards = [c for c in cards[:60] if isinstance(c, str)]
    if not cards:
        return ""
    if not set(cards) <= set(view["hand"]):
        return str(_("Not a play."))
    # The engine lists legal plays up to suit: a selection fits one if it reads as the same
    # combination (or is exactly its cards, for the plays readings leave to legal_actions).
    plays = [a for a in legal if a.get("type") == "play"]
    combos = [a["combo"] for a in plays]
    found = [c.to_dict() for c in readings(cards)]
    fits = [c for c in found if c in combos]
    fits += [
        a["combo"]
        for a in plays
        if sorted(a.get("cards") or []) == sorted(cards) and a["combo"] not in fits
    ]
    if fits:
        return str(_(" or ").join(label(c) for c in fits))
    if not found:
        return str(_("Not a combination."))
    words = _(" or ").join(label(c) for c in found)
    if not any(a.get("type") in ("play", "pass") for a in legal):
        return str(words)  # not the player's turn to play: what it is, no more
    if view["table"]:
        return str(
            _("%(play)s – cannot beat %(table)s")
            % {
                "play": words,
                "table": label(view["table"]["combo"]),
            }
        )
    return str(_("%(play)s – cannot be led now") % {"play": words})


def hand_form(context: dict) -> tuple:
    """The arguments of the hand form where a play takes several cards
    (``games/combo/hand.jinja``, after its class and labels), from a board's context; a game
    without a bidding phase has no ``bidding`` (None)."""
    return (
        context["hand"],
        context["hand_wraps"],
        context["my_turn"],
        context.get("bidding"),
        context["following"],
        context["readings_json"],
        context["can_play"],
    )


def share(count: int, total: int) -> str:
    """A count out of a total, with its share: "3 of 12 (25%)" (German: "3 von 12 (25 %)"); a dash when there is none."""
    if not total:
        return "–"
    return _("%(count)s of %(total)s (%(percent)s%%)") % {
        "count": count,
        "total": total,
        "percent": round(100 * count / total),
    }


# The boards' sentences with a count (cardsite/jinja.py: ``say(words.key, n=…)``), each game's
# own beside them in its messages.BOARD_WORDS.
BOARD_WORDS = {
    "cards_left": ngettext_lazy("%(n)s card left", "%(n)s cards left", "n"),
    "cards": ngettext_lazy("%(n)s card", "%(n)s cards", "n"),
    "watching": ngettext_lazy("%(n)s watching", "%(n)s watching", "n"),
}
