"""Gong Zhu's determinized sampler: a benchmark-only opponent, never a level a player chooses.

``get_bot`` does not reach it (its levels are easy, normal and hard); the Gong Zhu bench
plug-in (``games/bench/gongzhu.py``) names it ``sampler`` for ``botmatch``.

For each decision it deals the unseen cards ``samples`` times consistently with all that its
observation tells (Hard's ``fixed_cards`` and ``sample_hands``: the cards played, the voids
shown, the exposed cards still held, the hand sizes; and in a hand led by the holder of 2S,
2S with that seat while it is unplayed), rebuilds each deal as an engine state (the hand as
dealt, replayed up to now), and plays every legal card in every deal out to the end of the
hand with Normal for all four seats. It keeps the card with the best mean of its own hand
score as the engine scores it (ties: Normal's own card, then the first legal one). It never
exposes. The budget is a count of deals and the only randomness is the ``rng`` given, so the
same observation and seed give the same card on any machine.
"""

from __future__ import annotations

import random

from games.bots.gongzhu import NormalBot, View, expose_nothing, hint
from games.bots.gongzhu_hard import SEATS, first_leader, fixed_cards, sample_hands
from games.engine import get_game
from games.engine.gongzhu import GongZhuObservation

DEFAULT_SAMPLES = 20


def sample_deals(
    observation: GongZhuObservation, count: int, rng: random.Random
) -> list[list[list[str]]]:
    """Up to ``count`` deals of the cards still held (this seat's own hand included), each
    consistent with the observation; a deal the sampler could not complete is left out."""
    view = View(observation)
    known = fixed_cards(observation, view)
    deals = []
    for _ in range(count):
        deal = sample_hands(view, known, rng)
        if deal is not None:
            deals.append(deal)
    return deals


def position(observation: GongZhuObservation, deal: list[list[str]]):
    """The engine state of ``deal`` at the observed moment: the cards still held plus the cards
    each seat played make the hand as dealt, and the exposures and plays seen are replayed
    (the engine refuses any that the deal would make illegal)."""
    game = get_game("gongzhu")
    plays = [(p["seat"], p["card"]) for t in observation["tricks"] for p in t["plays"]]
    plays += [(p["seat"], p["card"]) for p in observation["trick"]["plays"]]
    dealt = [list(hand) for hand in deal]
    for seat, card in plays:
        dealt[seat].append(card)
    state = game.new_match_from_deal({"hands": dealt}, dealer=first_leader(observation))
    for seat, cards in enumerate(observation["exposed"] or [[]] * SEATS):
        state = game.apply(state, seat, {"type": "expose", "cards": list(cards)})
    for seat, card in plays:
        state = game.apply(state, seat, {"type": "play", "card": card})
    return state


def play_out(state, policy, rng: random.Random) -> list[int]:
    """Every seat plays ``policy`` to the end of the hand; the engine's hand scores."""
    game = get_game("gongzhu")
    while not game.hand_over(state):
        (seat,) = game.to_move(state)
        legal = game.legal_actions(state, seat)
        action = (
            legal[0] if len(legal) == 1 else policy.act(game.observation(state, seat), legal, rng)
        )
        state = game.apply(state, seat, action)
    return game.hand_result(state)["scores"]


class SamplerBot:
    """Flat Monte Carlo over ``samples`` determinized deals, played out by Normal."""

    def __init__(self, samples: int = DEFAULT_SAMPLES, budget: int | None = None, **options):
        # ``budget`` is the bench harness's generic name for the same count.
        self.samples = max(1, int(budget if budget is not None else samples))
        self.policy = NormalBot()

    def act(
        self, observation: GongZhuObservation, legal_actions: list[dict], rng: random.Random
    ) -> dict:
        if legal_actions[0]["type"] == "expose":
            return expose_nothing(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        means = self.evaluate(observation, legal_actions, rng)
        normal = hint(observation, legal_actions)
        if means is None:
            return normal
        return max(legal_actions, key=lambda a: (means[a["card"]], a == normal))

    def evaluate(
        self, observation: GongZhuObservation, legal_actions: list[dict], rng: random.Random
    ) -> dict[str, float] | None:
        """Per legal card, this seat's mean hand score over the same sampled deals; None when
        no deal could be sampled."""
        game = get_game("gongzhu")
        me = observation["seat"]
        cards = [a["card"] for a in legal_actions]
        totals = dict.fromkeys(cards, 0.0)
        deals = sample_deals(observation, self.samples, rng)
        for deal in deals:
            state = position(observation, deal)
            playout_seed = rng.getrandbits(64)
            for card in cards:
                after = game.apply(state, me, {"type": "play", "card": card})
                totals[card] += play_out(after, self.policy, random.Random(playout_seed))[me]
        if not deals:
            return None
        return {c: total / len(deals) for c, total in totals.items()}
