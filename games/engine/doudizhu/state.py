"""The state of a Dou Dizhu match (RULINGS.md, Dou Dizhu: the deal, the dealer, the match).

A ``State`` is one match: the hand being played plus the cumulative totals. The deal of a
hand comes only from the match seed and the running number of deals (``cards.deal_rng``),
thrown-in deals included, so any deal can be replayed on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from games.engine.cards import FULL_DECK, deal_rng, shuffled
from games.engine.doudizhu.combos import rank_index

SEATS = 3
HAND_SIZE = 17
MATCH_LENGTHS = (1, 3, 5, 10)
DEFAULT_HANDS = 5

SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3}


def card_key(card: str) -> tuple[int, int]:
    """Sort order of a hand: by rank ``3 … A, 2, BJ, RJ``, then by suit."""
    return (rank_index(card), SUIT_ORDER.get(card[1], 0) if card not in ("BJ", "RJ") else 0)


def sort_cards(cards) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_key))


def deal(seed: int, deal_number: int) -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    """Three hands of 17 and the three kitty cards of deal ``deal_number`` of the match."""
    deck = shuffled(FULL_DECK, deal_rng(seed, deal_number))
    hands = [sort_cards(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(SEATS)]
    return hands, sort_cards(deck[SEATS * HAND_SIZE :])


@dataclass(eq=False)
class State:
    seed: int
    hands_in_match: int
    hand_number: int  # 1-based number of the hand in the match
    deal_number: int  # deals so far in the match, thrown-in ones included (0-based)
    dealer: int
    hands: list  # per seat, a sorted tuple of card codes
    kitty: tuple
    phase: str  # "bidding", "playing" or "over"
    turn: int
    bids: list = field(default_factory=list)  # (seat, value) in order; value 0 passes
    redeals: int = 0  # deals thrown in during this hand
    landlord: int | None = None
    bid: int = 0
    # the play to beat: (seat, cards, move) or None on a lead
    table: tuple | None = None
    passes: int = 0  # passes in a row since the last play
    plays: list = field(default_factory=list)  # (seat, cards or None, move or None) this hand
    bombs: int = 0  # bombs and rockets played this hand
    played_count: list = field(default_factory=lambda: [0, 0, 0])  # plays per seat this hand
    winner: int | None = None
    totals: list = field(default_factory=lambda: [0, 0, 0])
    result: dict | None = None
    fixed: bool = False  # landlord fixed without bidding (new_match_fixed)

    def clone(self) -> State:
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        new.hands = list(self.hands)
        new.bids = list(self.bids)
        new.plays = list(self.plays)
        new.played_count = list(self.played_count)
        new.totals = list(self.totals)
        return new


_SIMPLE = (
    "seed",
    "hands_in_match",
    "hand_number",
    "deal_number",
    "dealer",
    "phase",
    "turn",
    "redeals",
    "landlord",
    "bid",
    "passes",
    "bombs",
    "winner",
    "fixed",
)


def _move_json(move):
    return None if move is None else [move[0], move[1], move[2], list(move[3])]


def _move_from(data):
    return None if data is None else (data[0], data[1], data[2], tuple(data[3]))


def to_json(state: State) -> dict:
    data = {name: getattr(state, name) for name in _SIMPLE}
    data["hands"] = [list(h) for h in state.hands]
    data["kitty"] = list(state.kitty)
    data["bids"] = [list(b) for b in state.bids]
    data["table"] = (
        None
        if state.table is None
        else [state.table[0], list(state.table[1]), _move_json(state.table[2])]
    )
    data["plays"] = [
        [s, None if cards is None else list(cards), _move_json(m)] for s, cards, m in state.plays
    ]
    data["played_count"] = list(state.played_count)
    data["totals"] = list(state.totals)
    data["result"] = state.result
    return data


def from_json(data: dict) -> State:
    names = {f.name for f in fields(State)}
    missing = names - set(data)
    if missing:
        raise ValueError(f"missing fields: {sorted(missing)}")
    table = data["table"]
    return State(
        **{name: data[name] for name in _SIMPLE},
        hands=[tuple(h) for h in data["hands"]],
        kitty=tuple(data["kitty"]),
        bids=[tuple(b) for b in data["bids"]],
        table=None if table is None else (table[0], tuple(table[1]), _move_from(table[2])),
        plays=[
            (s, None if cards is None else tuple(cards), _move_from(m))
            for s, cards, m in data["plays"]
        ],
        played_count=list(data["played_count"]),
        totals=list(data["totals"]),
        result=data["result"],
    )
