"""The state of a Gan Deng Yan session and the deal ("Rules & variants", first paragraph;
RULINGS.md, Gan Deng Yan: dealer, 6 to the dealer and 5 to the others, endless session).

A state is one session: the round in play plus the cumulative totals. It is plain data, so
``to_json``/``from_json`` are lossless, and it is copied, never changed, by ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import FULL_DECK, deal_rng, shuffled
from games.engine.gandengyan.combos import card_order

DRAW_RULES = ("all", "winner")
DEFAULT_OPTIONS = {"draw": "all"}
DEALER_CARDS = 6
OTHER_CARDS = 5


@dataclass
class State:
    seed: int
    seats: int
    draw: str
    round: int  # 1, 2, …: the deal's number in the session
    dealer: int
    hands: list[list[str]]
    stock: list[str]  # stock[0] is the top card
    turn: int | None  # the seat to act; None once the round is over
    # The play to beat: {"seat", "cards", "combo"} or None when the turn seat leads.
    table: dict[str, Any] | None = None
    passes: int = 0  # passes in a row since the play on the table
    trick: list[dict[str, Any]] = field(default_factory=list)  # this trick's plays and passes
    # Everything that happened this round, in order: plays, passes, draws (with the cards
    # drawn, which only the drawer's observation shows), trick closings.
    log: list[dict[str, Any]] = field(default_factory=list)
    bombs: int = 0
    played: list[bool] = field(default_factory=list)  # has the seat played a card this round
    winner: int | None = None
    totals: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None  # hand_result once the round is over

    def copy(self) -> State:
        # Log and trick entries are never changed once written, so the lists can share them.
        return State(
            seed=self.seed,
            seats=self.seats,
            draw=self.draw,
            round=self.round,
            dealer=self.dealer,
            hands=[list(h) for h in self.hands],
            stock=list(self.stock),
            turn=self.turn,
            table=self.table,
            passes=self.passes,
            trick=list(self.trick),
            log=list(self.log),
            bombs=self.bombs,
            played=list(self.played),
            winner=self.winner,
            totals=list(self.totals),
            result=self.result,
        )

    def to_json(self) -> dict[str, Any]:
        # The fields of a ``copy``: fresh lists where a move makes new ones, the entries of the
        # log and the trick, the play to beat and the result shared (never changed once
        # written). A deep copy through the JSON encoder cost a third of a millisecond a move
        # on a long round, every move of a transaction (the tests check the form is JSON's:
        # lists, no tuples, through a round trip of every step).
        return dict(self.copy().__dict__)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls(**data)


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=card_order)


def deal(seed: int, seats: int, draw: str, round_no: int, dealer: int, totals: list[int]) -> State:
    """Deal round ``round_no``: 6 cards to the dealer, 5 to each other seat, the rest is the
    stock. The deal depends only on the seed and the round number."""
    deck = shuffled(FULL_DECK, deal_rng(seed, round_no))
    hands: list[list[str]] = [[] for _ in range(seats)]
    pos = 0
    for k in range(seats):
        seat = (dealer + k) % seats
        size = DEALER_CARDS if k == 0 else OTHER_CARDS
        hands[seat] = sort_hand(deck[pos : pos + size])
        pos += size
    return State(
        seed=seed,
        seats=seats,
        draw=draw,
        round=round_no,
        dealer=dealer,
        hands=hands,
        stock=deck[pos:],
        turn=dealer,
        played=[False] * seats,
        totals=list(totals),
    )
