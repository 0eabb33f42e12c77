"""Gan Deng Yan: one seat's observation -> the board (leading, following, drawing, the
settlement).

Everything here reads one seat's observation (or the public view), so a page or a frame can
never show more than that seat may know: the hand is the seat's own, other seats are counts,
a draw is "who drew" unless the viewer drew it.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine.base import Combo
from games.engine.cards import JOKERS
from games.engine.gandengyan import GanDengYanObservation, GanDengYanView, readings
from games.engine.gandengyan.combos import ORDER, joker_stand_ins
from games.tables.base import Plan, TableSummary, board_plan, seat_part, seats_to_move
from games.tables.common import (
    LEVEL_CHOICES,
    Card,
    HandCard,
    Play,
    hand_form,
    rank_plural,
    rank_short,
    result_rows,
    seat_basics,
    selection_reading,
)
from games.tables.gandengyan.messages import combo_label

# The viewer at the bottom; the next seat to play to the right (RULINGS.md, "All games").
POSITIONS = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}


@dataclass
class PlayedCard(Card):
    """A card on the table; a joker carries the rank it stands for ("as 9")."""

    as_rank: str = ""

    @property
    def tag(self) -> str:
        if not self.as_rank:
            return ""
        return _("as %(rank)s") % {"rank": rank_short(self.as_rank)}


def signature(cards) -> str:
    """A selection up to suit and joker: its ranks in order and its number of jokers."""
    ranks = sorted(
        (ORDER.index(c[0]) for c in cards if c not in JOKERS),
    )
    jokers = sum(1 for c in cards if c in JOKERS)
    return "".join(ORDER[r] for r in ranks) + "*" * jokers


def played_cards(entry: dict) -> list[PlayedCard]:
    stand_ins = entry.get("jokers_as")
    if stand_ins is None:
        stand_ins = joker_stand_ins(Combo.from_dict(entry["combo"]), entry["cards"])
    return [PlayedCard(c, as_rank=stand_ins.get(c, "")) for c in entry["cards"]]


def play_of(entry: dict, names: dict) -> Play:
    name = names[entry["seat"]]["name"]
    if entry["type"] == "pass":
        return Play(entry["seat"], name, passed=True)
    return Play(entry["seat"], name, played_cards(entry), combo_label(entry["combo"]))


def requirement_text(req: dict | None) -> str:
    """The status line when following: "To beat single 7: only 8 · or a 2 · or a bomb"."""
    if not req:
        return ""
    table = combo_label(req)
    if req["kind"] == "joker_bomb" or req.get("low") in JOKERS:
        return _("Nothing beats the %(play)s: pass.") % {"play": table}
    options = []
    one = req.get("one_higher")
    if one:
        high = req.get("one_higher_high") or one
        if req["kind"] == "single":
            options.append(rank_short(one))
        elif req["kind"] == "pair":
            options.append(_("a pair of %(ranks)s") % {"ranks": rank_plural(one)})
        elif req["kind"] == "straight":
            options.append(
                _("straight %(low)s–%(high)s") % {"low": rank_short(one), "high": rank_short(high)}
            )
        elif req["kind"] == "pair_run":
            options.append(
                _("pair run %(low)s–%(high)s") % {"low": rank_short(one), "high": rank_short(high)}
            )
    if req.get("two_beats"):
        options.append(_("a 2") if req["kind"] == "single" else _("a pair of 2s"))
    if req["kind"] == "bomb":
        bomb = req.get("min_bomb") or {}
        if bomb.get("above"):
            options.append(
                _("a bomb of %(count)d above %(rank)s")
                % {"count": bomb["count"], "rank": rank_short(bomb["above"])}
            )
            options.append(_("a longer bomb"))
        else:
            options.append(_("a bomb of %(count)d or more") % {"count": bomb.get("count", 3)})
        options.append(_("the joker bomb"))
    elif req.get("bomb_beats"):
        options.append(_("a bomb"))
    text = _("To beat %(play)s: only %(first)s") % {"play": table, "first": options[0]}
    for option in options[1:]:
        text += " · " + _("or %(option)s") % {"option": option}
    return text


def _readings_by_selection(view: GanDengYanObservation) -> dict[str, list[dict]]:
    """The selections that read more than one way as a legal play now, each with its
    readings, for the chips above the hand. A selection is a play up to suit and joker
    (its signature); a selection with one reading or none needs no chip: the server reads
    it or says why not. Only these are sent, to keep a big hand's frame small."""
    by_sig: dict[str, list[dict]] = {}
    for action in view["legal"]:
        if action["type"] != "play":
            continue
        combo = action["combo"]
        by_sig.setdefault(signature(action["cards"]), []).append(
            {"combo": combo, "cards": action["cards"]}
        )
    out = {}
    for sig, plays in by_sig.items():
        if len(plays) < 2:
            continue
        out[sig] = []
        for play in plays:
            combo = play["combo"]
            stand_ins = joker_stand_ins(Combo.from_dict(combo), play["cards"])
            label = combo_label(combo)
            if stand_ins:
                label += (
                    " ("
                    + ", ".join(
                        _("joker as %(rank)s") % {"rank": rank_short(r)} for r in stand_ins.values()
                    )
                    + ")"
                )
            out[sig].append({"combo": combo, "label": label})
    return out


