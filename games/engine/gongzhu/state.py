"""One match of Gong Zhu as an immutable value (RULINGS.md "Gong Zhu": four seats, 13 cards
each, hand 1 led by the holder of 2S, later hands by the pig's taker).

Every field is a tuple, str or int, so ``apply`` shares what it does not change and a state
is never mutated after it is built. ``to_json``/``from_json`` are lossless.
"""

from __future__ import annotations

from games.engine.cards import STANDARD_DECK, deal_rng, shuffled

SEATS = 4
HAND_SIZE = 13
SUIT_ORDER = "SHCD"
_RANK_INDEX = {r: i for i, r in enumerate("23456789TJQKA")}
# Rank of a card inside its suit, for trick winners: 2 lowest, A highest.
RANK = {c: _RANK_INDEX[c[0]] for c in STANDARD_DECK}
# Display order of a hand: by suit (spades, hearts, clubs, diamonds: colours alternate), high first.
SORT_KEY = {c: (SUIT_ORDER.index(c[1]), -RANK[c]) for c in STANDARD_DECK}

EXPOSE, PLAY, OVER = "expose", "play", "over"


class State:
    """A match: the current hand in full plus the totals of the hands before it."""

    __slots__ = (
        "seed",
        "hand_number",
        "prior_totals",  # cumulative totals before this hand
        "hands",  # per seat, the unplayed cards (sorted for display)
        "phase",  # "expose", "play" or "over" (this hand is over)
        "pending",  # exposure phase: per seat None (undecided) or the cards it chose
        "exposed",  # per seat, the cards it exposed (revealed once all four decided)
        "first_leader",
        "open_leader",  # the first leader is known to all (a later hand, or a deal played again)
        "leader",  # seat leading the current trick
        "trick",  # cards of the current trick, in playing order from the leader
        "tricks",  # completed tricks of this hand: (leader, cards, winner)
        "taken",  # per seat, the point cards it has taken this hand
        "led",  # suits led in completed tricks, in order of first lead
    )

    def copy(self) -> State:
        new = State.__new__(State)
        new.seed = self.seed
        new.hand_number = self.hand_number
        new.prior_totals = self.prior_totals
        new.hands = self.hands
        new.phase = self.phase
        new.pending = self.pending
        new.exposed = self.exposed
        new.first_leader = self.first_leader
        new.open_leader = self.open_leader
        new.leader = self.leader
        new.trick = self.trick
        new.tricks = self.tricks
        new.taken = self.taken
        new.led = self.led
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and to_json(self) == to_json(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<gongzhu State hand {self.hand_number} {self.phase} trick {len(self.tricks) + 1}>"


def sort_cards(cards) -> tuple[str, ...]:
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def deal(seed: int, hand_number: int) -> tuple[tuple[str, ...], ...]:
    """The four hands of one deal: from the seed and the hand's number only (RULINGS.md)."""
    deck = shuffled(STANDARD_DECK, deal_rng(seed, hand_number))
    return tuple(sort_cards(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(SEATS))


def new_hand(
    seed: int,
    hand_number: int,
    prior_totals: tuple[int, ...],
    leader: int | None,
    hands: tuple[tuple[str, ...], ...] | None = None,
):
    """A hand dealt and waiting for the four exposure choices; ``leader`` None means 2S leads.
    ``hands``: these cards instead of the seed's deal (a recorded deal played again)."""
    hands = deal(seed, hand_number) if hands is None else tuple(sort_cards(h) for h in hands)
    given_leader = leader is not None
    if leader is None:
        leader = next(s for s in range(SEATS) if "2S" in hands[s])
    state = State.__new__(State)
    state.seed = seed
    state.hand_number = hand_number
    state.prior_totals = tuple(prior_totals)
    state.hands = hands
    state.phase = EXPOSE
    state.pending = (None,) * SEATS
    state.exposed = ((),) * SEATS
    state.first_leader = leader
    state.open_leader = hand_number > 1 or given_leader
    state.leader = leader
    state.trick = ()
    state.tricks = ()
    state.taken = ((),) * SEATS
    state.led = ""
    return state


def to_json(state: State) -> dict:
    return {
        "game": "gongzhu",
        "seed": state.seed,
        "hand_number": state.hand_number,
        "prior_totals": list(state.prior_totals),
        "hands": [list(h) for h in state.hands],
        "phase": state.phase,
        "pending": [None if p is None else list(p) for p in state.pending],
        "exposed": [list(e) for e in state.exposed],
        "first_leader": state.first_leader,
        "open_leader": state.open_leader,
        "leader": state.leader,
        "trick": list(state.trick),
        "tricks": [[lead, list(cards), winner] for lead, cards, winner in state.tricks],
        "taken": [list(t) for t in state.taken],
        "led": state.led,
    }


def from_json(data: dict) -> State:
    if not isinstance(data, dict) or data.get("game") != "gongzhu":
        raise ValueError("not a Gong Zhu state")
    state = State.__new__(State)
    state.seed = data["seed"]
    state.hand_number = int(data["hand_number"])
    state.prior_totals = tuple(int(t) for t in data["prior_totals"])
    state.hands = tuple(tuple(h) for h in data["hands"])
    state.phase = data["phase"]
    if state.phase not in (EXPOSE, PLAY, OVER):
        raise ValueError(f"unknown phase {state.phase!r}")
    state.pending = tuple(None if p is None else tuple(p) for p in data["pending"])
    state.exposed = tuple(tuple(e) for e in data["exposed"])
    state.first_leader = int(data["first_leader"])
    state.open_leader = bool(data.get("open_leader", state.hand_number > 1))
    state.leader = int(data["leader"])
    state.trick = tuple(data["trick"])
    state.tricks = tuple((int(lead), tuple(cards), int(w)) for lead, cards, w in data["tricks"])
    state.taken = tuple(tuple(t) for t in data["taken"])
    state.led = str(data["led"])
    if len(state.hands) != SEATS or len(state.prior_totals) != SEATS:
        raise ValueError("a Gong Zhu state has four seats")
    return state
