"""Dou Dizhu: one seat's observation -> the board (bidding, the kitty, playing, the
settlement).

Everything here reads one seat's observation (or the public view): the hand is the seat's
own, other seats are counts, and the kitty is three backs until the observation names it
(once the landlord is known). Nothing here tries a move: the playable cards and the
readings of an ambiguous selection come from the observation's legal actions, and only the
selections that read more than one way are sent (a 20-card lead has hundreds of plays).
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.doudizhu import DouDizhuObservation, DouDizhuView, readings
from games.tables.base import Plan, TableSummary, board_plan, seat_part, seats_to_move
from games.tables.common import (
    LEVEL_CHOICES,
    Card,
    HandCard,
    Play,
    card_name,
    hand_form,
    result_rows,
    seat_basics,
    selection_reading,
    standings,
)
from games.tables.doudizhu.messages import combo_label

# The viewer at the bottom; the next seat to play to the right (RULINGS.md, "All games").
POSITIONS = ("bottom", "right", "left")
ORDER = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ")
DECK_COUNTS = dict.fromkeys(ORDER[:13], 4) | {"BJ": 1, "RJ": 1}


def rank_of(card: str) -> str:
    return card if card in ("BJ", "RJ") else card[0]


def signature(cards) -> str:
    """A selection up to suit: its ranks in order (the script writes the same)."""
    return "".join(sorted((rank_of(c) for c in cards), key=ORDER.index))


def play_of(entry: dict, names: dict) -> Play:
    name = names[entry["seat"]]["name"]
    if entry["cards"] is None:
        return Play(entry["seat"], name, passed=True)
    return Play(entry["seat"], name, [Card(c) for c in entry["cards"]], combo_label(entry["combo"]))


def current_round(plays: list[dict]) -> list[dict]:
    """The plays and passes since the last lead: a round closes after two passes in a row."""
    start = 0
    passes = 0
    for i, entry in enumerate(plays):
        if entry["cards"] is None:
            passes += 1
            if passes == 2:
                start = i + 1
                passes = 0
        else:
            passes = 0
    return plays[start:]


def readings_by_selection(legal: list[dict]) -> dict[str, list[dict]]:
    """The selections that read more than one way as a legal play now, with their readings
    (for the chips above the hand); a selection with one reading or none is left out."""
    by_sig: dict[str, list[dict]] = {}
    for action in legal:
        if action["type"] == "play":
            by_sig.setdefault(signature(action["cards"]), []).append(action["combo"])
    return {
        sig: [{"combo": c, "label": combo_label(c)} for c in combos]
        for sig, combos in by_sig.items()
        if len(combos) > 1
    }


def _public_unseen(view: DouDizhuView) -> dict[str, int]:
    """For a watcher: the cards not yet played or shown."""
    counts = dict(DECK_COUNTS)
    shown = list(view["kitty"] or [])
    for entry in view["plays"]:
        shown += entry["cards"] or []
    for c in shown:
        counts[rank_of(c)] -= 1
    return counts


def context(
    table: TableSummary, view: DouDizhuObservation | DouDizhuView, seat: int | None, selected=()
) -> dict:
    """The Dou Dizhu board for one viewer (``seat`` None: a spectator at seat 0, whose view
    is the public one: no hand, no legal actions, no unseen counts of its own)."""
    viewer = 0 if seat is None else seat
    names = table.names()
    over = view["hand_over"]
    bidding = view["phase"] == "bidding"
    turn = view["to_move"]
    turn = turn[0] if turn else None
    landlord = view["landlord"]
    plays = view["plays"]
    round_plays = current_round(plays)
    table_play = view["table"]
    result = view["result"] if over else None
    winner = None
    if result:
        winner = next((s for s, row in enumerate(result["breakdown"]) if row.get("went_out")), None)

    latest: dict[int, Play] = {}
    for entry in round_plays:
        latest[entry["seat"]] = play_of(entry, names)
    if table_play and not over:
        latest.pop(table_play["seat"], None)

    bids_by_seat: dict[int, list[int]] = {}
    for b in view["bids"]:
        bids_by_seat.setdefault(b["seat"], []).append(b["value"])

    seats = []
    for s in range(3):
        count = view["card_counts"][s]
        seats.append(
            {
                **seat_basics(names, s, seat),
                "position": POSITIONS[(s - viewer) % 3],
                "count": count,
                "alert": count in (1, 2) and not bidding and not over,
                "total": view["totals"][s],
                "dealer": view["dealer"] == s,
                "landlord": landlord == s,
                "peasant": landlord is not None and landlord != s,
                "to_move": not over and turn == s,
                "bids": bids_by_seat.get(s, []) if bidding else [],
                "latest": latest.get(s) if not bidding else None,
                "winner": over and winner == s,
            }
        )

    my_turn = seat is not None and not over and turn == seat
    legal = view["legal_actions"] if my_turn else []
    leading = view["leading"]
    following = my_turn and not bidding and not leading
    plays_legal = [a for a in legal if a["type"] == "play"]
    can_play = bool(plays_legal)
    playable = {rank_of(c) for a in plays_legal for c in a["cards"]}
    kitty = view["kitty"]
    fresh_kitty = landlord is not None and not plays and not over
    new_cards = set(kitty or []) if fresh_kitty and seat == landlord else set()
    hand = [
        HandCard(
            c,
            playable=not bidding and rank_of(c) in playable,
            selected=c in selected,
            new=c in new_cards,
        )
        for c in (view["hand"] if seat is not None else [])
    ]
    bid_options = [a["value"] for a in legal if a["type"] == "bid" and a["value"]]
    unseen = view["unseen"] if seat is not None else _public_unseen(view)
    multiplier = view["multiplier"]
    on_table = play_of(table_play, names) if table_play else None
    if over:
        last = [e for e in plays if e["cards"]]
        on_table = play_of(last[-1], names) if last else None
    # A bomb or the rocket just played gets its moment (the page animates it once per play).
    played = [e for e in plays if e["cards"]]
    boom = ""
    if played and not over and played[-1]["combo"]["kind"] in ("bomb", "rocket"):
        boom = played[-1]["combo"]["kind"] if table_play else ""
    if bidding:
        phase = "bidding"
    elif over:
        phase = "over"
    else:
        phase = "lead" if leading else "follow"
    return {
        "view": view,
        "viewer": seat,
        "spectator": seat is None,
        "phase": phase,
        "bidding": bidding,
        "seats": seats,
        "opponents": [s for s in seats if s["position"] != "bottom"],
        "me": next(s for s in seats if s["position"] == "bottom"),
        "on_table": on_table,
        "boom": boom,
        "plays_count": len(plays),
        "hand": hand,
        "hand_wraps": len(hand) > 10,
        "my_turn": my_turn,
        "bidding_turn": my_turn and bidding,
        "bid_options": bid_options,
        "following": following,
        "leading": my_turn and leading and not bidding,
        "can_play": can_play,
        "readings_json": json.dumps(
            readings_by_selection(plays_legal) if my_turn else {}, separators=(",", ":")
        ),
        "kitty": [Card(c) for c in kitty] if kitty is not None else None,
        "kitty_fresh": fresh_kitty,
        "landlord_name": names[landlord]["name"] if landlord is not None else "",
        "bid": view["bid"],
        "bombs": multiplier["bombs"],
        "stake": multiplier["stake"],
        "unseen": [
            {
                # A joker's glyph is its card's (★ both, told apart by colour and name).
                "rank": Card(r).rank if r in ("BJ", "RJ") else ("10" if r == "T" else r),
                "name": card_name(r) if r in ("BJ", "RJ") else "",
                "code": r,
                "count": unseen[r],
            }
            for r in ORDER
        ],
        # shown until the first card is played, so a quick bidding does not hide it
        "thrown_in": view["last_deal_thrown_in"] and not plays and not over,
        "redeals": view["redeals"],
        "hand_number": view["hand_number"],
        "hands_in_match": 1 if table.one_hand else view["hands_in_match"],
        "status": _status(view, seat, names, my_turn, bidding, leading, can_play, winner),
        "announce": _announcement(view, names),
        "result": _result(view, names, seat, winner, table) if result else None,
        "match_over": not table.is_active,
        "resigned": table.resigned,
        "version": view["version"],
        "table": table,
        "level_choices": LEVEL_CHOICES,
        "bots_moving": not over
        and turn is not None
        and turn != seat
        and names.get(turn, {}).get("is_bot", False),
    }


def parts(context: dict) -> Plan:
    """The board's parts (``Plan``): the hand's facts, the counter of unseen cards, the
    opponents' seats, the table's play, the viewer's place, and the parts every board has."""
    hint = context.get("hint")
    parts = {
        "root": (
            "root",
            (
                context["phase"],
                context["my_turn"],
                context["following"],
                context["version"],
                context["hand_number"],
                hint,
                seats_to_move(context["seats"]),
            ),
        ),
        "info": (
            "info",
            (
                context["hand_number"],
                context["hands_in_match"],
                context["redeals"],
                context["bid"],
                context["bombs"],
                context["stake"],
                context["kitty"],
                context["kitty_fresh"],
            ),
        ),
        "counter": ("counter", (context["unseen"],)),
    }
    for s in context["opponents"]:
        parts[f"seat-{s['index']}"] = seat_part(s)
    parts["center"] = (
        "center",
        (
            context["thrown_in"],
            context["redeals"],
            context["on_table"],
            context["boom"],
            context["plays_count"],
            context["bidding"],
            context["landlord_name"],
            context["result"],
        ),
    )
    parts["me"] = (
        "me",
        (
            context["me"],
            context["spectator"],
            context["bidding_turn"],
            context["bid_options"],
            hint,
            hand_form(context),
        ),
    )
    return board_plan(context, parts)


