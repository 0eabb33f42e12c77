"""Toy Trick: a game for the tests only (``GameInfo.unlisted``), the smallest that has what a
game of the site has (seeded deals, hidden cards, a refusal of its own, hands in a match),
so that the suites running over the registry prove the plug-in machinery on a fourth game.
Players never see it. Its rules: ``rules``."""

from __future__ import annotations

from games.engine.base import GameInfo, register
from games.engine.cards import check_deal
from games.engine.toytrick import observation as _observation
from games.engine.toytrick import rules as _rules
from games.engine.toytrick.rules import CODES, DECK, HAND_SIZE, SEATS

INFO = GameInfo(
    name="toytrick",
    seat_counts=(SEATS,),
    default_seats=SEATS,
    match_end=True,
    deal_word="hand",
    order=99,
    unlisted=True,
)

__all__ = ["CODES", "DECK", "INFO", "ToyTrick", "game"]


class ToyTrick:
    info = INFO
    name = INFO.name
    seat_counts = INFO.seat_counts

    def new_match(self, seed: int, seats: int = SEATS, options: dict | None = None):
        if seats != SEATS:
            raise ValueError("Toy Trick is played by two seats")
        if options:
            raise ValueError("Toy Trick takes no options")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed must be an integer")
        return _rules.new_hand(seed, 1, (0,) * SEATS, 0)

    def new_match_from_deal(
        self, deal: dict, dealer: int = 0, options: dict | None = None, seed: int = 0
    ):
        """A match whose first hand is ``deal`` (a ``dealt`` record) led by ``dealer``."""
        if options:
            raise ValueError("Toy Trick takes no options")
        hands, stock = deal.get("hands") or [], deal.get("stock") or []
        if len(hands) != SEATS or any(len(h) != HAND_SIZE for h in hands):
            raise ValueError("a Toy Trick deal is two hands of three")
        check_deal([*(c for h in hands for c in h), *stock], DECK)
        dealer = 0 if dealer is None else dealer
        if dealer not in range(SEATS):
            raise ValueError("the dealer is one of the two seats")
        return _rules.new_hand(seed, 1, (0,) * SEATS, dealer, hands, stock)

    observation_type = _observation.ToyTrickObservation
    public_view_type = _observation.ToyTrickView
    trick_closed = staticmethod(_observation.trick_closed)

    to_move = staticmethod(_rules.to_move)
    legal_actions = staticmethod(_rules.legal_actions)
    apply = staticmethod(_rules.apply)
    read = staticmethod(_rules.read)
    observation = staticmethod(_rules.observation)
    public_view = staticmethod(_rules.public_view)
    hand_over = staticmethod(_rules.hand_over)
    match_over = staticmethod(_rules.match_over)
    hand_result = staticmethod(_rules.hand_result)
    totals = staticmethod(_rules.totals)
    next_hand = staticmethod(_rules.next_hand)
    to_json = staticmethod(_rules.to_json)
    from_json = staticmethod(_rules.from_json)

    def dealt(self, state) -> dict:
        """The two hands as dealt at the start of the hand, and the stock nobody was dealt."""
        return {"hands": [list(h) for h in state.dealt], "stock": list(state.stock)}


game = register(ToyTrick())
