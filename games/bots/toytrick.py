"""Toy Trick's computer players (a game for the tests only): Easy plays at random, Normal
(also the player's Hint) wins a trick as cheaply as it can and otherwise throws its lowest
card, Hard plays each candidate out against the opponent's possible hands.

Each sees its seat's observation, the legal actions and a ``random.Random``, never the state.
"""

from __future__ import annotations

import random
from itertools import combinations

from games.engine.toytrick.rules import DECK, RANK, SEATS

# Deals Hard plays each card out on (the review's budget comes from the manifest).
DEFAULT_SAMPLES = 24


def _lowest(cards: list[str]) -> str:
    return min(cards, key=lambda c: (RANK[c], c))


def _highest(cards: list[str]) -> str:
    return max(cards, key=lambda c: (RANK[c], c))


def _led(observation: dict) -> str | None:
    plays = (observation.get("trick") or {}).get("plays") or []
    return plays[0]["card"] if plays else None


class EasyBot:
    def __init__(self, **options):
        pass

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        return rng.choice(legal_actions)


class NormalBot:
    """Leads its highest card; follows with the lowest card that wins, else its lowest."""

    def __init__(self, **options):
        pass

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        cards = [a["card"] for a in legal_actions]
        led = _led(observation)
        if led is None:
            card = _highest(cards)
        else:
            winning = [c for c in cards if c[1] == led[1] and RANK[c] > RANK[led]]
            card = _lowest(winning) if winning else _lowest(cards)
        return {"type": "play", "card": card}


def _value(hands: list[list[str]], trick: list[str], leader: int, tricks_left: int, me: int):
    """The tricks ``me`` takes from here with both seats playing their best, all cards seen.
    ``trick``: the cards of the current trick from ``leader``; ``tricks_left`` counts it."""
    if tricks_left == 0:
        return 0
    seat = (leader + len(trick)) % SEATS
    hand = hands[seat]
    follow = [c for c in hand if trick and c[1] == trick[0][1]]
    best = None
    for card in follow or hand:
        rest = [c for c in hand if c != card]
        now = [*hands]
        now[seat] = rest
        played = [*trick, card]
        if len(played) < SEATS:
            value = _value(now, played, leader, tricks_left, me)
        else:
            first = played[0]
            win = 1 if played[1][1] == first[1] and RANK[played[1]] > RANK[first] else 0
            taker = (leader + win) % SEATS
            value = (taker == me) + _value(now, [], (leader + 1) % SEATS, tricks_left - 1, me)
        if best is None or (value > best if seat == me else value < best):
            best = value
    return best


class HardBot:
    """For each candidate card, the tricks it brings on average over the opponent's possible
    hands (the unseen cards, less the suits it has shown it lacks), both playing their best."""

    def __init__(self, samples: int = DEFAULT_SAMPLES, **options):
        self.samples = samples

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        if len(legal_actions) == 1:
            return legal_actions[0]
        values = self.evaluate(observation, legal_actions, rng)
        return legal_actions[max(range(len(values)), key=lambda i: (values[i], -i))]

    def shortlist(self, observation: dict, legal_actions: list[dict]) -> list[dict] | None:
        """Every legal card, or None where there is nothing to choose."""
        return list(legal_actions) if len(legal_actions) > 1 else None

    def evaluate(
        self, observation: dict, actions: list[dict], rng: random.Random, samples: int | None = None
    ) -> list[float]:
        """Each action's expected tricks for this seat in the rest of the hand."""
        me = observation["seat"]
        other = 1 - me
        hand = list(observation["hand"])
        seen = set(hand)
        for t in [*(observation.get("tricks") or []), observation.get("trick") or {}]:
            seen.update(p["card"] for p in t.get("plays") or [])
        lacks = set((observation.get("voids") or [[], []])[other])
        unseen = [c for c in DECK if c not in seen and c[1] not in lacks]
        size = observation["hand_sizes"][other]
        deals = [list(d) for d in combinations(unseen, size)]
        count = samples or self.samples
        if len(deals) > count:
            deals = rng.sample(deals, count)
        trick = observation.get("trick") or {"plays": [], "leader": me}
        played = [p["card"] for p in trick["plays"]]
        leader = trick["leader"]
        left = len(hand)  # the tricks still to play, this one counted
        values = []
        for action in actions:
            card = action["card"]
            total = 0
            for theirs in deals:
                hands = [[], []]
                hands[me] = [c for c in hand if c != card]
                hands[other] = theirs
                now = [*played, card]
                if len(now) < SEATS:
                    total += _value(hands, now, leader, left, me)
                else:
                    win = 1 if now[1][1] == now[0][1] and RANK[now[1]] > RANK[now[0]] else 0
                    taker = (leader + win) % SEATS
                    total += (taker == me) + _value(hands, [], (leader + 1) % SEATS, left - 1, me)
            values.append(total / max(1, len(deals)))
        return values


BOTS = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}


def hint(observation: dict, legal: list[dict]) -> dict:
    """The player's Hint: Normal's choice (deterministic: Normal draws no number)."""
    return NormalBot().act(observation, legal, random.Random(0))
