"""Gong Zhu (拱猪) per docs/ENGINE_CONTRACT.md and docs/RULINGS.md "Gong Zhu".

Modules: ``state`` (the match value, the deal, JSON), ``actions`` (action shapes and the
refusal codes), ``rules`` (exposure, play, end of hand and match), ``scoring`` (hand score),
``observation`` (what a seat or a spectator may know).
"""

from __future__ import annotations

from games.engine.base import GameInfo, register
from games.engine.cards import STANDARD_DECK, check_deal
from games.engine.gongzhu import observation as _observation
from games.engine.gongzhu import rules as _rules
from games.engine.gongzhu import state as _state
from games.engine.gongzhu.actions import CODES
from games.engine.gongzhu.observation import GongZhuObservation, GongZhuView, Trick
from games.engine.gongzhu.rules import trick_winner
from games.engine.gongzhu.scoring import (
    EXPOSABLE,
    GOAT,
    HEART_ACE,
    PIG,
    POINT_CARDS,
    TRANSFORMER,
    breakdown,
    score_hand,
)
from games.engine.gongzhu.state import RANK

INFO = GameInfo(
    name="gongzhu",
    seat_counts=(4,),
    default_seats=4,
    match_end=True,
    out_line=-1000,
    deal_word="hand",
    order=1,
)

__all__ = [
    "CODES",
    "EXPOSABLE",
    "GOAT",
    "INFO",
    "GongZhuObservation",
    "GongZhuView",
    "HEART_ACE",
    "PIG",
    "POINT_CARDS",
    "RANK",
    "TRANSFORMER",
    "GongZhu",
    "Trick",
    "breakdown",
    "game",
    "score_hand",
    "trick_winner",
]


class GongZhu:
    info = INFO
    name = INFO.name
    seat_counts = INFO.seat_counts
    observation_type = GongZhuObservation
    public_view_type = GongZhuView

    def new_match(self, seed: int, seats: int = 4, options: dict | None = None):
        if seats != 4:
            raise ValueError("Gong Zhu is played by four seats")
        if options:
            raise ValueError("Gong Zhu takes no options")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed must be an integer")
        return _state.new_hand(seed, 1, (0, 0, 0, 0), None)

    def new_match_from_deal(
        self, deal: dict, dealer: int = 0, options: dict | None = None, seed: int = 0
    ):
        """A match whose first hand is ``deal`` (a ``dealt`` record). ``dealer``: who leads the
        first trick as the public view's ``dealer`` says (None: the holder of 2S). ``seed``
        deals any later hand."""
        if options:
            raise ValueError("Gong Zhu takes no options")
        hands = deal.get("hands") or []
        if len(hands) != 4 or any(len(h) != 13 for h in hands):
            raise ValueError("a Gong Zhu deal is four hands of 13")
        check_deal([c for h in hands for c in h], STANDARD_DECK)
        if dealer is not None and dealer not in range(4):
            raise ValueError("the first leader is one of the four seats, or None")
        return _state.new_hand(seed, 1, (0, 0, 0, 0), dealer, hands=tuple(map(tuple, hands)))

    to_move = staticmethod(_rules.to_move)
    legal_actions = staticmethod(_rules.legal_actions)
    apply = staticmethod(_rules.apply)
    read = staticmethod(_rules.read)
    observation = staticmethod(_observation.observation)
    public_view = staticmethod(_observation.public_view)
    trick_closed = staticmethod(_observation.trick_closed)
    hand_over = staticmethod(_rules.hand_over)
    match_over = staticmethod(_rules.match_over)
    hand_result = staticmethod(_rules.hand_result)
    totals = staticmethod(_rules.totals)
    next_hand = staticmethod(_rules.next_hand)
    to_json = staticmethod(_state.to_json)
    from_json = staticmethod(_state.from_json)

    def dealt(self, state) -> dict:
        """The four hands as dealt (called before the first card of the hand is played)."""
        return {"hands": [list(h) for h in _state.to_json(state)["hands"]]}


game = register(GongZhu())
