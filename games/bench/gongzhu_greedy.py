"""Gong Zhu's greedy trick sampler: a benchmark-only opponent, never a level a player chooses.

Rebuilt from the description of the greedy sampler the ScrofaZero authors published (issue
47; our own code): for each card it may play, it deals the unseen cards ``samples`` times (20)
consistently with what its observation tells (Hard's ``fixed_cards`` and ``sample_hands``:
the cards played, the voids shown, the exposed cards still held, the hand sizes), and in
each deal plays out **only the rest of the current trick**, each later seat answering
greedily by the same rule on its sampled hand (``Trick.answer`` in gongzhu_hard.py). A card's value in a deal is the
trick's worth to this seat alone (what taking it changes in its own hand score; in our Gong
Zhu every seat plays for itself) less the seat's ``burden`` after the trick (games/bots/gongzhu_burden.py): high spades
while the pig is out, high diamonds (an asset) while the goat is out, high clubs weighed by
what the transformer's doubling would do to what the seat has taken. Leading in the
hand's first ``EARLY_TRICKS`` tricks it prefers its short suits (``short_suit_bonus``). It
keeps the card with the best mean (ties: the lower card, then the legal order), never
exposes, and draws only from the ``rng`` given: the same observation and seed give the
same card on any machine. ``botmatch`` names it ``greedy`` (games/bench/gongzhu.py).

It falls short of the strength reported for the published bot: against Normal +6.0
[-13.2, +25.1] per hand over 300 deals (``botmatch gongzhu --hero greedy --villain normal
--layout pairs --hands 300``; the published one beats a bot weaker than Normal by about
+58), and Hard beats it by +81.8 [+63.9, +99.8] over 420 deals (``botmatch gongzhu --hero
hard --villain greedy --layout pairs --hands 420``), where Hard and the published bot draw. The burden values
are our guesses; tuning them is the way to a truer yardstick.
"""

from __future__ import annotations

import random

from games.bots.gongzhu import RANK, View, expose_nothing
from games.bots.gongzhu_burden import burden
from games.bots.gongzhu_hard import SEATS, Trick, fixed_cards, sample_hands
from games.engine.gongzhu.scoring import POINT_CARDS

DEFAULT_SAMPLES = 20
EARLY_TRICKS = 4
# Points per card of difference between the average unseen holding of a suit (per other
# seat) and this seat's own, when it leads that suit early.
SHORT_SUIT = 6.0


def short_suit_bonus(view: View, card: str) -> float:
    """A lead's preference for a short suit in the hand's first tricks."""
    if len(view.played) - len(view.trick_cards) >= EARLY_TRICKS * SEATS:
        return 0.0
    suit = card[1]
    average = len(view.outstanding(suit)) / (SEATS - 1)
    mine = sum(1 for c in view.hand if c[1] == suit)
    return SHORT_SUIT * (average - mine)


class GreedyBot:
    """Per legal card, ``samples`` deals of the unseen cards, the current trick finished
    greedily in each, scored by the trick's worth to this seat and its burden after it."""

    def __init__(self, samples: int = DEFAULT_SAMPLES, budget: int | None = None, **options):
        # ``budget`` is the bench harness's generic name for the same count.
        self.samples = max(1, int(budget if budget is not None else samples))

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        if legal_actions[0]["type"] == "expose":
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
        """Per legal card, its mean value over the same sampled deals (the burden alone when
        no deal could be sampled)."""
        view = View(observation)
        me = view.seat
        leader = observation["trick"]["leader"]
        known = fixed_cards(observation, view)
        unplayed = observation.get("exposed_unplayed") or [[]] * SEATS
        cards = [a["card"] for a in legal_actions]
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
            trick = Trick(view, deal, restricted)
            for card in cards:
                done = trick.answer(leader, [*view.trick_cards, card])
                held = [c for c in view.hand if c != card]
                totals[card] += trick.value(me, leader, done, held)
        if not deals:
            taken = [c for c in view.collected[me] if c in POINT_CARDS]
            gone = set(view.played)
            return {
                c: -burden([d for d in view.hand if d != c], gone | {c}, taken, view.exposed)
                for c in cards
            }
        means = {c: total / deals for c, total in totals.items()}
        if not view.plays:
            for c in cards:
                means[c] += short_suit_bonus(view, c)
        return means
