"""A player's Gong Zhu figures: how often they took the pig, collected every heart, won the
goat, and their average per hand."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables.common import share
from games.templatetags.numbers import signed


def facts(hands: list[tuple[list, int]]) -> list[dict]:
    mine = [breakdown[seat] for breakdown, seat in hands]
    if not mine:
        return []
    return [
        {
            "label": _("Pig taken"),
            "value": share(sum(1 for b in mine if b.get("pig", 0) < 0), len(mine)),
        },
        {
            "label": _("All hearts collected"),
            "value": share(sum(1 for b in mine if b.get("all_hearts")), len(mine)),
        },
        {
            "label": _("Goat won"),
            "value": share(sum(1 for b in mine if b.get("goat", 0) > 0), len(mine)),
        },
        {
            "label": _("Average per hand"),
            "value": signed(round(sum(b.get("score", 0) for b in mine) / len(mine))),
        },
    ]
