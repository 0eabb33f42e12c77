"""Gong Zhu's Hard with its ``plays`` budget: it runs, repeats its move for the same
observation and rng seed, plays a legal card and samples more deals late in the hand."""

from __future__ import annotations

import random

import pytest

from games.bots import get_bot
from games.bots.gongzhu import hint
from games.bots.gongzhu_hard import HardBot
from games.engine import get_game

game = get_game("gongzhu")

OPTIONS = [{"plays": 4000}]


def positions(seed: int, every: int = 5) -> list[tuple[dict, list[dict]]]:
    """Every ``every``-th play decision of a hand that Normal plays, with at least two cards."""
    state = game.new_match(seed=seed, seats=4)
    found = []
    count = 0
    while not game.hand_over(state):
        seat = game.to_move(state)[0]
        obs, legal = game.observation(state, seat), game.legal_actions(state, seat)
        if legal[0]["type"] == "play" and len(legal) > 1:
            count += 1
            if count % every == 0:
                found.append((obs, legal))
        state = game.apply(state, seat, hint(obs, legal))
    return found


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
