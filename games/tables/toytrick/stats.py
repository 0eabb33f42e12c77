"""A player's Toy Trick figures: their average per hand."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.templatetags.numbers import signed


def facts(hands: list[tuple[list, int]]) -> list[dict]:
    mine = [breakdown[seat] for breakdown, seat in hands]
    if not mine:
        return []
    average = round(sum(b.get("score", 0) for b in mine) / len(mine), 1)
    return [{"label": _("Average per hand"), "value": signed(average)}]