def _status(
    view: DouDizhuObservation | DouDizhuView,
    seat,
    names,
    my_turn,
    bidding,
    leading,
    can_play,
    winner,
) -> str:
    if view["hand_over"]:
        if winner is None:
            return ""
        if winner == seat:
            return _("You are out of cards: the hand is over.")
        return _("%(name)s is out of cards: the hand is over.") % {"name": names[winner]["name"]}
    turn = (view["to_move"] or [None])[0]
    if bidding:
        if my_turn:
            if view["bid"]:
                return _("Your bid: more than %(bid)s, or pass.") % {"bid": view["bid"]}
            return _("Your bid: 1, 2 or 3 points, or pass.")
        return _("%(name)s is bidding…") % {"name": names[turn]["name"]}
    if my_turn:
        if leading:
            return _("Your lead: play any combination.")
        text = _("To beat: %(play)s.") % {"play": combo_label(view["table"]["combo"])}
        if not can_play:
            text += " " + _("Nothing in your hand beats it: pass.")
        return text
    if turn is not None:
        return _("%(name)s is playing…") % {"name": names[turn]["name"]}
    return ""


def _announcement(view: DouDizhuObservation | DouDizhuView, names) -> str:
    """One sentence for the screen reader's live region: the latest move."""
    plays = view["plays"]
    if plays:
        entry = plays[-1]
        name = names[entry["seat"]]["name"]
        if entry["cards"] is None:
            return _("%(name)s passed.") % {"name": name}
        return _("%(name)s played %(play)s.") % {"name": name, "play": combo_label(entry["combo"])}
    if view["landlord"] is not None:
        return _("%(name)s is the landlord.") % {"name": names[view["landlord"]]["name"]}
    bids = view["bids"]
    if bids:
        b = bids[-1]
        name = names[b["seat"]]["name"]
        if b["value"]:
            return _("%(name)s bid %(value)s.") % {"name": name, "value": b["value"]}
        return _("%(name)s passed the bid.") % {"name": name}
    return ""


