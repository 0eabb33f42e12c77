"""Gan Deng Yan in words: plays ("pair of 9s", "straight 5–7") and the game's own refusals,
which name the play on the table and what would beat it."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy, pgettext_lazy

from games.engine.cards import JOKERS
from games.engine.gandengyan.combos import ORDER
from games.tables.common import rank_plural, rank_short

# The board's sentences with a count or a context (cardsite/jinja.py: ``say``).
BOARD_WORDS = {
    "stock": ngettext_lazy("Stock: %(n)s card", "Stock: %(n)s cards", "n"),
    "bombs": ngettext_lazy("%(n)s bomb", "%(n)s bombs", "n"),
    "jokers": ngettext_lazy("%(n)s joker", "%(n)s jokers", "n"),
    "dealer_badge": pgettext_lazy("dealer badge", "D"),
    # A seat's badge: this player passed (the button is plain "Pass").
    "passed": pgettext_lazy("seat has passed", "Pass"),
}


def kind_name(kind: str) -> str:
    return {
        "single": _("single"),
        "pair": _("pair"),
        "straight": _("straight"),
        "pair_run": _("pair run"),
        "bomb": _("bomb"),
        "joker_bomb": _("joker bomb"),
    }.get(kind, kind)


def combo_label(combo: dict) -> str:
    """A play in words: "single 7", "pair of 9s", "straight 5–7", "bomb of four 8s"."""
    kind, low, high, count = combo["kind"], combo.get("low"), combo.get("high"), combo["count"]
    if kind == "joker_bomb":
        return _("joker bomb")
    if low in JOKERS:
        return _("single joker")
    lo, hi = rank_short(low or ""), rank_short(high or "")
    if kind == "single":
        return _("single %(rank)s") % {"rank": lo}
    if kind == "pair":
        return _("pair of %(ranks)s") % {"ranks": rank_plural(low)}
    if kind == "straight":
        return _("straight %(low)s–%(high)s") % {"low": lo, "high": hi}
    if kind == "pair_run":
        return _("pair run %(low)s–%(high)s") % {"low": lo, "high": hi}
    if kind == "bomb":
        return ngettext("bomb of %(count)d × %(rank)s", "bomb of %(count)d × %(rank)s", count) % {
            "count": count,
            "rank": lo,
        }
    return kind_name(kind)


def refusal(code: str, params: dict) -> str | None:
    play, needed = _play_and_needed(params)
    if code == "not_one_higher":
        if needed:
            return _("Exactly one rank higher: on the %(play)s only %(needed)s goes.") % {
                "play": play,
                "needed": needed,
            }
        return _("Nothing is one rank higher than the %(play)s.") % {"play": play}
    if code == "wrong_length":
        return _("Follow the %(play)s with as many cards: %(count)s.") % {
            "play": play,
            "count": params.get("count", ""),
        }
    if code == "wrong_kind":
        return _(
            "Follow the %(play)s with the same shape one rank higher, a 2 where it counts, or a bomb."
        ) % {"play": play}
    if code == "joker_as_two":
        return _("A joker stands for 3 to ace, never for a 2.")
    if code == "two_in_run":
        return _("A 2 never goes into a straight or a pair run.")
    if code == "lone_joker":
        return _(
            "A joker cannot be played alone – only as your last card, on your lead, once the stock is empty."
        )
    if code == "pass_on_lead":
        return _("You lead: play something – you cannot pass.")
    if code == "not_a_play":
        return _(
            "Those cards form no play: a single, a pair, a straight of 3 or more, a pair run or a bomb."
        )
    if code == "does_not_beat":
        return _("That does not beat the %(play)s on the table.") % {"play": play}
    return None


def _play_and_needed(p: dict) -> tuple[str, str]:
    """Gan Deng Yan refusals name the play on the table and the one that would beat it."""
    if p.get("kind") not in ("single", "pair", "straight", "pair_run", "bomb", "joker_bomb"):
        return "", ""
    rank = p.get("rank")
    count = p.get("count") if isinstance(p.get("count"), int) else 1
    combo = {"kind": p["kind"], "low": rank, "high": rank, "count": count}
    if p["kind"] in ("straight", "pair_run") and isinstance(rank, str):
        length = count if p["kind"] == "straight" else count // 2
        i = ORDER.find(rank)
        combo["high"] = ORDER[min(i + length - 1, len(ORDER) - 1)] if i >= 0 else rank
    needed = p.get("needed")
    if isinstance(needed, str) and needed:
        high = combo["high"]
        if p["kind"] in ("straight", "pair_run") and isinstance(high, str):
            high = ORDER[min(ORDER.find(high) + 1, len(ORDER) - 1)]
        needed = combo_label({"kind": p["kind"], "low": needed, "high": high, "count": count})
    else:
        needed = ""
    return combo_label(combo), needed
