"""What each seat may know, and what a spectator may ("How to play a hand": the status line,
the bright cards, the tracker; ENGINE_CONTRACT.md, ``observation`` and ``public_view``).

One function builds the public part; a seat's view adds only that seat's own hand, its own
drawn cards and its legal plays. The stock and other hands never appear, not even as codes
of cards a seat drew: others' draws show as counts.
"""

from __future__ import annotations

from typing import Any

from games.engine.base import Combo
from games.engine.cards import JOKERS
from games.engine.gandengyan import rules
from games.engine.gandengyan.combos import ORDER, joker_stand_ins
from games.engine.gandengyan.scoring import CAP
from games.engine.gandengyan.state import State


def _entry(entry: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A log entry as the viewer may see it: a play with its joker stand-ins, a draw as a
    count unless the viewer is the drawer."""
    if entry["type"] == "play":
        combo = Combo.from_dict(entry["combo"])
        return {**entry, "jokers_as": joker_stand_ins(combo, entry["cards"])}
    if entry["type"] == "draw":
        out = {"type": "draw", "seat": entry["seat"], "count": len(entry["cards"])}
        if viewer == entry["seat"]:
            out["cards"] = list(entry["cards"])
        return out
    return dict(entry)


def public_view(state: State, viewer: int | None = None) -> dict[str, Any]:
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


def observation(state: State, seat: int) -> dict[str, Any]:
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
