"""What a Dou Dizhu seat and a spectator may know (ENGINE_CONTRACT.md, "A match":
``observation`` and ``public_view``; RULINGS.md, Dou Dizhu: the kitty is shown to everyone
once the landlord is known, and never before).
"""

from __future__ import annotations

import copy
from typing import Any, TypedDict

from games.engine.base import Observation, PublicView
from games.engine.doudizhu import rules
from games.engine.doudizhu.combos import RANK_NAMES, rank_index, to_combo
from games.engine.doudizhu.scoring import stake
from games.engine.doudizhu.state import State

_DECK_COUNTS = (4,) * 13 + (1, 1)


class Bid(TypedDict):
    seat: int
    value: int  # 0: a pass


class Play(TypedDict):
    seat: int
    cards: list[str] | None  # None: a pass
    combo: dict[str, Any] | None  # the combo as a dict; None for a pass


class TablePlay(TypedDict):
    seat: int
    cards: list[str]
    combo: dict[str, Any]


class Multiplier(TypedDict):
    bid: int
    bombs: int
    stake: int  # what each peasant pays or receives now, before spring


class DouDizhuView(PublicView):
    """Dou Dizhu's public view: the auction, the landlord and kitty once known, the plays."""

    phase: str  # "bidding", "playing", "over"
    hand_number: int
    hands_in_match: int
    redeals: int  # deals thrown in during this hand
    last_deal_thrown_in: bool
    bids: list[Bid]
    bid: int  # the highest bid so far (0: none)
    high_bidder: int | None
    landlord: int | None
    kitty: list[str] | None  # shown once the landlord is known, never before
    to_move: list[int]  # [] once the hand is over
    leading: bool  # the seat to move leads a new round of plays
    table: TablePlay | None  # the play to beat
    passes: int
    card_counts: list[int]
    multiplier: Multiplier
    plays: list[Play]  # this hand's plays and passes, in order
    hand_over: bool
    match_over: bool


class DouDizhuObservation(DouDizhuView, Observation):
    """One seat's observation: the public view, its hand and its moves."""

    unseen: dict[str, int]  # per rank name, the cards this seat has not seen
    legal_actions: list[dict[str, Any]]  # [] when not its turn


def _combo(move):
    return to_combo(move).to_dict()


def public_view(state: State) -> DouDizhuView:
    kitty_shown = state.landlord is not None
    table = state.table
    high_bidder = None
    if state.bid:
        high_bidder = max((v, s) for s, v in state.bids)[1] if state.bids else state.landlord
    return {
        "game": "doudizhu",
        "phase": state.phase,
        "hand_number": state.hand_number,
        "hands_in_match": state.hands_in_match,
        "dealer": state.dealer,
        "redeals": state.redeals,
        # all three passed on the deal before this one of the same hand
        "last_deal_thrown_in": state.redeals > 0,
        "bids": [{"seat": s, "value": v} for s, v in state.bids],
        "bid": state.bid,
        "high_bidder": high_bidder,
        "landlord": state.landlord,
        "kitty": list(state.kitty) if kitty_shown else None,
        "to_move": rules.to_move(state),
        "leading": state.phase == "playing" and table is None,
        "table": None
        if table is None
        else {"seat": table[0], "cards": list(table[1]), "combo": _combo(table[2])},
        "passes": state.passes,
        "card_counts": [len(h) for h in state.hands],
        "multiplier": {
            "bid": state.bid,
            "bombs": state.bombs,
            "stake": stake(state.bid, state.bombs, False, False),
        },
        "plays": [
            {
                "seat": s,
                "cards": None if cards is None else list(cards),
                "combo": None if move is None else _combo(move),
            }
            for s, cards, move in state.plays
        ],
        "totals": list(state.totals),
        "hand_over": state.phase == "over",
        "match_over": rules.match_over(state),
        "result": copy.deepcopy(state.result),
    }


def unseen_counts(state: State, seat: int) -> dict[str, int]:
    """Cards of each rank this seat has not seen: not in its hand, not played, not shown."""
    seen = set(state.hands[seat])
    for _s, cards, _m in state.plays:
        if cards:
            seen.update(cards)
    if state.landlord is not None:
        seen.update(state.kitty)
    counts = list(_DECK_COUNTS)
    for card in seen:
        counts[rank_index(card)] -= 1
    return dict(zip(RANK_NAMES, counts, strict=True))


def observation(state: State, seat: int) -> DouDizhuObservation:
    view = public_view(state)
    view["seat"] = seat
    view["hand"] = list(state.hands[seat])
    view["unseen"] = unseen_counts(state, seat)
    view["legal_actions"] = rules.legal_actions(state, seat)
    return view


def trick_closed(before: DouDizhuView | None, after: DouDizhuView) -> bool:
    """Between two public views (or observations; ``before`` None where there was no move
    before) a round of plays closed: two passes in a row, and the last seat to play leads."""
    return before is not None and before["table"] is not None and after["table"] is None
