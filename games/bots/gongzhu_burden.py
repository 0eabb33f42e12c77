"""Gong Zhu: sharp, shallow evaluations of a hand in points, after the published greedy
sampler (issue 47).

``Greedy`` and ``Weights``: the benchmark's ``greedy`` opponent's evaluation
(games/bench/gongzhu_greedy.py): the rest of a trick answered greedily, a card valued by the
trick's worth to its own seat plus the relief of shedding it (tuned by matches against
Normal). ``burden``: what holding a hand costs a seat, with which Hard's truncated playouts
score the position where they stop (``horizon``, a variant off by default).
"""

from __future__ import annotations

from games.bots.gongzhu import RANK
from games.engine.gongzhu.scoring import (
    GOAT,
    HEART_VALUES,
    PIG,
    POINT_CARDS,
    TRANSFORMER,
    quick_score,
)

# Spades above the pig are a burden while the pig is out and someone else holds it.
SPADES_OVER_PIG = {"AS": 30.0, "KS": 25.0}
# Holding the pig: a burden that low spades to shed it under lighten.
OWN_PIG = 60.0
OWN_PIG_GUARD = 10.0
# High diamonds are an asset (a negative burden) while the goat is out.
DIAMONDS_OVER_GOAT = {"AD": -20.0, "KD": -15.0, "QD": -10.0}
# High clubs take the transformer: per club, this share of the doubling it threatens (what the
# seat has taken, or the transformer's lone +50 when it has taken no point card).
CLUBS_OVER_TRANSFORMER = {"AC": 0.3, "KC": 0.25, "QC": 0.2, "JC": 0.15}
LONE_TRANSFORMER = 50
# High hearts are a burden while a lower heart is out (they may have to win a heart trick).
HIGH_HEARTS = {
    "AH": 20.0,
    "KH": 16.0,
    "QH": 12.0,
    "JH": 9.0,
    "TH": 6.0,
    "9H": 4.0,
    "8H": 3.0,
    "7H": 2.0,
}
# Any high card may have to win a trick one would rather not: per rank above eight.
HIGH_CARD = 1.0


HEARTS = tuple(r + "H" for r in "23456789TJQKA")


def burden(hand: list[str], gone: set[str], taken: list[str], exposed) -> float:
    """What holding ``hand`` costs a seat (positive: bad) with the cards in ``gone`` played
    and ``taken`` its point cards so far."""
    total = sum(HIGH_CARD * max(0, RANK[c] - RANK["8S"]) for c in hand)
    lowest_out = min(
        (RANK[c] for c in HEARTS if c not in gone and c not in hand), default=len(RANK)
    )
    total += sum(v for c, v in HIGH_HEARTS.items() if c in hand and RANK[c] > lowest_out)
    if PIG not in gone:
        if PIG in hand:
            low = sum(1 for c in hand if c[1] == "S" and RANK[c] < RANK[PIG])
            total += OWN_PIG - OWN_PIG_GUARD * min(low, 4)
        else:
            total += sum(SPADES_OVER_PIG.get(c, 0.0) for c in hand)
    if GOAT not in gone:
        total += sum(DIAMONDS_OVER_GOAT.get(c, 0.0) for c in hand)
    if TRANSFORMER not in gone and TRANSFORMER not in hand:
        weight = sum(CLUBS_OVER_TRANSFORMER.get(c, 0.0) for c in hand)
        if weight:
            doubling = quick_score(taken, exposed) if taken else LONE_TRANSFORMER
            total -= weight * doubling
    return total


# --- the greedy sampler's evaluation: the trick's worth to a seat and the relief of its card

# Shedding a card relieves its holder of what keeping it would risk, in points. Every card but
# the point hearts: a little by its rank (a high card may have to win a trick later).
RANK_RELIEF = {c: float(max(0, RANK[c] - 1)) for c in RANK if c[1] != "H"} | {
    c: float(max(0, RANK[c] - 1)) for c in RANK if c[1] == "H" and RANK[c] <= RANK["TH"]
}


class Weights:
    """The hand-tuned values of the greedy evaluation (``Greedy``), each a scale of its table:
    ``base`` of RANK_RELIEF; ``spades`` of what shedding AS or KS relieves while the pig is
    out (neither played nor held: its holder may be made to drop it on them); ``diamonds``
    of what shedding a diamond above the goat costs while the goat is out; ``clubs`` of the
    share of the transformer's doubling a high club would take while the transformer is out;
    ``pig``: shedding one's own pig; ``hearts``: shedding a heart, this share of its points;
    ``future``: taking the transformer doubles the points still to come too (this share of
    one seat's expected part of them). ``team``: a trick's worth to the seat and its
    pair-mate across the table, less its worth to the other pair's seat that takes it (as
    the published sampler counts it in its partnership rules; not ours, where every seat
    plays for itself: a benchmark's question, 0 by default)."""

    SPADES = {"AS": 50.0, "KS": 30.0}
    DIAMONDS = {"AD": -30.0, "KD": -20.0, "QD": -10.0}
    CLUBS = {"AC": 0.4, "KC": 0.3, "QC": 0.2, "JC": 0.1}

    def __init__(
        self,
        base: float = 1.0,
        spades: float = 0.5,
        diamonds: float = 2.0,
        clubs: float = 1.0,
        pig: float = 30.0,
        hearts: float = 1.0,
        future: float = 1.0,
        team: float = 0.0,
    ):
        self.team = bool(team)
        self.base = {c: v * base for c, v in RANK_RELIEF.items()}
        self.spades = {c: v * spades for c, v in self.SPADES.items()}
        self.diamonds = {c: v * diamonds for c, v in self.DIAMONDS.items()}
        self.clubs = {c: v * clubs for c, v in self.CLUBS.items()}
        self.pig = pig
        self.hearts = {c: -v * hearts for c, v in HEART_VALUES.items()}
        self.future = future


