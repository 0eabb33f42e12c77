"""Gong Zhu: its worked examples on the rule pages (``::: example gongzhu …``), drawn with the
kit the rule pages hand over (``cardsite.rules.render.ExampleKit``)."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.translation import gettext as _


def example(attrs: dict, kit) -> tuple[dict, str, str]:
    """The example's data-* attributes, its body and its result line."""
    taken = kit.cards(attrs.get("taken", ""), "taken")
    exposed = kit.cards(attrs.get("exposed", ""), "exposed")
    score = kit.integer(attrs, "score")
    data = {"taken": " ".join(taken), "exposed": " ".join(exposed), "score": score}
    rows = [(_("Taken"), kit.cards_html(taken))]
    if exposed:
        rows.append((_("Exposed"), kit.cards_html(exposed)))
    body = kit.rows(rows)
    result = format_html("{} <strong>{}</strong>", _("Hand score:"), kit.signed(score))
    return data, body, result
