"""Gong Zhu's greedy trick sampler: a benchmark-only opponent, never a level a player chooses.

Rebuilt from the description of the greedy sampler the ScrofaZero authors published (issue
47; our own code): for each card it may play, it deals the unseen cards ``samples`` times (20)
consistently with what its observation tells (Hard's ``fixed_cards`` and ``sample_hands``:
the cards played, the voids shown, the exposed cards still held, the hand sizes), and in
each deal plays out **only the rest of the current trick**, each later seat answering
greedily by the same rule on its sampled hand (``Greedy.answer`` in
games/bots/gongzhu_burden.py). A card's value in a deal is the trick's worth to this seat
alone (what taking it changes in its own hand score, no pair-mate's: in our Gong Zhu every
seat plays for itself; taking the transformer also doubles this seat's expected part of the
points still to come) plus the relief of shedding the card (``Weights``): a little by rank,
high spades while the pig is out, high diamonds (kept: a negative relief) while the goat is
out, high clubs by the doubling the transformer threatens (this seat's points so far and its
expected part of those to come), and, given to another seat's trick, the pig and the hearts.
Leading in the hand's first ``EARLY_TRICKS`` tricks it prefers its short suits
(``short_suit_bonus``, proportional to how much shorter the suit is than the average unseen
holding). It keeps the card with the best mean (ties: the lower card, then the legal order),
never exposes (``exposures=normal``: Normal's rule), and draws only from the ``rng`` given:
the same observation and seed give the same card on any machine. ``botmatch`` names it
``greedy`` (games/bench/gongzhu.py); every weight is an option (``greedy:pig=60,short=15``).

The weights were tuned against Normal (``botmatch gongzhu --hero greedy:<weights> --villain
normal --layout pairs --seats 4 --hands 300``, the table in the note on issue 47); the
figures of the defaults are in the note as well.
"""

from __future__ import annotations

import random

from games.bots.gongzhu import View, expose_nothing, hint
from games.bots.gongzhu_burden import RANK, Greedy, Weights
from games.bots.gongzhu_hard import SEATS, fixed_cards, sample_hands

DEFAULT_SAMPLES = 20
# A lead in the hand's first tricks prefers a short suit: per card of difference between the
# average unseen holding of the suit (per other seat) and this seat's own.
EARLY_TRICKS = 3
SHORT_SUIT = 30.0


def short_suit_bonus(
    view: View, card: str, weight: float = SHORT_SUIT, early: int = EARLY_TRICKS
) -> float:
    """A lead's preference for a short suit in the hand's first ``early`` tricks."""
    if view.plays or len(view.played) >= early * SEATS:
        return 0.0
    suit = card[1]
    average = len(view.outstanding(suit)) / (SEATS - 1)
    mine = sum(1 for c in view.hand if c[1] == suit)
    return weight * (average - mine)


class GreedyBot:
    """Per legal card, ``samples`` deals of the unseen cards, the current trick finished
    greedily in each (``Greedy``), scored by the trick's worth to this seat and the relief
    of shedding the card."""

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        budget: int | None = None,
        short: float = SHORT_SUIT,
        early: int = EARLY_TRICKS,
        base: float = 1.0,
        spades: float = 0.5,
        diamonds: float = 2.0,
        clubs: float = 1.0,
        pig: float = 30.0,
        hearts: float = 1.0,
        future: float = 1.0,
        exposures: str = "none",
        **options,
    ):
        # ``budget`` is the bench harness's generic name for the same count.
        self.samples = max(1, int(budget if budget is not None else samples))
        self.short = float(short)
        self.early = int(early)
        if exposures not in ("none", "normal"):
            raise ValueError(f"exposures: none or normal, not {exposures!r}")
        self.exposures = exposures
        self.weights = Weights(base, spades, diamonds, clubs, pig, hearts, future)

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        if legal_actions[0]["type"] == "expose":
            if self.exposures == "normal":
                return hint(observation, legal_actions)
            return expose_nothing(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        means = self.evaluate(observation, legal_actions, rng)
        order = {a["card"]: i for i, a in enumerate(legal_actions)}
        card = max(means, key=lambda c: (means[c], -RANK[c], -order[c]))
        return legal_actions[order[card]]

    def evaluate(
        self, observation: dict, legal_actions: list[dict], rng: random.Random
    ) -> dict[str, float]:
        """Per legal card, its mean value over the same sampled deals (the relief alone when
        no deal could be sampled), with the short-suit bonus on an early lead."""
        view = View(observation)
        me = view.seat
        leader = observation["trick"]["leader"]
        known = fixed_cards(observation, view)
        unplayed = observation.get("exposed_unplayed") or [[]] * SEATS
        greedy = Greedy(view, self.weights)
        trick = list(view.trick_cards)
        cards = [a["card"] for a in legal_actions]
        means = dict.fromkeys(cards, 0.0)
        totals = dict.fromkeys(cards, 0.0)
        deals = 0
        for _ in range(self.samples):
            deal = sample_hands(view, known, rng)
            if deal is None:
                continue
            deals += 1
            restricted = [
                {c for c in unplayed[s] if c in deal[s] and c[1] not in view.led}
                for s in range(SEATS)
            ]
            for card in cards:
                done = greedy.answer(deal, restricted, leader, [*trick, card])
                totals[card] += greedy.value(me, leader, done, card, view.hand, trick)
        for c in cards:
            means[c] = totals[c] / deals if deals else greedy.relief(me, c, view.hand, trick)
        for c in cards:
            means[c] += short_suit_bonus(view, c, self.short, self.early)
        return means