def _result(view: DouDizhuObservation | DouDizhuView, names, seat, winner, table) -> dict:
    result = view["result"]
    rows = result_rows(view, names, seat)
    first = result["breakdown"][0]
    mine = result["breakdown"][seat] if seat is not None else None
    landlord_won = result["breakdown"][view["landlord"]]["won"]
    ranking = standings(
        [
            {"name": names[s]["name"], "total": t, "is_viewer": s == seat}
            for s, t in enumerate(view["totals"])
        ]
    )
    top = max(view["totals"])
    return {
        "rows": rows,
        "sum": sum(result["scores"]),
        "winner": names[winner]["name"] if winner is not None else "",
        "landlord_won": landlord_won,
        "won": bool(mine and mine["won"]),
        "bid": first["bid"],
        "bombs": first["bombs"],
        "bomb_factor": first["bomb_factor"],
        "spring": first["spring"],
        "anti_spring": first["anti_spring"],
        "stake": first["stake"],
        "ranking": ranking,
        "match_won": seat is not None
        and view["totals"][seat] == top
        and view["totals"].count(top) == 1,
        "bombs_text": ngettext("%(n)d bomb or rocket", "%(n)d bombs or rockets", first["bombs"])
        % {"n": first["bombs"]},
    }


def reading(view: DouDizhuObservation, cards: list) -> str:
    """A selection in words, read live as the player selects (``games.tables.common``)."""
    legal = view["legal_actions"]
    return selection_reading(view, cards, legal, readings, combo_label)
