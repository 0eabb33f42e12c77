"""``{% table_card c %}``: one playing card, drawn with CSS and text (crisp at any size).

A tag rather than an included template: a table renders dozens of cards per frame.
"""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def table_card(c, small=False):
    """``c`` is a games.tables.common.Card (code, suit, rank, symbol, label)."""
    classes = "card"
    if c.suit:
        classes += f" suit-{c.suit}"
    if small:
        classes += " card--small"
    return format_html(
        '<span class="{}" data-card="{}" role="img" aria-label="{}">'
        '<span class="card__idx" aria-hidden="true">{}<br>{}</span>'
        '<span class="card__pip" aria-hidden="true">{}</span></span>',
        classes,
        c.code,
        c.label,
        c.rank,
        c.symbol,
        c.symbol,
    )
