"""Exposure, play and the end of a hand and of the match (RULINGS.md "Gong Zhu").

- Exposure is simultaneous: every undecided seat is to move; a seat without AH, QS, JD or TC
  has only the empty choice; the choices are revealed together once all four decided.
- An exposed card may not lead its suit, nor be played into the first trick in which its
  suit is led, unless it is its holder's only card of that suit; discarding it is free, and
  once its suit has been led it is free.
- Follow suit if you can; the highest card of the led suit wins and leads next.
- The match ends after a hand when some total is −1000 or less and exactly one seat has
  the highest total; seats at −1000 or below are out.
"""

from __future__ import annotations

import functools
from itertools import combinations

from games.engine.base import IllegalAction
from games.engine.gongzhu.actions import parse
from games.engine.gongzhu.scoring import EXPOSABLE, PIG, POINT_CARDS, breakdown
from games.engine.gongzhu.state import EXPOSE, OVER, PLAY, RANK, SEATS, State, new_hand

OUT_AT = -1000

_ALL = list(range(SEATS))


def to_move(state: State) -> list[int]:
    if state.phase == PLAY:
        return [(state.leader + len(state.trick)) % SEATS]
    if state.phase == EXPOSE:
        return [s for s in _ALL if state.pending[s] is None]
    return []


def exposable(hand) -> list[str]:
    return [c for c in EXPOSABLE if c in hand]


def exposure_choices(hand) -> list[list[str]]:
    """Every subset of the seat's exposable cards, the empty one first."""
    cards = exposable(hand)
    return [list(combo) for n in range(len(cards) + 1) for combo in combinations(cards, n)]


def restricted_cards(state: State, seat: int) -> list[str]:
    """This seat's exposed cards still held whose suit has not yet been led in a finished trick."""
    mine = state.exposed[seat]
    if not mine:
        return []
    hand = state.hands[seat]
    return [c for c in mine if c in hand and c[1] not in state.led]


def legal_cards(state: State, seat: int) -> list[str]:
    """The cards ``seat`` may play now (it must be its turn in the play phase)."""
    hand = state.hands[seat]
    restricted = restricted_cards(state, seat) if state.exposed[seat] else ()
    if state.trick:
        suit = state.trick[0][1]
        follow = [c for c in hand if c[1] == suit]
        if not follow:
            return list(hand)  # void: anything, an exposed card included
        if restricted and len(follow) > 1:
            # Only the first trick of the suit can still be restricted (``led`` excludes it).
            return [c for c in follow if c not in restricted]
        return follow
    if not restricted:
        return list(hand)
    return [c for c in hand if c not in restricted or _only_of_suit(hand, c)]


def _only_of_suit(hand, card: str) -> bool:
    suit = card[1]
    return sum(1 for c in hand if c[1] == suit) == 1


def legal_actions(state: State, seat: int) -> list[dict]:
    if seat not in to_move(state):
        return []
    if state.phase == EXPOSE:
        return [{"type": "expose", "cards": cards} for cards in exposure_choices(state.hands[seat])]
    return [{"type": "play", "card": c} for c in legal_cards(state, seat)]


def apply(state: State, seat: int, action: dict) -> State:
    if not isinstance(seat, int) or seat not in to_move(state):
        raise IllegalAction("not_your_turn", {})
    kind, payload = parse(action)
    hand = state.hands[seat]
    if kind == "play":
        if payload not in hand:
            raise IllegalAction("not_in_hand", {"card": payload})
        if state.phase != PLAY:
            raise IllegalAction("wrong_phase", {"phase": state.phase})
        return _play(state, seat, payload)
    for card in payload:
        if card not in hand:
            raise IllegalAction("not_in_hand", {"card": card})
    if state.phase != EXPOSE:
        raise IllegalAction("wrong_phase", {"phase": state.phase})
    for card in payload:
        if card not in EXPOSABLE:
            raise IllegalAction("not_exposable", {"card": card})
    return _expose(state, seat, tuple(c for c in EXPOSABLE if c in payload))


def read(state: State, seat: int, action: dict) -> dict:
    """The action as the engine reads it, in the shape ``legal_actions`` lists (exposed
    cards in the rule's order). Refused exactly as ``apply`` would refuse it (it applies it:
    a Gong Zhu move is cheap)."""
    apply(state, seat, action)
    kind, payload = parse(action)
    if kind == "play":
        return {"type": "play", "card": payload}
    return {"type": "expose", "cards": [c for c in EXPOSABLE if c in payload]}


