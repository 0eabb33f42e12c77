"""Toy Trick's rules: the state, the deal, play, the end of a hand and of the match.

- Twelve cards (9 10 J Q K A of spades and hearts), two seats, three cards each; the six
  others (the stock) stay unseen.
- The leads alternate: the first trick of a hand is led by its dealer (seat 0 in hand 1, then
  the seats in turn), the second by the other seat, the third by the dealer again.
- Follow suit if you can; the higher card of the led suit wins the trick, worth a point.
- A match is three hands (nine points: never a tie); the higher total wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.engine.base import IllegalAction, register_messages
from games.engine.cards import deal_rng, shuffled

RANKS = "9TJQKA"
SUITS = "SH"
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
RANK = {c: RANKS.index(c[0]) for c in DECK}
SEATS = 2
HAND_SIZE = 3
HANDS_PER_MATCH = 3

# The game's own refusals with their English sentences; the site words them by code.
CODES = {"must_follow_suit": "You must follow the suit that was led ({suit})."}
register_messages(CODES)


@dataclass(frozen=True)
class State:
    """A match: the current hand in full, and the totals of the hands before it."""

    seed: int
    hand_number: int
    prior_totals: tuple[int, ...]
    dealer: int  # leads the hand's first and third tricks
    dealt: tuple[tuple[str, ...], ...]  # the hands as dealt
    stock: tuple[str, ...]  # the cards nobody was dealt
    hands: tuple[tuple[str, ...], ...]  # the cards still held
    trick: tuple[str, ...] = ()  # the current trick's cards, from its leader
    tricks: tuple[tuple[int, tuple[str, ...], int], ...] = ()  # (leader, cards, winner)


def sort_cards(cards) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda c: (SUITS.index(c[1]), -RANK[c])))


def deal(seed: int, hand_number: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The two hands and the stock of one deal, from the seed and the hand's number only."""
    deck = shuffled(DECK, deal_rng(seed, hand_number))
    hands = tuple(sort_cards(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(SEATS))
    return hands, tuple(deck[SEATS * HAND_SIZE :])


def new_hand(seed, hand_number, prior_totals, dealer, hands=None, stock=()) -> State:
    """A hand dealt from the seed, or the given ``hands`` and ``stock`` (a recorded deal)."""
    if hands is None:
        hands, stock = deal(seed, hand_number)
    hands = tuple(sort_cards(h) for h in hands)
    return State(seed, hand_number, tuple(prior_totals), dealer, hands, tuple(stock), hands)


def leader(state: State) -> int:
    return (state.dealer + len(state.tricks)) % SEATS


def hand_over(state: State) -> bool:
    return len(state.tricks) == HAND_SIZE


def to_move(state: State) -> list[int]:
    if hand_over(state):
        return []
    return [(leader(state) + len(state.trick)) % SEATS]


def legal_cards(state: State, seat: int) -> list[str]:
    hand = state.hands[seat]
    if state.trick:
        follow = [c for c in hand if c[1] == state.trick[0][1]]
        if follow:
            return follow
    return list(hand)


def legal_actions(state: State, seat: int) -> list[dict]:
    if seat not in to_move(state):
        return []
    return [{"type": "play", "card": c} for c in legal_cards(state, seat)]


def refusal(state: State, seat: int, card: str) -> IllegalAction:
    """Why the seat to move may not play ``card`` of its hand now (it is not legal)."""
    return IllegalAction("must_follow_suit", {"suit": state.trick[0][1]})


def read(state: State, seat: int, action: object) -> dict:
    """The action as the rules read it (the one shape ``legal_actions`` lists), or the
    refusal ``apply`` would raise, in the contract's order."""
    if not isinstance(seat, int) or seat not in to_move(state):
        raise IllegalAction("not_your_turn", {})
    if (
        not isinstance(action, dict)
        or set(action) != {"type", "card"}
        or action["type"] != "play"
        or not isinstance(action["card"], str)
        or action["card"] not in RANK
    ):
        raise IllegalAction("malformed", {})
    card = action["card"]
    if card not in state.hands[seat]:
        raise IllegalAction("not_in_hand", {"card": card})
    if card not in legal_cards(state, seat):
        raise refusal(state, seat, card)
    return {"type": "play", "card": card}


def trick_winner(lead: int, cards) -> int:
    """The seat whose card is the higher of the led suit (``cards`` from the leader)."""
    best = max(
        (i for i, c in enumerate(cards) if c[1] == cards[0][1]), key=lambda i: RANK[cards[i]]
    )
    return (lead + best) % SEATS


def apply(state: State, seat: int, action: dict) -> State:
    card = read(state, seat, action)["card"]
    hands = tuple(
        tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(state.hands)
    )
    trick = (*state.trick, card)
    if len(trick) < SEATS:
        return replace(state, hands=hands, trick=trick)
    lead = leader(state)
    done = (lead, trick, trick_winner(lead, trick))
    return replace(state, hands=hands, trick=(), tricks=(*state.tricks, done))


def won(state: State) -> list[int]:
    """The tricks each seat has taken this hand (a point each)."""
    return [sum(1 for *_, w in state.tricks if w == s) for s in range(SEATS)]


def hand_result(state: State) -> dict:
    if not hand_over(state):
        raise IllegalAction("hand_not_over", {})
    scores = won(state)
    return {
        "scores": scores,
        "breakdown": [
            {"tricks": n, "score": n, "total": state.prior_totals[s] + n}
            for s, n in enumerate(scores)
        ],
    }


def totals(state: State) -> list[int]:
    if not hand_over(state):
        return list(state.prior_totals)
    return [t + n for t, n in zip(state.prior_totals, won(state), strict=True)]


def match_over(state: State) -> bool:
    return hand_over(state) and state.hand_number >= HANDS_PER_MATCH


def winner(state: State) -> int | None:
    if not match_over(state):
        return None
    current = totals(state)
    return current.index(max(current))


def next_hand(state: State) -> State:
    if not hand_over(state):
        raise IllegalAction("hand_not_over", {})
    if match_over(state):
        raise IllegalAction("match_over", {})
    return new_hand(state.seed, state.hand_number + 1, totals(state), (state.dealer + 1) % SEATS)


def voids(state: State) -> list[list[str]]:
    """Per seat, the suits it has shown it no longer holds (it did not follow them)."""
    shown: list[set] = [set(), set()]
    played = [(lead, cards) for lead, cards, _ in state.tricks]
    if state.trick:
        played.append((leader(state), state.trick))
    for lead, cards in played:
        for i, c in enumerate(cards[1:], start=1):
            if c[1] != cards[0][1]:
                shown[(lead + i) % SEATS].add(cards[0][1])
    return [[s for s in SUITS if s in v] for v in shown]


def _trick(lead: int, cards, winner_seat: int | None) -> dict:
    plays = [{"seat": (lead + i) % SEATS, "card": c} for i, c in enumerate(cards)]
    return {"leader": lead, "plays": plays, "winner": winner_seat}


def public_view(state: State) -> dict:
    movers = to_move(state)
    last = state.tricks[-1] if state.tricks else None
    return {
        "game": "toytrick",
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "leader": leader(state) if movers else None,
        "to_move": movers[0] if movers else None,
        "hand_sizes": [len(h) for h in state.hands],
        "trick": _trick(leader(state), state.trick, None) if movers else None,
        "last_trick": _trick(*last) if last else None,
        "tricks": [_trick(*t) for t in state.tricks],
        "won": won(state),
        "voids": voids(state),
        "prior_totals": list(state.prior_totals),
        "totals": totals(state),
        "match_over": match_over(state),
        "winner": winner(state),
        "result": hand_result(state) if hand_over(state) else None,
    }


def observation(state: State, seat: int) -> dict:
    view = public_view(state)
    view["seat"] = seat
    view["hand"] = list(state.hands[seat])
    mine = view["to_move"] == seat
    view["legal_cards"] = legal_cards(state, seat) if mine else []
    view["unplayable"] = {
        c: {"code": r.code, "params": r.params}
        for c in (state.hands[seat] if mine else ())
        if c not in view["legal_cards"]
        for r in (refusal(state, seat, c),)
    }
    return view


def to_json(state: State) -> dict:
    return {
        "game": "toytrick",
        "seed": state.seed,
        "hand_number": state.hand_number,
        "prior_totals": list(state.prior_totals),
        "dealer": state.dealer,
        "dealt": [list(h) for h in state.dealt],
        "stock": list(state.stock),
        "hands": [list(h) for h in state.hands],
        "trick": list(state.trick),
        "tricks": [[lead, list(cards), w] for lead, cards, w in state.tricks],
    }


def from_json(data: dict) -> State:
    if not isinstance(data, dict) or data.get("game") != "toytrick":
        raise ValueError("not a Toy Trick state")
    return State(
        seed=data["seed"],
        hand_number=int(data["hand_number"]),
        prior_totals=tuple(int(t) for t in data["prior_totals"]),
        dealer=int(data["dealer"]),
        dealt=tuple(tuple(h) for h in data["dealt"]),
        stock=tuple(data["stock"]),
        hands=tuple(tuple(h) for h in data["hands"]),
        trick=tuple(data["trick"]),
        tricks=tuple((int(lead), tuple(cards), int(w)) for lead, cards, w in data["tricks"]),
    )
