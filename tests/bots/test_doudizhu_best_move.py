"""The playouts' policy, ``best_move``, is Normal's first choice (``rank_moves(view)[0]``)."""

from __future__ import annotations

import random

from games.bots import doudizhu as bots
from games.engine import get_game

game = get_game("doudizhu")


def _seat_views(seed: int):
    """Every seat's view at every step of a hand, as the playouts see it (all hands known):
    the hand played by Easy at one seat, so that bombs, near-out opponents and partners
    holding the table all come up."""
    players = [bots.EasyBot(), bots.NormalBot(), bots.NormalBot()]
    rng = random.Random(seed)
    st = game.new_match(seed=seed, seats=3, options={"hands": 1})
    while not game.hand_over(st):
        (seat,) = game.to_move(st)
        legal = game.legal_actions(st, seat)
        obs = game.observation(st, seat)
        if legal[0]["type"] != "bid":
            hands = [bots.counts_of(h) for h in st.hands]
            view = bots.View(obs, legal)
            table = None if view.table_key is None else (view.table_seat, view.table_key)
            yield bots.SimView(hands, seat, st.landlord, table)
            yield view
        st = game.apply(st, seat, players[seat].act(obs, legal, rng))


def test_best_move_is_normals_first_choice():
    seen = 0
    kinds = set()
    for seed in range(300):
        for view in _seat_views(seed):
            first = bots.rank_moves(view)[0]
            assert bots.best_move(view) == first
            kinds.add("pass" if first is None else first[0])
            seen += 1
    assert seen > 15000 and {"pass", "solo", "pair", "bomb"} <= kinds
