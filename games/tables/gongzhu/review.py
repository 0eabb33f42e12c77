"""Gong Zhu: a reviewed decision's position, the trick so far."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.gongzhu import GongZhuObservation


def position(observation: GongZhuObservation) -> dict:
    trick = observation["trick"]  # None in the exposure phase
    return {
        "hand": list(observation["hand"]),
        "table": [
            {"seat": p["seat"], "cards": [p["card"]]} for p in (trick["plays"] if trick else [])
        ],
        "trick": len(observation["tricks"]) + 1,
    }


def note(position: dict, names: dict) -> str:
    if position["table"]:
        return _("Trick %(number)s: the trick so far.") % {"number": position["trick"]}
    return _("Trick %(number)s: your lead.") % {"number": position["trick"]}
