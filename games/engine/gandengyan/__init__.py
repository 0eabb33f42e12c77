"""Gan Deng Yan (干瞪眼), the "staring eyes" climbing game, per ENGINE_CONTRACT.md,
docs/RULINGS.md. The game object ties the modules together:
``combos`` (valid plays, beating), ``state`` (the deal), ``rules`` (turns, passing, drawing),
``scoring`` (settlement), ``observation`` (what a seat may see), ``actions`` (refusal codes).
"""

from __future__ import annotations

from typing import Any

from games.engine.base import GameInfo, IllegalAction, register
from games.engine.cards import FULL_DECK, check_deal
from games.engine.gandengyan import observation as _observation
from games.engine.gandengyan import rules
from games.engine.gandengyan.actions import CODES
from games.engine.gandengyan.combos import beats, readings
from games.engine.gandengyan.observation import GanDengYanObservation, GanDengYanView
from games.engine.gandengyan.scoring import settle
from games.engine.gandengyan.state import (
    DEALER_CARDS,
    DEFAULT_OPTIONS,
    DRAW_RULES,
    OTHER_CARDS,
    State,
    deal,
    sort_hand,
)

INFO = GameInfo(
    name="gandengyan",
    seat_counts=(2, 3, 4),
    default_seats=3,
    options={"draw": DRAW_RULES},
    default_options=dict(DEFAULT_OPTIONS),
    match_end=False,  # a session runs on (RULINGS.md)
    deal_word="round",
    order=2,
)

__all__ = [
    "CODES",
    "GAME",
    "INFO",
    "GanDengYanObservation",
    "GanDengYanView",
    "beats",
    "readings",
    "settle",
]


class GanDengYan:
    info = INFO
    name = INFO.name
    seat_counts = INFO.seat_counts
    default_seats = INFO.default_seats
    observation_type = GanDengYanObservation
    public_view_type = GanDengYanView

    def new_match(self, seed: int, seats: int, options: dict | None = None) -> State:
        if seats not in self.seat_counts:
            raise ValueError(f"Gan Deng Yan is played by 2, 3 or 4, not {seats}")
        opts = {**DEFAULT_OPTIONS, **(options or {})}
        if set(opts) != {"draw"} or opts["draw"] not in DRAW_RULES:
            raise ValueError(f"unknown options {options!r}")
        return deal(seed, seats, opts["draw"], round_no=1, dealer=0, totals=[0] * seats)

    def new_match_from_deal(
        self, deal: dict, dealer: int = 0, options: dict | None = None, seed: int = 0
    ) -> State:
        """A session whose first round is ``deal`` (a ``dealt`` record: hands and stock, the
        dealer's six cards at ``dealer``). ``seed`` deals the rounds after it."""
        opts = {**DEFAULT_OPTIONS, **(options or {})}
        if set(opts) != {"draw"} or opts["draw"] not in DRAW_RULES:
            raise ValueError(f"unknown options {options!r}")
        hands, stock = deal.get("hands") or [], deal.get("stock") or []
        seats = len(hands)
        if seats not in self.seat_counts or dealer not in range(seats):
            raise ValueError("a Gan Deng Yan deal is 2 to 4 hands, the dealer one of them")
        if any(
            len(h) != (DEALER_CARDS if s == dealer else OTHER_CARDS) for s, h in enumerate(hands)
        ):
            raise ValueError("the dealer holds six cards, everyone else five")
        check_deal([c for h in hands for c in h] + list(stock), FULL_DECK)
        return State(
            seed=seed,
            seats=seats,
            draw=opts["draw"],
            round=1,
            dealer=dealer,
            hands=[sort_hand(h) for h in hands],
            stock=list(stock),
            turn=dealer,
            played=[False] * seats,
            totals=[0] * seats,
        )

    def to_move(self, state: State) -> list[int]:
        return [] if state.turn is None else [state.turn]

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: int, action: dict) -> State:
        return rules.apply(state, seat, action)

    def read(self, state: State, seat: int, action: dict) -> dict:
        return rules.read(state, seat, action)

    def observation(self, state: State, seat: int) -> GanDengYanObservation:
        return _observation.observation(state, seat)

    def public_view(self, state: State) -> GanDengYanView:
        return _observation.public_view(state)

    trick_closed = staticmethod(_observation.trick_closed)

    def hand_over(self, state: State) -> bool:
        return state.turn is None

    def match_over(self, state: State) -> bool:
        return False  # a session is endless (RULINGS.md)

    def hand_result(self, state: State) -> dict[str, Any]:
        if state.result is None:
            raise IllegalAction("hand_not_over", {})
        return {
            "scores": list(state.result["scores"]),
            "breakdown": [dict(r) for r in state.result["breakdown"]],
        }

    def totals(self, state: State) -> list[int]:
        return list(state.totals)

    def next_hand(self, state: State) -> State:
        if state.result is None:
            raise IllegalAction("hand_not_over", {})
        return deal(
            state.seed, state.seats, state.draw, state.round + 1, state.winner, state.totals
        )

    def to_json(self, state: State) -> dict:
        return state.to_json()

    def from_json(self, data: dict) -> State:
        return State.from_json(data)

    def dealt(self, state: State) -> dict:
        """The hands and the stock as dealt: the stock decides every draw, so a replay
        checks it too (called before the first play of the round)."""
        data = state.to_json()
        return {"hands": [list(h) for h in data["hands"]], "stock": list(data["stock"])}


GAME = register(GanDengYan())
