"""A player's Gan Deng Yan figures: rounds won, springs (a round won while another player had
not played a card), and their average per round."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables.common import share
from games.templatetags.numbers import signed


def facts(hands: list[tuple[list, int]]) -> list[dict]:
    if not hands:
        return []
    won = [(b, seat) for b, seat in hands if b[seat].get("winner")]
    springs = sum(
        1 for b, seat in won if any(o.get("spring") for i, o in enumerate(b) if i != seat)
    )
    return [
        {"label": _("Rounds won"), "value": share(len(won), len(hands))},
        {"label": _("Springs"), "value": str(springs)},
        {
            "label": _("Average per round"),
            "value": signed(round(sum(b[seat].get("score", 0) for b, seat in hands) / len(hands))),
        },
    ]
