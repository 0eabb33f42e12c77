"""Dou Dizhu's endgame solver (games/bots/doudizhu_endgame.py) and Hard's use of it."""

from __future__ import annotations

import gc
import json
import random

import pytest

from games.bots import doudizhu as bots
from games.bots.doudizhu_endgame import Endgame
from games.engine import get_game
from games.engine.doudizhu.combos import counts_of, follows, leads, move_key

GAME = get_game("doudizhu")


def endgames(count: int, cards: int, seed: int) -> list[tuple]:
    """Positions of hands played by Normal until at most ``cards`` are left in the three
    hands: (hands as rank counts, seat to play, landlord, the play to beat or None)."""
    rng = random.Random(seed)
    normal = bots.NormalBot()
    out = []
    while len(out) < count:
        state = GAME.new_match(seed=rng.randrange(2**31), seats=3)
        while not GAME.hand_over(state):
            seat = GAME.to_move(state)[0]
            legal = GAME.legal_actions(state, seat)
            state = GAME.apply(state, seat, normal.act(GAME.observation(state, seat), legal, rng))
            data = GAME.to_json(state)
            if data["phase"] != "playing" or GAME.hand_over(state):
                continue
            if sum(map(len, data["hands"])) <= cards:
                table = None
                if data["table"] and data["table"][0] is not None:
                    owner, _cards, (kind, low, length, ranks) = data["table"]
                    table = (owner, move_key((kind, low, length, tuple(ranks))))
                hands = [counts_of(h) for h in data["hands"]]
                out.append((hands, data["turn"], data["landlord"], table))
                break
    return out


def plain_minimax(hands, turn, landlord, table) -> bool:
    """The same question asked the slow way: every play tried, nothing remembered."""
    if table is not None and table[0] == turn:
        table = None
    hand = hands[turn]
    outcomes = []
    for move in leads(hand) if table is None else follows(hand, table[1]):
        if len(move[3]) == sum(hand):
            outcomes.append(turn == landlord)
            continue
        after = [list(h) for h in hands]
        for r in move[3]:
            after[turn][r] -= 1
        outcomes.append(plain_minimax(after, (turn + 1) % 3, landlord, (turn, move_key(move))))
    if table is not None:
        outcomes.append(plain_minimax(hands, (turn + 1) % 3, landlord, table))
    return any(outcomes) if turn == landlord else all(outcomes)


def test_the_solver_answers_as_a_plain_search_of_every_play():
    positions = endgames(40, 9, seed=3)
    answers = []
    for hands, turn, landlord, table in positions:
        solved = Endgame(cards=9, nodes=10**6).landlord_wins(hands, turn, landlord, table)
        assert solved is plain_minimax(hands, turn, landlord, table)
        answers.append(solved)
    assert True in answers and False in answers


def test_a_solver_shared_by_many_positions_gives_the_same_answers():
    positions = endgames(30, 12, seed=5)
    shared = Endgame(cards=12, nodes=10**6)
    for hands, turn, landlord, table in positions:
        alone = Endgame(cards=12, nodes=10**6).landlord_wins(hands, turn, landlord, table)
        assert shared.landlord_wins(hands, turn, landlord, table) is alone


def test_the_positions_remembered_leave_nothing_for_the_garbage_collector_to_walk():
    # Kept as tuples, a decision's hundred thousand positions made every full collection
    # walk them all: a sixth of Hard's time, its slowest decisions over a second.
    positions = endgames(40, 16, seed=9)
    for position in positions:  # the engine's own caches of plays filled first
        Endgame(cards=16, nodes=10**6).landlord_wins(*position)
    solver = Endgame(cards=16, nodes=10**6)
    gc.collect()
    before = len(gc.get_objects())
    for position in positions:
        solver.landlord_wins(*position)
    assert len(solver.known) > 1000
    assert len(gc.get_objects()) - before < 100


def test_the_solver_finds_the_win_that_needs_the_big_card_kept():
    # Landlord (seat 0) to lead with a 2 and a 3; a peasant holds an ace and a 4. Leading the
    # 2 first and then the 3 wins; leading the 3 lets the ace through and the 4 goes out.
    hands = [counts_of(["2S", "3S"]), counts_of(["AS", "4S"]), counts_of(["5S", "6S", "7H"])]
    assert Endgame(cards=10, nodes=1000).landlord_wins(hands, 0, 0, None) is True
    # The peasant to lead instead: whatever it leads, the landlord's 2 takes the trick and
    # its 3 goes out.
    assert Endgame(cards=10, nodes=1000).landlord_wins(hands, 1, 0, None) is True
    # A peasant's 2 beats any single the landlord leads and goes out.
    lost = [counts_of(["3S", "4H"]), counts_of(["2S"]), counts_of(["5S", "6S"])]
    assert Endgame(cards=10, nodes=1000).landlord_wins(lost, 0, 0, None) is False


def test_the_solver_gives_up_past_its_count_of_positions_or_cards():
    hands, turn, landlord, table = max(endgames(20, 16, seed=8), key=lambda p: sum(map(sum, p[0])))
    assert Endgame(cards=16, nodes=1).landlord_wins(hands, turn, landlord, table) is None
    assert Endgame(cards=3, nodes=10**6).landlord_wins(hands, turn, landlord, table) is None


def test_hard_with_the_endgame_solver_repeats_its_choice_and_plays_legally():
    rng = random.Random(11)
    hard = bots.HardBot(samples=6, endgame=14)
    state = GAME.new_match(seed=4, seats=3)
    decisions = 0
    while not GAME.hand_over(state):
        seat = GAME.to_move(state)[0]
        legal = GAME.legal_actions(state, seat)
        obs = json.loads(json.dumps(GAME.observation(state, seat)))
        seed = rng.randrange(2**31)
        action = hard.act(obs, legal, random.Random(seed))
        assert action == hard.act(obs, legal, random.Random(seed))
        decisions += 1
        state = GAME.apply(state, seat, action)
    assert decisions > 10


@pytest.mark.parametrize("seat_is_landlord", [True, False])
def test_a_playout_ends_by_the_solver_with_the_points_of_the_side_that_wins(seat_is_landlord):
    # Landlord 0 to lead a 2 then a 3: it wins; points for seat 0 (2 x 2**bombs) or seat 1.
    hands = [counts_of(["2S", "3S"]), counts_of(["AS", "4S"]), counts_of(["5S", "6S", "7H"])]
    seat = 0 if seat_is_landlord else 1
    points = bots._play_on(
        hands,
        seat,
        0,
        2,
        None,
        (1, ("solo", 0, 1, 1)),
        1,
        1,
        random.Random(1),
        True,
        Endgame(cards=10, nodes=1000),
    )
    assert points == (4 if seat_is_landlord else -2)
