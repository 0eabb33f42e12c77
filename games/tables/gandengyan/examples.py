"""Gan Deng Yan: its worked examples on the rule pages (``::: example gandengyan …``), drawn with the
kit the rule pages hand over (``cardsite.rules.render.ExampleKit``)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def example(attrs: dict, kit) -> tuple[dict, str, str]:
    """The example's data-* attributes, its body and its result line."""
    hands = [kit.cards(h, "hands") for h in attrs.get("hands", "").split("|")]
    played = [kit.yes(p) for p in attrs.get("played", "").split()]
    scores = [int(s) for s in attrs.get("scores", "").split()]
    winner, bombs = kit.integer(attrs, "winner"), kit.integer(attrs, "bombs")
    if not (len(hands) == len(played) == len(scores)) or not 0 <= winner < len(hands):
        raise ValueError(_("The example needs hands, played and scores for every seat."))
    data = {
        "winner": winner,
        "bombs": bombs,
        "hands": "|".join(" ".join(h) for h in hands),
        "played": " ".join("1" if p else "0" for p in played),
        "scores": " ".join(str(s) for s in scores),
    }
    body = format_html(
        '<p class="example__meta">{}</p><table class="example__seats"><thead><tr>'
        "<th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table>",
        ngettext("%(n)d bomb played this round", "%(n)d bombs played this round", bombs)
        % {"n": bombs}
        if bombs
        else _("No bomb played this round"),
        _("Seat"),
        _("Cards left"),
        _("Score"),
        format_html_join(
            "",
            '<tr{}><th scope="row">{}</th><td>{}</td><td class="num">{}</td></tr>',
            (
                (
                    mark_safe(' class="is-winner"') if seat == winner else "",
                    kit.seat_label(seat, winner, played[seat]),
                    kit.cards_html(hand) if hand else "–",
                    kit.signed(score),
                )
                for seat, (hand, score) in enumerate(zip(hands, scores, strict=True))
            ),
        ),
    )
    result = ""
    return data, body, result
