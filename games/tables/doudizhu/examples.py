"""Dou Dizhu: its worked examples on the rule pages (``::: example doudizhu …``), drawn with the
kit the rule pages hand over (``cardsite.rules.render.ExampleKit``)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def example(attrs: dict, kit) -> tuple[dict, str, str]:
    """The example's data-* attributes, its body and its result line."""
    groups = [kit.cards(g, "bombs") for g in attrs.get("cards", "").split("|") if g.strip()]
    bid, bombs, stake = (
        kit.integer(attrs, "bid"),
        kit.integer(attrs, "bombs"),
        kit.integer(attrs, "stake"),
    )
    spring, anti = kit.yes(attrs.get("spring", "")), kit.yes(attrs.get("anti-spring", ""))
    data = {
        "bid": bid,
        "bombs": bombs,
        "spring": int(spring),
        "anti-spring": int(anti),
        "stake": stake,
        "cards": "|".join(" ".join(g) for g in groups),
    }
    chips = [_("Bid %(bid)d") % {"bid": bid}]
    chips.append(
        ngettext("%(n)d bomb or rocket", "%(n)d bombs or rockets", bombs) % {"n": bombs}
        if bombs
        else _("no bomb")
    )
    if spring:
        chips.append(_("spring"))
    if anti:
        chips.append(_("anti-spring"))
    body = format_html(
        '<p class="example__meta">{}</p>{}',
        " · ".join(chips),
        format_html(
            '<p class="example__groups">{}</p>',
            format_html_join(
                "", '<span class="example__group">{}</span>', ((kit.cards_html(g),) for g in groups)
            ),
        )
        if groups
        else "",
    )
    result = format_html("{} <strong>{}</strong>", _("Stake per peasant:"), stake)
    return data, body, result
