"""Toy Trick: one seat's observation -> the board (the opponent at the top, the trick, the
hand; the hand's result).

Everything here reads one seat's observation (or the public view) and the table's public
facts, so a page or a frame never shows more than that seat may know.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables.base import Plan, TableSummary, board_plan, seat_part, seats_to_move
from games.tables.common import (
    LEVEL_CHOICES,
    SUIT_NAMES,
    Card,
    card_name,
    result_rows,
    seat_basics,
    standings,
)
from games.tables.toytrick import messages


def context(table: TableSummary, view: dict, seat: int | None, selected=()) -> dict:
    """The board for one viewer (``seat`` None: a spectator sitting at seat 0)."""
    viewer = 0 if seat is None else seat
    names = table.names()
    to_move = view.get("to_move")
    trick = view.get("trick") or {"plays": []}
    last = view.get("last_trick")
    # A trick that has just closed stays in the middle until the next card is played.
    showing_closed = bool(last and not trick["plays"])
    center = last["plays"] if showing_closed else trick["plays"]
    seats = [
        {
            **seat_basics(names, s, seat),
            "position": "bottom" if s == viewer else "top",
            "cards_left": view["hand_sizes"][s],
            "won": view["won"][s],
            "total": view["totals"][s],
            "to_move": to_move == s,
            "played": None,
        }
        for s in range(2)
    ]
    for play in center:
        seats[play["seat"]]["played"] = Card(play["card"])
    over = bool(view.get("result"))
    my_turn = seat is not None and to_move == seat and not over
    legal = set(view.get("legal_cards") or [])
    reasons = {}
    if my_turn:
        reasons = {
            card: messages.refusal(r["code"], r["params"]) or ""
            for card, r in (view.get("unplayable") or {}).items()
        }
    hand = [
        Card(c, playable=my_turn and c in legal, selected=c in selected, reason=reasons.get(c, ""))
        for c in view.get("hand") or []
    ]
    wait_reason = ""
    if seat is not None and not my_turn and not over and to_move is not None:
        wait_reason = _("Wait for your turn: %(name)s is playing.") % {
            "name": names[to_move]["name"]
        }
    return {
        "view": view,
        "viewer": seat,
        "spectator": seat is None,
        "seats": seats,
        "top": seats[1 - viewer],
        "bottom": seats[viewer],
        "center_closed": showing_closed,
        "closed_winner": names[last["winner"]]["name"] if showing_closed else "",
        "hand": hand,
        "my_turn": my_turn,
        "wait_reason": wait_reason,
        "status": _status(view, seat, names),
        "announce": _announcement(view, names),
        "result": _result(view, names, viewer) if over else None,
        "hand_number": view["hand_number"],
        "match_over": view.get("match_over") or not table.is_active,
        "resigned": table.resigned,
        "version": view["version"],
        "table": table,
        "level_choices": LEVEL_CHOICES,
        "bots_moving": not over
        and to_move is not None
        and to_move != seat
        and names.get(to_move, {}).get("is_bot", False),
    }


def parts(context: dict) -> Plan:
    """The board's parts (``Plan``): the opponent's seat, the trick, the viewer's place, and
    the parts every board has."""
    hint = context.get("hint")
    top = context["top"]
    parts = {
        "root": (
            "root",
            (
                context["my_turn"],
                context["version"],
                context["hand_number"],
                context["wait_reason"],
                hint["type"] if hint else "",
                seats_to_move(context["seats"]),
            ),
        ),
        f"seat-{top['index']}": seat_part(top),
        "trick": (
            "trick",
            (
                context["center_closed"],
                context["closed_winner"],
                [(s["position"], s["played"]) for s in context["seats"]],
            ),
        ),
        "me": (
            "me",
            (context["bottom"], context["spectator"], context["my_turn"], context["hand"]),
        ),
    }
    return board_plan(context, parts)


def _status(view: dict, seat: int | None, names: dict) -> str:
    if view.get("result"):
        return _("The hand is over.")
    to_move = view.get("to_move")
    if seat is not None and to_move == seat:
        plays = (view.get("trick") or {}).get("plays") or []
        if not plays:
            return _("Your lead: play any card.")
        suit = plays[0]["card"][1]
        if any(c[1] == suit for c in view.get("hand") or []):
            return _("Your turn: follow %(suit)s.") % {"suit": SUIT_NAMES[suit]}
        return _("Your turn: you have no %(suit)s, play any card.") % {"suit": SUIT_NAMES[suit]}
    if to_move is not None:
        return _("%(name)s is playing…") % {"name": names[to_move]["name"]}
    return ""


def _announcement(view: dict, names: dict) -> str:
    """One sentence for the screen reader's live region: the latest card played."""
    trick = view.get("trick") or {"plays": []}
    last = view.get("last_trick")
    plays = trick["plays"] or (last or {}).get("plays") or []
    if not plays:
        return ""
    p = plays[-1]
    text = _("%(name)s played the %(card)s.") % {
        "name": names[p["seat"]]["name"],
        "card": card_name(p["card"]),
    }
    if not trick["plays"] and last:
        text += " " + _("%(name)s takes the trick.") % {"name": names[last["winner"]]["name"]}
    return text


def _result(view: dict, names: dict, viewer: int) -> dict:
    ranking = standings(
        [{"seat": s, "name": names[s]["name"], "total": t} for s, t in enumerate(view["totals"])]
    )
    won = view.get("winner") == viewer if view.get("match_over") else None
    return {"rows": result_rows(view, names, viewer), "ranking": ranking, "won": won}
