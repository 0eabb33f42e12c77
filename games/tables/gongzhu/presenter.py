"""Gong Zhu: one seat's observation -> the board (exposure phase, tricks, the hand's result).

Everything here reads one seat's observation (or the public view) and the table's public
facts, so a page or a frame can never show more than that seat may know.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.gongzhu import EXPOSABLE, GongZhuObservation, GongZhuView
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
from games.tables.gongzhu import messages

POSITIONS = ("bottom", "right", "top", "left")  # play passes counter-clockwise on screen


def position_of(seat: int, viewer: int) -> str:
    """Gong Zhu's four places, the viewer at the bottom and play going counter-clockwise."""
    return POSITIONS[(seat - viewer) % 4]


MARKERS = {"QS": "pig", "JD": "goat", "TC": "transformer"}


def marker_label(kind: str) -> str:
    return {"pig": _("The pig!"), "goat": _("The goat!"), "transformer": _("The transformer!")}.get(
        kind, ""
    )


def exposure_effect(card: str) -> str:
    return {
        "AH": _("hearts ×2"),
        "QS": _("pig ×2"),
        "JD": _("goat ×2"),
        "TC": _("transformer ×2"),
    }[card]


def context(
    table: TableSummary, view: GongZhuObservation | GongZhuView, seat: int | None, selected=()
) -> dict:
    """The Gong Zhu board for one viewer (``seat`` None: a spectator sitting at seat 0, whose
    view is the public one: no hand, no choices of its own)."""
    viewer = 0 if seat is None else seat
    names = table.names()
    phase = view["phase"]
    to_move = view["to_move"]
    totals = view["totals"]
    out = set(view["out"])
    trick = view["trick"] or {"plays": []}  # None in the exposure phase
    last = view["last_trick"]
    # A trick that has just closed stays in the middle until the next card is played.
    showing_closed = bool(last and not trick["plays"] and phase != "expose")
    center_plays = last["plays"] if showing_closed else trick["plays"]

    # Each region reads its own slice: a seat what its place shows (a bot's card played changes
    # the trick, not the seat's place beyond its count), the trick the cards in the middle,
    # the collected cards' table its rows (cardsite/jinja.py: a region is drawn again when its
    # inputs change).
    seats = []
    collected_rows = []
    for s in range(4):
        exposed_unplayed = (view["exposed_unplayed"] or [[]] * 4)[s]
        collected_rows.append(
            {
                "name": names[s]["name"],
                "exposed": [Card(c) for c in (view["exposed"] or [[]] * 4)[s]],
                "collected": [Card(c) for c in view["collected"][s]],
                "hand_score": view["hand_scores"][s],
            }
        )
        seats.append(
            {
                **seat_basics(names, s, seat),
                "position": position_of(s, viewer),
                "cards_left": view["hand_sizes"][s],
                "hand_score": view["hand_scores"][s],
                "total": totals[s],
                "out": s in out,
                "to_move": phase == "play" and to_move == s,
                "threat": view["all_hearts_threat"] == s,
                "exposed": [Card(c) for c in exposed_unplayed],
            }
        )
    # The cards in the middle, in the seats' order, each at its seat's place.
    by_seat = {p["seat"]: p["card"] for p in center_plays}
    center = [
        {"position": seats[s]["position"], "card": Card(c, marker=MARKERS.get(c, ""))}
        for s in range(4)
        if (c := by_seat.get(s))
    ]
    markers = [
        {"kind": MARKERS[p["card"]], "label": marker_label(MARKERS[p["card"]])}
        for p in center_plays
        if p["card"] in MARKERS
    ]

    hand_cards = view["hand"] if seat is not None else []
    my_turn = seat is not None and phase == "play" and to_move == seat and not view["result"]
    legal = set(view["legal_cards"]) if my_turn else set()
    reasons = {}
    wait_reason = ""  # on the board, not on each card: it changes with every move
    if my_turn:
        # Why a card may not be played comes from the rules, with the seat's observation.
        reasons = {
            card: messages.refusal(r["code"], r["params"]) or ""
            for card, r in view["unplayable"].items()
        }
    elif seat is not None and phase == "play" and not view["result"]:
        waiting = names[to_move]["name"] if to_move is not None else ""
        wait_reason = _("Wait for your turn: %(name)s is playing.") % {"name": waiting}
    hand = [
        Card(
            c,
            playable=(c in legal) if my_turn else False,
            selected=c in selected,
            reason=reasons.get(c, ""),
        )
        for c in hand_cards
    ]
    exposure = None
    if seat is not None and phase == "expose":
        exposure = {
            "decided": view["decided"],
            "choice": [Card(c) for c in (view["my_exposure"] or [])],
            "options": [
                {"card": Card(c, selected=c in selected), "effect": exposure_effect(c)}
                for c in view["exposable"]
            ],
        }

    status = _status(view, seat, names, showing_closed, last)
    # The empty choice was made for a player with nothing to expose: say so in the first trick.
    no_exposure_note = False
    if seat is not None and phase == "play" and not view["tricks"]:
        in_trick = [p["card"] for p in trick["plays"] if p["seat"] == seat]
        dealt = set(hand_cards) | set(in_trick)
        no_exposure_note = not (dealt & set(EXPOSABLE))
    result = _result(view, names, viewer) if view["result"] else None
    return {
        "view": view,
        "viewer": seat,
        "spectator": seat is None,
        "phase": phase,
        "seats": seats,
        "seats_by_position": {s["position"]: s for s in seats},
        "center": center,
        "collected_rows": collected_rows,
        "center_closed": showing_closed,
        "closed_winner": names[last["winner"]]["name"]
        if showing_closed and last["winner"] is not None
        else "",
        "markers": markers,
        "last_trick": [
            {"seat": names[p["seat"]]["name"], "card": Card(p["card"])}
            for p in (last["plays"] if last else [])
        ],
        "last_trick_winner": names[last["winner"]]["name"]
        if last and last["winner"] is not None
        else "",
        "hand": hand,
        "my_turn": my_turn,
        "wait_reason": wait_reason,
        "exposure": exposure,
        "status": status,
        "result": result,
        "hand_number": view["hand_number"],
        "match_over": view["match_over"] or not table.is_active,
        "resigned": table.resigned,
        "version": view["version"],
        "table": table,
        "announce": _announcement(view, names),
        "level_choices": LEVEL_CHOICES,
        "no_exposure_note": no_exposure_note,
        "bots_moving": phase == "play"
        and not view["result"]
        and to_move is not None
        and to_move != seat
        and names.get(to_move, {}).get("is_bot", False),
    }


