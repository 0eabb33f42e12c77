"""Dou Dizhu: a reviewed decision's position, the play to beat and who is the landlord."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.doudizhu import DouDizhuObservation


def position(observation: DouDizhuObservation) -> dict:
    table = observation["table"]
    return {
        "hand": list(observation["hand"]),
        "table": [{"seat": table["seat"], "cards": list(table["cards"])}] if table else [],
        "landlord": observation["landlord"],
        "seat": observation["seat"],
    }


def note(position: dict, names: dict) -> str:
    landlord = position["landlord"]
    if landlord is None:
        return _("The bidding: your bid.")
    if landlord == position["seat"]:
        role = _("You are the landlord.")
    else:
        role = _("%(name)s is the landlord.") % {"name": names[landlord]["name"]}
    if position["table"]:
        return _("The play to beat. %(role)s") % {"role": role}
    return _("Your lead. %(role)s") % {"role": role}
