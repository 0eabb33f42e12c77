"""Toy Trick's own refusal, as a sentence (the site's words for following suit)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables.common import SUIT_NAMES


def refusal(code: str, params: dict) -> str | None:
    if code == "must_follow_suit":
        return _("You must follow %(suit)s.") % {"suit": SUIT_NAMES.get(params.get("suit"), "")}
    return None
