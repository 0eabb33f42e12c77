"""A player's Dou Dizhu figures: how often they were the landlord and won as one, won as a
peasant, and played a spring."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables.common import share


def facts(hands: list[tuple[list, int]]) -> list[dict]:
    mine = [breakdown[seat] for breakdown, seat in hands]
    if not mine:
        return []
    landlord = [b for b in mine if b.get("role") == "landlord"]
    peasant = [b for b in mine if b.get("role") == "peasant"]
    return [
        {"label": _("Landlord"), "value": share(len(landlord), len(mine))},
        {
            "label": _("Won as landlord"),
            "value": share(sum(1 for b in landlord if b.get("won")), len(landlord)),
        },
        {
            "label": _("Won as peasant"),
            "value": share(sum(1 for b in peasant if b.get("won")), len(peasant)),
        },
        {
            "label": _("Springs"),
            "value": str(
                sum(1 for b in mine if b.get("won") and (b.get("spring") or b.get("anti_spring")))
            ),
        },
    ]
