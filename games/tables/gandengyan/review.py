"""Gan Deng Yan: a reviewed decision's position, the play to beat and the stock."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.gandengyan import GanDengYanObservation


def position(observation: GanDengYanObservation) -> dict:
    table = observation["table"]
    return {
        "hand": list(observation["hand"]),
        "table": [{"seat": table["seat"], "cards": list(table["cards"])}] if table else [],
        "stock": observation["stock"],
    }


def note(position: dict, names: dict) -> str:
    stock = ngettext(
        "%(count)s card in the stock.", "%(count)s cards in the stock.", position["stock"]
    ) % {"count": position["stock"]}
    if position["table"]:
        return _("The play to beat. %(stock)s") % {"stock": stock}
    return _("Your lead. %(stock)s") % {"stock": stock}