def parts(context: dict) -> Plan:
    """The board's parts (``Plan``), from its context as the machinery completed it: the
    seats around the felt, the trick, the viewer's place, the last trick and the collected
    cards, and the parts every board has."""
    by_position = context["seats_by_position"]
    hint = context.get("hint")
    parts = {
        "root": (
            "root",
            (
                context["phase"],
                context["my_turn"],
                context["version"],
                context["hand_number"],
                context["wait_reason"],
                hint["type"] if hint else "",
                seats_to_move(context["seats"]),
            ),
        ),
    }
    for place in ("top", "left", "right"):
        s = by_position[place]
        parts[f"seat-{s['index']}"] = seat_part(s)
    parts["trick"] = (
        "trick",
        (context["center_closed"], context["closed_winner"], context["markers"], context["center"]),
    )
    parts["me"] = (
        "me",
        (
            by_position["bottom"],
            context["spectator"],
            context["my_turn"],
            context["hand"],
            context["exposure"],
            hint,
            context["no_exposure_note"],
        ),
    )
    parts["last-trick"] = ("last_trick", (context["last_trick"], context["last_trick_winner"]))
    parts["collected"] = ("collected", (context["collected_rows"],))
    return board_plan(context, parts)


def _status(view: GongZhuObservation | GongZhuView, seat, names, showing_closed, last) -> str:
    phase = view["phase"]
    if view["result"]:
        return _("The hand is over.")
    if phase == "expose":
        if seat is None:
            return _("The players are deciding what to expose.")
        if view["decided"]:
            return _("Waiting until everyone has decided what to expose…")
        if not view["exposable"]:
            return _("You have no card to expose this hand.")
        return _("Expose cards to double their effect – or decline.")
    to_move = view["to_move"]
    if seat is not None and to_move == seat:
        trick = view["trick"] or {"plays": []}
        if not trick["plays"]:
            return _("Your lead: play any card.")
        suit = trick["plays"][0]["card"][1]
        if any(c[1] == suit for c in view["hand"]):
            return _("Your turn: follow %(suit)s.") % {"suit": SUIT_NAMES[suit]}
        return _("Your turn: you have no %(suit)s, play any card.") % {"suit": SUIT_NAMES[suit]}
    if to_move is not None:
        return _("%(name)s is playing…") % {"name": names[to_move]["name"]}
    return ""


def _announcement(view: GongZhuObservation | GongZhuView, names) -> str:
    """One sentence for the screen reader's live region: the latest card played."""
    trick = view["trick"] or {"plays": []}
    last = view["last_trick"]
    plays = trick["plays"] or (last["plays"] if last else [])
    if not plays:
        return ""
    p = plays[-1]
    text = _("%(name)s played the %(card)s.") % {
        "name": names[p["seat"]]["name"],
        "card": card_name(p["card"]),
    }
    if not trick["plays"] and last and last["winner"] is not None:
        text += " " + _("%(name)s takes the trick.") % {"name": names[last["winner"]]["name"]}
    return text


def _result(view: GongZhuObservation | GongZhuView, names, viewer) -> dict:
    rows = result_rows(view, names, viewer)
    ranking = standings(
        [
            {"seat": s, "name": names[s]["name"], "total": t, "out": t <= -1000}
            for s, t in enumerate(view["totals"])
        ]
    )
    won = view["winner"] == viewer if view["match_over"] else None
    return {"rows": rows, "ranking": ranking, "won": won}
