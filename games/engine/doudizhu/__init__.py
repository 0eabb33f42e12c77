"""Dou Dizhu, Fight the Landlord (docs/ENGINE_CONTRACT.md; the rules as
decided by docs/RULINGS.md, Dou Dizhu).

Beyond the contract, ``new_match_fixed(seed, landlord, bid)`` starts a match whose first
hand has its landlord fixed without bidding, for benchmarks against engines that play so.
"""

from __future__ import annotations

from games.engine.base import GameInfo, register
from games.engine.doudizhu import observation as _observation
from games.engine.doudizhu import rules, state
from games.engine.doudizhu.actions import CODES
from games.engine.doudizhu.combos import beats, readings
from games.engine.doudizhu.observation import DouDizhuObservation, DouDizhuView
from games.engine.doudizhu.rules import new_match_fixed
from games.engine.doudizhu.scoring import stake
from games.engine.doudizhu.state import DEFAULT_HANDS, MATCH_LENGTHS

INFO = GameInfo(
    name="doudizhu",
    seat_counts=(3,),
    default_seats=3,
    options={"hands": MATCH_LENGTHS},
    default_options={"hands": DEFAULT_HANDS},
    match_end=True,
    deal_word="hand",
    order=3,
)

__all__ = [
    "CODES",
    "INFO",
    "DouDizhu",
    "DouDizhuObservation",
    "DouDizhuView",
    "beats",
    "game",
    "new_match_fixed",
    "readings",
    "stake",
]


class DouDizhu:
    info = INFO
    name = INFO.name
    seat_counts = INFO.seat_counts
    observation_type = DouDizhuObservation
    public_view_type = DouDizhuView

    new_match = staticmethod(rules.new_match)
    new_match_from_deal = staticmethod(rules.new_match_from_deal)
    to_move = staticmethod(rules.to_move)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)
    read = staticmethod(rules.read)
    observation = staticmethod(_observation.observation)
    public_view = staticmethod(_observation.public_view)
    trick_closed = staticmethod(_observation.trick_closed)
    hand_over = staticmethod(rules.hand_over)
    match_over = staticmethod(rules.match_over)
    hand_result = staticmethod(rules.hand_result)
    totals = staticmethod(rules.totals)
    next_hand = staticmethod(rules.next_hand)
    to_json = staticmethod(state.to_json)
    from_json = staticmethod(state.from_json)

    def dealt(self, match) -> dict:
        """The three hands and the kitty as dealt (called before the bidding starts)."""
        data = state.to_json(match)
        return {"hands": [list(h) for h in data["hands"]], "kitty": list(data["kitty"])}

    def deals_in_hand(self, match) -> int:
        """Deals so far in the current hand: 1, and one more for each deal thrown in when
        everyone passed (optional contract method; ``dealt`` then shows the newest deal)."""
        return match.redeals + 1


game = register(DouDizhu())