def _positions(seats: int, viewer: int) -> dict[int, str]:
    return {s: POSITIONS[seats][(s - viewer) % seats] for s in range(seats)}


def _last_draws(log: list[dict]) -> tuple[list[dict], int | None]:
    """The draws after the last closed trick, and who took that trick."""
    draws: list[dict] = []
    for i in range(len(log) - 1, -1, -1):
        if log[i]["type"] == "trick_won":
            draws = [e for e in log[i + 1 :] if e["type"] == "draw"]
            return draws, log[i]["seat"]
    return [], None


def _closed_trick(log: list[dict]) -> list[dict]:
    """The entries of the trick that closed last (shown until the winner leads again)."""
    end = max((i for i, e in enumerate(log) if e["type"] == "trick_won"), default=None)
    if end is None:
        return []
    start = max((i for i, e in enumerate(log[:end]) if e["type"] == "trick_won"), default=-1)
    return [e for e in log[start + 1 : end] if e["type"] in ("play", "pass")]


def context(
    table: TableSummary, view: GanDengYanObservation | GanDengYanView, seat: int | None, selected=()
) -> dict:
    """The Gan Deng Yan board for one viewer (``seat`` None: a spectator at seat 0, whose
    view is the public one: no hand, no legal plays, no tracker of its own)."""
    viewer = 0 if seat is None else seat
    names = table.names()
    n = view["seats"]
    where = _positions(n, viewer)
    turn = view["turn"]
    over = bool(view["result"])
    log = view["log"]
    trick = view["trick"]
    not_played = set(view["not_played"])
    totals = view["totals"]

    # Each seat's latest move in the trick (a pass, or the cards it played).
    latest: dict[int, Play] = {}
    for entry in trick:
        if entry["type"] in ("play", "pass"):
            latest[entry["seat"]] = play_of(entry, names)
    if view["table"]:
        # The play to beat is shown in the middle, not twice.
        latest.pop(view["table"]["seat"], None)

    seats = []
    for s in range(n):
        seats.append(
            {
                **seat_basics(names, s, seat),
                "position": where[s],
                "count": view["counts"][s],
                "total": totals[s],
                "dealer": view["dealer"] == s,
                "to_move": not over and turn == s,
                # Not played yet, unless the seat has just passed: the pass is the newer fact.
                "spring": s in not_played and not over and not (s in latest and latest[s].passed),
                "latest": latest.get(s),
                "winner": over and view["winner"] == s,
            }
        )

    table_play = view["table"]
    on_table = play_of(table_play, names) if table_play else None
    draws, trick_winner = _last_draws(log)
    # A trick that has just closed stays in view, with the draws, until the next play.
    closed = []
    if not trick and not over and trick_winner is not None:
        closed = [play_of(e, names) for e in _closed_trick(log) if e["type"] == "play"]
    if over:
        last = [e for e in log if e["type"] == "play"]
        on_table = play_of(last[-1], names) if last else None
    draw_feed = [
        {
            "name": names[d["seat"]]["name"],
            "is_viewer": d["seat"] == seat,
            "count": d["count"],
            "cards": [Card(c) for c in d.get("cards", [])],
        }
        for d in draws
    ]
    new_cards = {c for d in draws if d["seat"] == seat for c in d.get("cards", [])}

    my_turn = seat is not None and not over and turn == seat
    leading = view["leading"]
    following = my_turn and not leading
    playable = set(view["playable"]) if my_turn else set()
    hand = [
        HandCard(
            c,
            playable=c in playable,
            selected=c in selected,
            new=c in new_cards,
        )
        for c in (view["hand"] if seat is not None else [])
    ]
    readings = _readings_by_selection(view) if my_turn else {}
    can_play = any(a["type"] == "play" for a in view["legal"]) if my_turn else False

    status = _status(view, seat, names, my_turn, leading, can_play)
    tracker = view["tracker"] if seat is not None else _public_tracker(view)
    return {
        "view": view,
        "viewer": seat,
        "spectator": seat is None,
        "phase": "over" if over else ("lead" if leading else "follow"),
        "seats": seats,
        "seats_by_position": {s["position"]: s for s in seats},
        "opponents": [s for s in seats if s["position"] != "bottom"],
        "me": next(s for s in seats if s["position"] == "bottom"),
        "on_table": on_table,
        "requirement": requirement_text(view["requirement"]) if table_play else "",
        "closed": closed,
        "closed_winner": names[trick_winner]["name"] if closed and trick_winner is not None else "",
        "draw_feed": draw_feed if (not trick and not over) else [],
        "hand": hand,
        "hand_wraps": len(hand) > 13,
        "my_turn": my_turn,
        "following": following,
        "leading": my_turn and leading,
        "can_play": can_play,
        "readings_json": json.dumps(readings, separators=(",", ":")),
        "status": status,
        "stock": view["stock"],
        "bombs": view["bombs"],
        "base_multiplier": view["base_multiplier"],
        "draw_rule": view["draw"],
        "tracker": tracker,
        "round": view["round"],
        "dealer_name": names[view["dealer"]]["name"] if view["dealer"] is not None else "",
        "viewer_deals": seat is not None and view["dealer"] == seat,
        "fresh_deal": not any(e["type"] in ("play", "pass") for e in log),
        "result": _result(view, names, seat) if over else None,
        "match_over": not table.is_active,
        "resigned": table.resigned,
        "version": view["version"],
        "table": table,
        "announce": _announcement(log, names, seat),
        "level_choices": LEVEL_CHOICES,
        "bots_moving": not over
        and turn is not None
        and turn != seat
        and names.get(turn, {}).get("is_bot", False),
        # Rendered only while the page has the log open: made when the template asks.
        "round_log": functools.partial(_round_log, log, names, seat),
    }


