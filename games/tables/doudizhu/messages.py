"""Dou Dizhu in words: plays ("pair of 9s", "chain 5–9", "rocket") and the game's own
refusals (games.engine.doudizhu.actions.GAME_CODES)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from games.tables.common import rank_plural, rank_short

# The board's sentences with a count (cardsite/jinja.py: ``say``).
BOARD_WORDS = {
    "redeals": ngettext_lazy("%(n)s deal thrown in", "%(n)s deals thrown in", "n"),
    "bombs": ngettext_lazy("%(n)s bomb/rocket", "%(n)s bombs/rockets", "n"),
    "thrown_in": ngettext_lazy(
        "Everyone passed: thrown in, new deal.",
        "Everyone passed: thrown in, new deal (%(n)s times).",
        "n",
    ),
    "bid_points": ngettext_lazy("Bid %(n)s point", "Bid %(n)s points", "n"),
    # A seat's badge: this player passed (the button is plain "Pass").
    "passed": pgettext_lazy("seat has passed", "Pass"),
}


def kind_name(kind: str) -> str:
    return {
        "solo": _("single"),
        "pair": _("pair"),
        "trio": _("trio"),
        "trio_solo": _("trio with a single"),
        "trio_pair": _("trio with a pair"),
        "chain": _("chain"),
        "pair_chain": _("pair chain"),
        "airplane": _("airplane"),
        "airplane_solo": _("airplane with single wings"),
        "airplane_pair": _("airplane with pair wings"),
        "four_two_solo": _("four with two singles"),
        "four_two_pair": _("four with two pairs"),
        "bomb": _("bomb"),
        "rocket": _("rocket"),
    }.get(kind, kind)


def _rank(rank) -> str:
    if rank == "BJ":
        return _("black joker")
    if rank == "RJ":
        return _("red joker")
    return rank_short(rank or "")


def combo_label(combo: dict | None) -> str:
    """A play in words: "single 7", "pair of 9s", "chain 5–9", "bomb of 8s", "rocket"."""
    if not combo:
        return ""
    kind, low, high = combo["kind"], combo.get("low"), combo.get("high")
    lo, hi = _rank(low), _rank(high)
    ranks = rank_plural(low) if low else ""
    if kind == "rocket":
        return _("rocket")
    if kind == "solo":
        return _("single %(rank)s") % {"rank": lo}
    if kind == "pair":
        return _("pair of %(ranks)s") % {"ranks": ranks}
    if kind == "trio":
        return _("three %(ranks)s") % {"ranks": ranks}
    if kind == "trio_solo":
        return _("three %(ranks)s with a single") % {"ranks": ranks}
    if kind == "trio_pair":
        return _("three %(ranks)s with a pair") % {"ranks": ranks}
    if kind == "bomb":
        return _("bomb of %(ranks)s") % {"ranks": ranks}
    if kind in ("four_two_solo", "four_two_pair"):
        what = _("four %(ranks)s with two singles") if kind == "four_two_solo" else None
        if what is None:
            what = _("four %(ranks)s with two pairs")
        return what % {"ranks": ranks}
    return _("%(kind)s %(low)s–%(high)s") % {"kind": kind_name(kind), "low": lo, "high": hi}


def refusal(code: str, params: dict) -> str | None:
    kind = kind_name(params.get("kind", "")) if isinstance(params.get("kind"), str) else ""
    if code == "not_bidding_phase":
        return _("The bidding is over: play or pass.")
    if code == "still_bidding":
        return _("The bidding is still on: bid or pass.")
    if code == "bid_out_of_range":
        return _("A bid is 1, 2 or 3 points, or a pass.")
    if code == "bid_too_low":
        return _("Bid more than the current bid of %(current)s.") % {
            "current": params.get("current", "")
        }
    if code == "already_passed":
        return _("You passed: you cannot bid again on this deal.")
    if code == "not_a_combination":
        return _(
            "Those cards form no play: a single, pair, trio (with a kicker), chain, "
            "pair chain, airplane, four with two, bomb or the rocket."
        )
    if code == "wrong_kind":
        return _("Follow with the same kind (%(kind)s), a bomb or the rocket.") % {"kind": kind}
    if code == "wrong_count":
        return _("Follow with as many cards as on the table: %(count)s.") % {
            "count": params.get("count", "")
        }
    if code == "does_not_beat":
        return _("That does not beat the %(kind)s on the table.") % {"kind": kind}
    if code == "pass_on_lead":
        return _("You lead: play something – you cannot pass.")
    return None
