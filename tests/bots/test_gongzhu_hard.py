"""Gong Zhu's Hard with its ``plays`` budget: it runs, repeats its move for the same
observation and rng seed, plays a legal card and samples more deals late in the hand."""

from __future__ import annotations

import random

import pytest

from games.bots import get_bot
from games.bots.gongzhu_hard import HardBot
from games.engine import get_game
from tests.bots.test_gongzhu_sampler import positions as sampler_positions

game = get_game("gongzhu")

OPTIONS = [{"plays": 4000}]


def positions(seed: int, every: int = 5) -> list[tuple[dict, list[dict]]]:
    """Every ``every``-th play decision with at least two cards of a hand Normal plays, as
    (observation, legal actions)."""
    found = []
    for state, seat in sampler_positions(seed):
        legal = game.legal_actions(state, seat)
        if len(legal) > 1:
            found.append((game.observation(state, seat), legal))
    return found[every - 1 :: every]


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_an_option_plays_legally_and_repeats_for_the_same_seed(options):
    bot = get_bot("gongzhu", "hard", samples=6, **options)
    for i, (obs, legal) in enumerate(positions(31)):
        action = bot.act(obs, legal, random.Random(i))
        assert action in legal
        assert action == bot.act(obs, legal, random.Random(i))


def test_the_plays_budget_samples_more_deals_late_in_the_hand_and_never_fewer():
    bot = HardBot(samples=10, plays=5000)
    early, late = positions(32, every=1)[0], positions(32, every=1)[-1]
    early_cards = [a["card"] for a in early[1]]
    late_cards = [a["card"] for a in late[1]]
    assert bot.deals(early[0], early_cards) == 10
    assert 10 < bot.deals(late[0], late_cards) <= 80