def parts(context: dict) -> Plan:
    """The board's parts (``Plan``): the round's facts, the opponents' seats, the table's
    play, the viewer's place, the round's log (its rows only while the page has it open),
    and the parts every board has."""
    hint = context.get("hint")
    parts = {
        "root": (
            "root",
            (
                len(context["seats"]),
                context["phase"],
                context["my_turn"],
                context["following"],
                context["version"],
                context["round"],
                hint,
                context["fresh_deal"],
                seats_to_move(context["seats"]),
            ),
        ),
        "info": (
            "info",
            (
                context["stock"],
                context["bombs"],
                context["base_multiplier"],
                context["tracker"],
                context["draw_rule"],
                context["round"],
            ),
        ),
    }
    for s in context["opponents"]:
        parts[f"seat-{s['index']}"] = seat_part(s)
    parts["center"] = (
        "center",
        (
            context["on_table"],
            context["closed"],
            context["closed_winner"],
            context["fresh_deal"],
            context["result"],
            context["viewer_deals"],
            context["dealer_name"],
            context["draw_feed"],
        ),
    )
    parts["me"] = ("me", (context["me"], context["spectator"], hand_form(context)))
    rows = context["round_log"]() if "log" in context.get("opened", ()) else None
    parts["round-log"] = ("round_log", (rows,))
    return board_plan(context, parts)


def _public_tracker(view: GanDengYanView) -> dict:
    """For a spectator: 2s and jokers not yet played (hands and stock together)."""
    played = view["played_cards"]
    return {
        "2": 4 - sum(1 for c in played if c[0] == "2" and c not in JOKERS),
        "jokers": 2 - sum(1 for c in played if c in JOKERS),
    }


def _status(
    view: GanDengYanObservation | GanDengYanView, seat, names, my_turn, leading, can_play
) -> str:
    if view["result"]:
        winner = view["winner"]
        if winner == seat:
            return _("You are out of cards: you win the round!")
        return _("%(name)s is out of cards and wins the round.") % {"name": names[winner]["name"]}
    turn = view["turn"]
    if my_turn:
        if leading:
            return _("Your lead: play any valid combination.")
        text = requirement_text(view["requirement"])
        if not can_play:
            text += " – " + _("you have nothing that beats it: pass.")
        return text
    if turn is not None:
        return _("%(name)s is playing…") % {"name": names[turn]["name"]}
    return ""


def _announcement(log, names, seat) -> str:
    """One sentence for the screen reader's live region: the latest move."""
    for entry in reversed(log):
        name = names[entry["seat"]]["name"]
        if entry["type"] == "play":
            return _("%(name)s played %(play)s.") % {
                "name": name,
                "play": combo_label(entry["combo"]),
            }
        if entry["type"] == "pass":
            return _("%(name)s passed.") % {"name": name}
        if entry["type"] == "draw":
            return _("%(name)s drew a card.") % {"name": name}
        if entry["type"] == "round_won":
            return _("%(name)s wins the round.") % {"name": name}
    return ""


def _round_log(log, names, seat) -> list[dict]:
    """The round so far, newest first: plays, passes, trick closings and draws."""
    rows = []
    for entry in log:
        name = names[entry["seat"]]["name"]
        if entry["type"] == "play":
            rows.append({"kind": "play", "name": name, "play": play_of(entry, names)})
        elif entry["type"] == "pass":
            rows.append({"kind": "pass", "name": name})
        elif entry["type"] == "trick_won":
            rows.append({"kind": "trick", "name": name})
        elif entry["type"] == "draw":
            rows.append(
                {
                    "kind": "draw",
                    "name": name,
                    "cards": [Card(c) for c in entry.get("cards", [])],
                }
            )
    return rows[::-1]


def _result(view: GanDengYanObservation | GanDengYanView, names, seat) -> dict:
    result = view["result"]
    rows = result_rows(view, names, seat)
    return {
        "rows": rows,
        "sum": sum(result["scores"]),
        "winner": names[result["winner"]]["name"],
        "won": result["winner"] == seat,
    }


def reading(view: GanDengYanObservation, cards: list) -> str:
    """A selection in words, read live as the player selects (``games.tables.common``)."""
    legal = view["legal"]
    return selection_reading(view, cards, legal, readings, combo_label)
