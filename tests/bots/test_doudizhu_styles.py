"""Hard's reading of how the other seats play (``read_styles``): the greedy follower (beats
every play it can with the lowest play of the kind, leads its lowest card) told apart from
Normal's policy by what each seat played this hand, and played as such in the playouts."""

from __future__ import annotations

import json
import random

from games.bots import doudizhu as bots
from games.engine import get_game
from games.engine.doudizhu import rules
from games.engine.doudizhu.combos import NRANKS, counts_of, leads, rank_index

game = get_game("doudizhu")


def _counts(cards: str) -> list[int]:
    return counts_of(cards.split())


def test_the_greedy_follower_beats_with_the_lowest_play_of_the_kind():
    rng = random.Random(0)
    hand = _counts("6S 6H 9S KD")
    hands = [hand, _counts("3S"), _counts("4S")]
    solo_5 = ("solo", rank_index("5S"), 1, (rank_index("5S"),))
    # a six out of its pair: the lowest solo that beats
    move = bots.greedy_move(hands, 0, (1, bots.move_key(solo_5)), 1, rng)
    assert move[:2] == ("solo", rank_index("6S"))
    pair_5 = ("pair", rank_index("5S"), 1, (rank_index("5S"),) * 2)
    assert bots.greedy_move(hands, 0, (1, bots.move_key(pair_5)), 1, rng)[:2] == (
        "pair",
        rank_index("6S"),
    )
    # nothing of the kind: the partner's trick is left alone, an opponent's met at random
    trio_3 = ("trio", 0, 1, (0, 0, 0))
    assert bots.greedy_move(hands, 0, (1, bots.move_key(trio_3)), 2, rng) is None
    bomb = _counts("7S 7H 7D 7C 3S")
    trio_8 = ("trio", rank_index("8S"), 1, (rank_index("8S"),) * 3)  # its sevens cannot
    seen = {
        bots.greedy_move([bomb, hand, hand], 0, (1, bots.move_key(trio_8)), 1, random.Random(i))
        for i in range(40)
    }
    assert seen == {None, ("bomb", rank_index("7S"), 1, (rank_index("7S"),) * 4)}


def test_the_greedy_follower_leads_the_play_that_holds_its_lowest_card():
    cases = {
        "3S 5H 5D 9C": ("solo", "3S"),
        "3S 3H 9C": ("pair", "3S"),
        "3S 3H 3D 9C": ("trio", "3S"),
        "3S 3H 3D 3C 9C": ("bomb", "3S"),
        "3S 4H 5D 6C 7S 7H KD": ("chain", "3S"),
    }
    for cards, (kind, low) in cases.items():
        hand = _counts(cards)
        move = bots._lowest_lead(hand)
        assert move[:2] == (kind, rank_index(low)), cards
        assert move in leads(hand)
    rng = random.Random(3)
    for _ in range(2000):  # every lead it makes is a lead of the engine's
        hand = [0] * NRANKS
        for _ in range(rng.randint(1, 20)):
            r = rng.randrange(NRANKS)
            hand[r] = min(hand[r] + 1, 1 if r >= 13 else 4)
        assert bots._lowest_lead(hand) in leads(hand)


def _greedy_action(st, seat, rng):
    """The greedy follower's play at ``seat`` of an engine state, as a legal action."""
    legal = game.legal_actions(st, seat)
    view = bots.View(game.observation(st, seat), legal)
    hands = [counts_of(list(h)) for h in st.hands]
    table = None if view.table_key is None else (view.table_seat, view.table_key)
    move = bots.greedy_move(hands, seat, table, view.landlord, rng)
    return {"type": "pass"} if move is None else view.moves[move]


def _positions(seed, greedy: set[int], at: int = 0):
    """Every playing position of ``at`` in a hand where the seats in ``greedy`` follow
    greedily and the others play Normal, with the true hands."""
    normal = bots.NormalBot()
    rng = random.Random(seed)
    st = rules.new_match_fixed(seed, landlord=seed % 3, bid=1)
    out = []
    while not game.hand_over(st):
        seat = game.to_move(st)[0]
        legal = game.legal_actions(st, seat)
        obs = json.loads(json.dumps(game.observation(st, seat)))
        if seat == at and len(legal) > 1:
            out.append((obs, legal, [counts_of(list(h)) for h in st.hands]))
        action = _greedy_action(st, seat, rng) if seat in greedy else normal.act(obs, legal, rng)
        st = game.apply(st, seat, action)
    return out


def test_the_true_deal_explains_every_play_of_a_greedy_seat():
    for seed in range(4):
        for obs, legal, hands in _positions(seed, {1}):
            view = bots.View(obs, legal)
            styles = (None, bots.GREEDY, None)
            history = bots._history(view)
            assert bots.surprise(view, hands, history, 0, styles=styles) == 0
            for seat, move, table, now in bots._others_plays(view, hands, history):
                if seat == 1:
                    assert bots._greedy_explains(now[1], table, move) is not False


def _read(seeds, greedy):
    """Per other seat, the share of seat 0's later positions that read it as greedy."""
    read = {1: [], 2: []}
    for seed in seeds:
        for obs, legal, _hands in _positions(seed, greedy)[3:]:
            view = bots.View(obs, legal)
            styles = bots.read_styles(view, random.Random(seed), 8, 12) or (None,) * 3
            for s in read:
                read[s].append(styles[s] == bots.GREEDY)
    return {s: sum(v) / len(v) for s, v in read.items()}


def test_a_greedy_seat_is_read_as_greedy_and_a_normal_seat_as_normal():
    shares = _read(range(12), {1})
    assert shares[1] >= 0.6, shares
    assert shares[2] <= 0.15, shares
    alike = _read(range(12), set())
    assert max(alike.values()) <= 0.15, alike


def test_hard_plays_a_greedy_seat_as_greedy_in_its_playouts():
    """Against a greedy seat, Hard's values are not those of the playouts that play every
    seat as Normal (styles=0); every choice legal and the same again for the same seed."""
    reading = bots.HardBot(samples=4)
    blind = bots.HardBot(samples=4, styles=0)
    differ = 0
    for seed in range(3):
        for obs, legal, _hands in _positions(seed, {1, 2})[4::2]:
            view = bots.View(obs, legal)
            moves = reading._shortlist(view)
            action = reading.act(obs, legal, random.Random(seed))
            assert action in legal and action == reading.act(obs, legal, random.Random(seed))
            if len(moves) > 1:
                a = reading._totals(view, moves, random.Random(1), 4)
                b = blind._totals(view, moves, random.Random(1), 4)
                differ += a != b
    assert differ
