"""Toy Trick: a reviewed decision's position, the trick so far."""

from __future__ import annotations

from django.utils.translation import gettext as _


def position(observation: dict) -> dict:
    return {
        "hand": list(observation["hand"]),
        "table": [
            {"seat": p["seat"], "cards": [p["card"]]}
            for p in (observation.get("trick") or {}).get("plays", [])
        ],
        "trick": len(observation.get("tricks") or []) + 1,
    }


def note(position: dict, names: dict) -> str:
    if position["table"]:
        return _("Trick %(number)s: the trick so far.") % {"number": position["trick"]}
    return _("Trick %(number)s: your lead.") % {"number": position["trick"]}