def _expose(state: State, seat: int, cards: tuple[str, ...]) -> State:
    new = state.copy()
    pending = list(state.pending)
    pending[seat] = cards
    if any(p is None for p in pending):
        new.pending = tuple(pending)
        return new
    # All four have decided: the choices are shown together and play begins.
    new.pending = (None,) * SEATS
    new.exposed = tuple(pending)
    new.phase = PLAY
    return new


def refuse_play(state: State, seat: int, card: str) -> IllegalAction:
    """Why the seat to move may not play ``card`` from its hand now (it is not legal)."""
    hand = state.hands[seat]
    if state.trick:
        suit = state.trick[0][1]
        if card[1] != suit and any(c[1] == suit for c in hand):
            return IllegalAction("must_follow_suit", {"suit": suit})
    return IllegalAction("exposed_card_first_trick", {"card": card, "suit": card[1]})


def _play(state: State, seat: int, card: str) -> State:
    if card not in legal_cards(state, seat):
        raise refuse_play(state, seat, card)
    new = state.copy()
    hands = list(state.hands)
    hands[seat] = tuple(c for c in state.hands[seat] if c != card)
    new.hands = tuple(hands)
    trick = state.trick + (card,)
    if len(trick) < SEATS:
        new.trick = trick
        return new
    leader = state.leader
    suit = trick[0][1]
    winner = trick_winner(leader, trick)
    points = tuple(c for c in trick if c in POINT_CARDS)
    if points:
        taken = list(state.taken)
        taken[winner] = taken[winner] + points
        new.taken = tuple(taken)
    new.tricks = state.tricks + ((leader, trick, winner),)
    if suit not in state.led:
        new.led = state.led + suit
    new.trick = ()
    new.leader = winner
    if len(new.tricks) == 13:
        new.phase = OVER
    return new


def trick_winner(leader: int, cards) -> int:
    """The seat whose card is the highest of the led suit (``cards`` in playing order from
    ``leader``): the trick's winner once all four played, the seat winning it so far before."""
    suit = cards[0][1]
    best = 0
    for i, c in enumerate(cards):
        if c[1] == suit and RANK[c] > RANK[cards[best]]:
            best = i
    return (leader + best) % SEATS


def all_exposed(state: State) -> set[str]:
    return {c for cards in state.exposed for c in cards}


def hand_over(state: State) -> bool:
    return state.phase == OVER


def hand_scores(state: State) -> list[int]:
    """Each seat's score from what it has taken so far (the final score once the hand is over)."""
    exposed = frozenset(all_exposed(state))
    return [_score(tuple(state.taken[s]), exposed) for s in _ALL]


@functools.lru_cache(maxsize=4096)
def _score(taken: tuple, exposed: frozenset) -> int:
    """A seat's score for the point cards it has taken: worked out again only when they change
    (every observation shows every seat's; a trick changes one seat's in four moves)."""
    return breakdown(taken, exposed)["score"]


def hand_result(state: State) -> dict:
    if state.phase != OVER:
        raise IllegalAction("hand_not_over", {})
    exposed = all_exposed(state)
    rows = []
    for seat in _ALL:
        row = breakdown(state.taken[seat], exposed)
        row["exposed"] = list(state.exposed[seat])
        rows.append(row)
    scores = [row["score"] for row in rows]
    for seat, row in enumerate(rows):
        row["total"] = state.prior_totals[seat] + scores[seat]
    return {"scores": scores, "breakdown": rows}


def totals(state: State) -> list[int]:
    if state.phase != OVER:
        return list(state.prior_totals)
    return [t + s for t, s in zip(state.prior_totals, hand_scores(state), strict=True)]


def match_decided(current: list[int]) -> bool:
    """Some total at −1000 or less and exactly one seat alone at the top."""
    top = max(current)
    return min(current) <= OUT_AT and current.count(top) == 1


def match_over(state: State) -> bool:
    return state.phase == OVER and match_decided(totals(state))


def out_seats(current: list[int]) -> list[int]:
    return [s for s, t in enumerate(current) if t <= OUT_AT]


def winner(state: State) -> int | None:
    if not match_over(state):
        return None
    current = totals(state)
    return current.index(max(current))


def pig_taker(state: State) -> int | None:
    for seat in _ALL:
        if PIG in state.taken[seat]:
            return seat
    return None


def next_hand(state: State) -> State:
    if state.phase != OVER:
        raise IllegalAction("hand_not_over", {})
    if match_over(state):
        raise IllegalAction("match_over", {})
    # Whoever took the pig leads the next hand (RULINGS.md).
    return new_hand(state.seed, state.hand_number + 1, tuple(totals(state)), pig_taker(state))
