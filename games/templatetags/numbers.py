"""Scores as the score sheets print them: ``+200``, ``−160`` (a real minus sign), ``0``.

One function for every kind of page: the Django filter (``{% load numbers %}``,
``{{ total|signed }}``), the boards' Jinja filter (cardsite/jinja.py) and the rule pages'
examples (cardsite/rules/render.py).
"""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def signed(value) -> str:
    """+200, −160, 0; anything that is not a whole number is shown as it is ("–", empty)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "" if value is None else str(value)
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "0"