class Greedy:
    """One position's greedy evaluation: the rest of a trick answered seat by seat, each
    seat choosing the card of the best ``value`` for itself given the later seats' answers
    by the same rule; a card's value is the finished trick's worth to its own seat (what
    taking it changes in that seat's hand score, no other seat's) plus the relief of
    shedding it (``Weights``)."""

    def __init__(self, view, weights: Weights):
        self.w = weights
        self.led = set(view.led)
        self.exposed = frozenset(view.exposed)
        self.gone = set(view.played)
        self.taken = [[c for c in t if c in POINT_CARDS] for t in view.collected]
        factor = {c: 2 if c in self.exposed else 1 for c in (PIG, GOAT)}
        hearts = 2 if "AH" in self.exposed else 1
        self.heart_factor, self.pig_factor = hearts, factor[PIG]
        points = {c: v * hearts for c, v in HEART_VALUES.items()}
        points[PIG] = -100 * factor[PIG]
        points[GOAT] = 100 * factor[GOAT]
        taken = {c for t in self.taken for c in t}
        # One seat's expected part of the points not yet taken, and what each seat has.
        self.to_come = sum(v for c, v in points.items() if c not in taken) / 4
        self.score = [sum(points.get(c, 0) for c in t) for t in self.taken]
        self.doubling = 4 if TRANSFORMER in self.exposed else 2
        self.before = [quick_score(t, self.exposed) for t in self.taken]

    def relief(self, seat: int, card: str, hand: list[str], cards: list[str]) -> float:
        """What shedding ``card`` from ``hand`` into the trick ``cards`` relieves ``seat`` of,
        whoever takes the trick (the pig and the hearts: ``dumped``)."""
        w = self.w
        value = w.base.get(card, 0.0)
        suit = card[1]
        if suit == "S":
            if card in w.spades and self._out(PIG, hand, cards):
                value += w.spades[card]
        elif suit == "D":
            if card in w.diamonds and self._out(GOAT, hand, cards):
                value += w.diamonds[card]
        elif card in w.clubs and self._out(TRANSFORMER, hand, cards):
            value -= w.clubs[card] * (self.to_come + self.score[seat])
        return value

    def dumped(self, card: str) -> float:
        """What giving ``card`` to another seat's trick relieves its holder of: the pig, or a
        heart (this share of its points)."""
        if card == PIG:
            return self.w.pig * self.pig_factor
        return self.w.hearts.get(card, 0.0) * self.heart_factor

    def value(self, seat: int, leader: int, done: list[str], card: str, hand, cards) -> float:
        """The finished trick ``done`` to ``seat``, which played ``card`` from ``hand`` into
        ``cards``: its worth, and the relief of the card."""
        relief = self.relief(seat, card, hand, cards)
        if self.w.team:
            winner = _winner(leader, done)
            worth = self._change(winner, done)
            return (worth if (winner - seat) % 2 == 0 else -worth) + relief
        worth = self.worth(seat, leader, done)
        if worth is None:
            return relief + self.dumped(card)
        return worth + relief

    def _out(self, card: str, hand: list[str], cards: list[str]) -> bool:
        return card not in self.gone and card not in hand and card not in cards

    def worth(self, seat: int, leader: int, cards: list[str]) -> float | None:
        """The finished trick ``cards`` to ``seat``: what taking it changes in its score, or
        None when another seat takes it."""
        if _winner(leader, cards) != seat:
            return None
        return self._change(seat, cards)

    def _change(self, seat: int, cards: list[str]) -> float:
        """What taking the finished trick ``cards`` changes in ``seat``'s score."""
        points = [c for c in cards if c in POINT_CARDS]
        if not points:
            return 0.0
        taken = self.taken[seat]
        worth = quick_score([*taken, *points], self.exposed) - self.before[seat]
        if TRANSFORMER in points:
            worth += self.w.future * (self.doubling - 1) * self.to_come
        return worth

    def answer(self, hands, restricted, leader: int, cards: list[str]) -> list[str]:
        """The trick ``cards`` finished by the seats still to play (``legal`` gives a seat's
        legal cards)."""
        if len(cards) == 4:
            return cards
        seat = (leader + len(cards)) % 4
        hand = hands[seat]
        best, best_value = cards, None
        for card in sorted(legal(hand, cards, restricted[seat], self.led), key=RANK.__getitem__):
            done = self.answer(hands, restricted, leader, [*cards, card])
            value = self.value(seat, leader, done, card, hand, cards)
            if best_value is None or value > best_value:
                best, best_value = done, value
        return best


def _winner(leader: int, cards: list[str]) -> int:
    """The seat that takes the finished trick ``cards`` led by ``leader``."""
    suit = cards[0][1]
    best = 0
    for i in range(1, 4):
        c = cards[i]
        if c[1] == suit and RANK[c] > RANK[cards[best]]:
            best = i
    return (leader + best) % 4


def legal(hand: list[str], trick: list[str], restricted: set[str], led: set[str]) -> list[str]:
    """A seat's legal cards: follow suit; an exposed card (``restricted``) neither leads nor
    follows into the first trick of its suit while its holder has another of that suit."""
    if trick:
        suit = trick[0][1]
        follow = [c for c in hand if c[1] == suit]
        if not follow:
            return hand
        if restricted and len(follow) > 1 and suit not in led:
            return [c for c in follow if c not in restricted] or follow
        return follow
    if not restricted:
        return hand
    out = [
        c
        for c in hand
        if not (c in restricted and c[1] not in led and sum(1 for d in hand if d[1] == c[1]) > 1)
    ]
    return out or hand
