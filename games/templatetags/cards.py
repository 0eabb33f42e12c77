"""``{% table_card c %}``: one playing card, drawn with CSS and text (crisp at any size).

The one card renderer of the tables and the replays: every template calls the tag, so a card
looks the same wherever it lies. A tag rather than an included template: a table renders
dozens of cards per frame.
"""

import functools
import json

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language

from games.tables.common import Card

register = template.Library()


def card_html(c, small: bool = False, labelled: bool = True, language: str | None = None) -> str:
    """``c`` is a games.tables.common.Card (code, suit, rank, symbol, label): what it draws
    follows from its code (and the language of its name), so each is drawn once per process.

    A card is an image named for screen readers (``labelled``). Inside a control that names
    it itself (a card of the hand: a button with the name as its text) the face is only
    drawn, hidden from screen readers, so the control's name is its text and nothing else.
    The face's parts need no marks of their own: an image's inside is not read, and a hidden
    face hides them too (a table sends dozens of cards in every frame).
    """
    return _card_html(c.code, bool(small), bool(labelled), language or get_language())


@functools.lru_cache(maxsize=1024)
def _card_html(code: str, small: bool, labelled: bool, language: str | None) -> str:
    c = Card(code)
    classes = "card"
    if c.suit:
        classes += f" suit-{c.suit}"
    if small:
        classes += " card--small"
    if labelled:
        opening = format_html(
            '<span class="{}" data-card="{}" role="img" aria-label="{}">', classes, c.code, c.label
        )
    else:
        opening = format_html(
            '<span class="{}" data-card="{}" aria-hidden="true">', classes, c.code
        )
    return format_html(
        '{}<span class="card__idx">{}<br>{}</span><span class="card__pip">{}</span></span>',
        opening,
        c.rank,
        c.symbol,
        c.symbol,
    )


@register.simple_tag
def table_card(c, small=False, labelled=True, language=None):
    """A card; a played card that can stand in for another (it has a ``tag``, as a joker
    played "as 9") comes in a ``played`` wrapper, which holds the tag when there is one."""
    card = card_html(c, small, labelled, language)
    tag = getattr(c, "tag", None)
    if tag is None:
        return card
    if not tag:
        return format_html('<span class="played">{}</span>', card)
    return format_html(
        '<span class="played played--joker">{}'
        '<span class="joker-tag" data-testid="joker-tag">{}</span></span>',
        card,
        tag,
    )


@register.simple_tag
def hand_card(c, new_label="", language=None):
    """A card of the player's hand: a button named by the card (and ``new_label`` when it was
    just taken up), the face drawn inside, in its own region for the frames (a card played
    is deleted by its id). What may be played now is not here but in the hand's state, so
    the markup follows from the card alone: drawn once per process and language."""
    return _hand_card(
        c.code,
        bool(c.selected),
        bool(getattr(c, "new", False)),
        str(new_label),
        language or get_language(),
    )


@functools.lru_cache(maxsize=4096)
def _hand_card(code: str, selected: bool, new: bool, new_label: str, language: str | None):
    c = Card(code)
    return format_html(
        '<!--region hand-{code}--><button type="button" id="hand-{code}"'
        ' class="hand__card{sel}{new}" data-card="{code}" role="option" aria-selected="{aria}">{face}'
        '<span class="sr-only">{label}{note}</span><span class="sr-only" data-why></span>'
        "</button><!--/region hand-{code}-->",
        code=code,
        sel=" is-selected" if selected else "",
        new=" is-new" if new else "",
        aria="true" if selected else "false",
        face=_card_html(code, False, False, language),
        label=c.label,
        note=f" – {new_label}" if new else "",
    )


@register.filter
def playable_codes(hand) -> str:
    """The codes of a hand's cards that may be played now, for the hand's state."""
    return " ".join(c.code for c in hand if c.playable)


@register.filter
def hand_reasons(hand) -> str:
    """Why each card of a hand that may not be played now may not, as JSON for the hand's
    state: each reason once, with its cards' codes ({"You must follow spades.": "KH 9H"}).
    The page's script (table.js) sets them on the cards."""
    grouped: dict[str, list[str]] = {}
    for c in hand:
        reason = getattr(c, "reason", "")
        if reason:
            grouped.setdefault(str(reason), []).append(c.code)
    return json.dumps({r: " ".join(codes) for r, codes in grouped.items()}, ensure_ascii=False)
