"""Dou Dizhu Hard's bids weighed by playouts (``bid_samples``): the bidding it simulates is the
engine's, with Normal bidding at the other seats; its bids are legal and repeat."""

from __future__ import annotations

import json
import random

import pytest

from games.bots import doudizhu as bots
from games.bots import get_bot
from games.engine import get_game
from games.engine.doudizhu.combos import counts_of

game = get_game("doudizhu")


def _plain(obs):
    return json.loads(json.dumps(obs))


def _bidding_positions(count: int):
    """Bidding positions of real deals: each seat's turn as Normal bids on around it."""
    normal = bots.NormalBot()
    rng = random.Random(5)
    out = []
    for seed in range(count):
        st = game.new_match(seed=seed, seats=3)
        while st.phase == "bidding" and st.redeals == 0:
            (seat,) = game.to_move(st)
            legal = game.legal_actions(st, seat)
            out.append((st, seat, legal))
            st = game.apply(st, seat, normal.act(game.observation(st, seat), legal, rng))
    return out


@pytest.mark.parametrize("bidder", [bots.NormalBot(), bots.NormalBot((3, 5, 7))])
def test_the_simulated_bidding_ends_as_the_engines_does(bidder):
    """On the true hands, every bid leads to the landlord and bid (or the throw-in) that the
    engine gives when the others bid as Normal and this seat, asked again, as ``bidder``."""
    checked = 0
    for st, seat, legal in _bidding_positions(40):
        hands = [counts_of(h) for h in st.hands]
        obs = game.observation(st, seat)
        bids = [(b["seat"], b["value"]) for b in obs["bids"]]
        for action in legal:
            after = game.apply(st, seat, action)
            while after.phase == "bidding" and after.redeals == st.redeals:
                (mover,) = game.to_move(after)
                player = bidder if mover == seat else bots.NormalBot()
                moves = game.legal_actions(after, mover)
                after = game.apply(
                    after, mover, player.act(game.observation(after, mover), moves, None)
                )
            want = None if after.redeals != st.redeals else (after.landlord, after.bid)
            got = bots._auction(bids, obs["bid"], seat, action["value"], hands, bidder)
            assert got == want, (obs["bids"], action)
            checked += 1
    assert checked > 150


def test_weighed_bids_are_legal_and_repeat():
    hard = get_bot("doudizhu", "hard", bid_samples=4)
    for st, seat, legal in _bidding_positions(12)[::2]:
        obs = _plain(game.observation(st, seat))
        a = hard.act(obs, _plain(legal), random.Random(7))
        b = get_bot("doudizhu", "hard", bid_samples=4).act(obs, _plain(legal), random.Random(7))
        assert a in legal and a == b


def test_a_hand_of_low_cards_does_not_bid():
    """Nothing above a nine and no pair in a row: as landlord it loses in almost every deal of
    the rest, so passing is worth the most (a rule of thumb would say the same)."""
    st = game.new_match(seed=3, seats=3)
    (seat,) = game.to_move(st)
    obs = _plain(game.observation(st, seat))
    weak = ["3S", "3H", "4S", "5S", "5H", "6S", "7S", "7H", "8S", "9S", "9H", "3C", "4H"]
    weak += ["6H", "8H", "4C", "6C"]
    rest = [c for c in _deck() if c not in weak]
    obs["hand"] = weak
    obs["unseen"] = _count_names(rest)
    assert sum(obs["unseen"].values()) == 37
    legal = game.legal_actions(st, seat)
    values = bots.bid_values(obs, legal, random.Random(1), 8, bots.NormalBot((3, 5, 7)))
    assert values[0] == max(values) and values[3] < values[1] < 0
    hard = get_bot("doudizhu", "hard", bid_samples=8)
    assert hard.act(obs, legal, random.Random(1)) == {"type": "bid", "value": 0}


def _deck():
    ranks = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2")
    return [r + suit for r in ranks for suit in "SHCD"] + ["BJ", "RJ"]


def _count_names(cards):
    out: dict[str, int] = {}
    for c in cards:
        name = c if c in ("BJ", "RJ") else c[:-1]
        out[name] = out.get(name, 0) + 1
    return out
