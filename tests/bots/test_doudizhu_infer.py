"""Hard's inference of the unseen hands: Normal's policy explains Normal's own play."""

from __future__ import annotations

import json
import random

from games.bots import doudizhu as bots
from games.engine import get_game
from games.engine.doudizhu.combos import counts_of

game = get_game("doudizhu")


def _positions(seed):
    """Every playing position of a hand of Normal against itself, with the true hands."""
    normal = bots.NormalBot()
    st = game.new_match(seed=seed, seats=3, options={"hands": 1})
    out = []
    while not game.hand_over(st):
        seat = game.to_move(st)[0]
        legal = game.legal_actions(st, seat)
        obs = json.loads(json.dumps(game.observation(st, seat)))
        if obs["phase"] == "playing":
            out.append((obs, legal, [counts_of(list(h)) for h in st.hands]))
        st = game.apply(st, seat, normal.act(obs, legal, random.Random(0)))
    return out


def test_the_true_deal_is_no_surprise_among_normal_players():
    for seed in range(3):
        for obs, legal, hands in _positions(seed):
            view = bots.View(obs, legal)
            assert bots.surprise(view, hands, bots._history(view), 0) == 0


def test_inferred_deals_fit_the_card_counts():
    for obs, legal, _hands in _positions(5)[::4]:
        view = bots.View(obs, legal)
        deals = bots.infer_hands(view, random.Random(1), 3, 9, 6)
        assert len(deals) == 3
        for hands in deals:
            assert [sum(h) for h in hands] == list(view.counts)
            assert hands[view.seat] == list(view.hand)
            for r in range(len(view.unseen)):
                others = sum(hands[s][r] for s in range(3) if s != view.seat)
                assert others == view.unseen[r] + _kitty_left(obs, view, r)


def _kitty_left(obs, view, r):
    if view.landlord is None or view.landlord == view.seat or not obs.get("kitty"):
        return 0
    played = {c for p in obs["plays"] if p["cards"] for c in p["cards"]}
    return sum(1 for c in obs["kitty"] if c not in played and counts_of([c])[r])


def test_hard_with_inference_repeats_its_choice():
    bot = bots.HardBot(samples=3, pool=3, recent=6)
    for obs, legal, _hands in _positions(7)[::3]:
        a = bot.act(obs, legal, random.Random(42))
        b = bot.act(obs, legal, random.Random(42))
        assert a == b and a in legal
