"""What each seat may know, and what a spectator may ("How to play a hand": the status line,
the bright cards, the tracker; ENGINE_CONTRACT.md, ``observation`` and ``public_view``).

One function builds the public part; a seat's view adds only that seat's own hand, its own
drawn cards and its legal plays. The stock and other hands never appear, not even as codes
of cards a seat drew: others' draws show as counts.
"""

from __future__ import annotations

from typing import Any

from games.engine.base import Combo, Observation, PublicView
from games.engine.cards import JOKERS
from games.engine.gandengyan import rules
from games.engine.gandengyan.combos import ORDER, joker_stand_ins
from games.engine.gandengyan.scoring import CAP
from games.engine.gandengyan.state import State


class GanDengYanView(PublicView):
    """Gan Deng Yan's public view. Log entries (``log``, ``trick``, ``table``) are dicts
    with ``type`` and ``seat``: a play adds ``cards``, ``combo`` and ``jokers_as`` (each
    joker's stand-in rank), a draw ``count`` (and ``cards`` for the drawer's own view)."""

    seats: int
    draw: str  # the draw rule: "all" or "winner"
    round: int
    turn: int | None  # None once the round is over
    leading: bool  # the seat to move leads a new trick
    table: dict[str, Any] | None  # the play to beat
    requirement: dict[str, Any] | None  # what beats it (``rules.requirement``)
    passes: int
    trick: list[dict[str, Any]]  # this trick's plays and passes
    log: list[dict[str, Any]]  # the round's entries, in order
    played_cards: list[str]
    counts: list[int]  # cards held per seat
    stock: int  # cards left in the stock
    bombs: int
    base_multiplier: int
    not_played: list[int]  # seats that have not played a card this round
    hand_over: bool
    winner: int | None  # the round's winner once it is over


class GanDengYanObservation(GanDengYanView, Observation):
    """One seat's observation: the public view, its hand and its moves."""

    my_turn: bool
    legal: list[dict[str, Any]]  # the seat's legal actions ([] when not its turn)
    playable: list[str]  # the held cards some legal play uses
    unseen: dict[str, int]  # per rank (jokers together as "jokers"), cards not seen
    tracker: dict[str, int]  # the 2s and jokers not seen


def _entry(entry: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A log entry as the viewer may see it: a play with its joker stand-ins, a draw as a
    count unless the viewer is the drawer."""
    if entry["type"] == "play":
        cards = entry["cards"]
        if not any(c in JOKERS for c in cards):  # most plays: nothing stands in
            return {**entry, "jokers_as": {}}
        return {**entry, "jokers_as": joker_stand_ins(Combo.from_dict(entry["combo"]), cards)}
    if entry["type"] == "draw":
        out = {"type": "draw", "seat": entry["seat"], "count": len(entry["cards"])}
        if viewer == entry["seat"]:
            out["cards"] = list(entry["cards"])
        return out
    return dict(entry)


def public_view(state: State, viewer: int | None = None) -> GanDengYanView:
    table = rules.table_combo(state)
    plays = [e for e in state.log if e["type"] == "play"]
    played_cards = [c for e in plays for c in e["cards"]]
    return {
        "game": "gandengyan",
        "seats": state.seats,
        "draw": state.draw,
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "leading": state.turn is not None and state.table is None,
        "table": _entry(state.table, viewer) if state.table else None,
        "requirement": rules.requirement(table),
        "passes": state.passes,
        "trick": [_entry(e, viewer) for e in state.trick],
        "log": [_entry(e, viewer) for e in state.log],
        "played_cards": played_cards,
        "counts": [len(h) for h in state.hands],
        "stock": len(state.stock),
        "bombs": state.bombs,
        "base_multiplier": min(2**state.bombs, CAP),
        "not_played": [s for s in range(state.seats) if not state.played[s]],
        "hand_over": state.turn is None,
        "winner": state.winner,
        "result": state.result,
        "totals": list(state.totals),
    }


def observation(state: State, seat: int) -> GanDengYanObservation:
    view = public_view(state, viewer=seat)
    hand = list(state.hands[seat])
    legal = rules.legal_actions(state, seat)
    playable_ranks: set[str] = set()
    for action in legal:
        for card in action.get("cards", ()):
            playable_ranks.add("joker" if card in JOKERS else card[0])
    # Unseen: neither in this seat's hand nor played this round (the stock and other hands).
    # Counts per rank, the two interchangeable jokers counted together as "jokers".
    unseen = dict.fromkeys(ORDER, 4) | {"jokers": 2}
    for card in hand + view["played_cards"]:
        unseen["jokers" if card in JOKERS else card[0]] -= 1
    view.update(
        seat=seat,
        hand=hand,
        my_turn=state.turn == seat,
        legal=legal,
        playable=[c for c in hand if ("joker" if c in JOKERS else c[0]) in playable_ranks],
        unseen=unseen,
        tracker={"2": unseen["2"], "jokers": unseen["jokers"]},
    )
    return view


def trick_closed(before: GanDengYanView | None, after: GanDengYanView) -> bool:
    """Between two public views (or observations; ``before`` None where there was no move
    before) a trick closed: everyone else passed (its draws follow)."""
    return before is not None and bool(before["trick"]) and not after["trick"]
