"""Gong Zhu's greedy trick sampler (benchmark only): reproducible per observation and seed,
legal, and its evaluation as the published bot's description has it: the rest of the
trick answered greedily, the trick's worth to its own seat, the burdens."""

from __future__ import annotations

import random

import pytest

from games.bench import harness
from games.bench.gongzhu_greedy import GreedyBot, short_suit_bonus
from games.bots import get_bot
from games.bots.gongzhu import View
from games.bots.gongzhu_burden import Greedy, Weights
from games.engine import get_game
from games.engine.cards import STANDARD_DECK
from tests.bots.test_gongzhu_sampler import play, positions

game = get_game("gongzhu")


def observation(seat, hand, plays, leader, tricks=(), collected=None):
    """A play-phase observation with the fields the bots read."""
    return {
        "seat": seat,
        "hand": list(hand),
        "leader": leader,
        "trick": {"leader": leader, "plays": [{"seat": s, "card": c} for s, c in plays]},
        "tricks": list(tricks),
        "voids": [[], [], [], []],
        "collected": collected or [[], [], [], []],
        "all_exposed": [],
        "exposed": [[], [], [], []],
        "exposed_unplayed": [[], [], [], []],
        "hand_sizes": [len(hand)] * 4,
        "all_hearts_threat": None,
        "dealer": 0,
    }


def test_greedy_is_a_benchmark_player_only():
    with pytest.raises(ValueError):
        get_bot("gongzhu", "greedy")
    assert harness.extra_players("gongzhu")["greedy"] is GreedyBot
    harness.check_spec("gongzhu", "greedy:samples=4")
    assert harness.make_bot("gongzhu", "greedy:samples=4").samples == 4


def test_the_same_observation_and_seed_give_the_same_legal_card():
    checked = 0
    for state, seat in positions(31, expose_all=(1, 2), every=4):
        legal = game.legal_actions(state, seat)
        if len(legal) < 3:
            continue
        obs = game.observation(state, seat)
        first = GreedyBot(samples=4).act(obs, legal, random.Random(8))
        assert first in legal
        assert GreedyBot(samples=4).act(obs, legal, random.Random(8)) == first
        checked += 1
    assert checked >= 5


def test_greedy_plays_whole_hands_legally():
    bot = GreedyBot(samples=3)
    for seed in (2, 3):
        state = game.new_match(seed=seed, seats=4)
        rng = random.Random(seed)
        while not game.hand_over(state):
            for seat in game.to_move(state):
                legal = game.legal_actions(state, seat)
                action = bot.act(game.observation(state, seat), legal, rng)
                assert action in legal
                state = game.apply(state, seat, action)
    assert game.hand_over(play(game.new_match(seed=4, seats=4)))


def last_to_play(first_trick, fourth_holds):
    """The first trick with seats 0 to 2 played and seat 3, holding ``fourth_holds`` too, to
    decide: its observation and legal actions."""
    hands = [[card] for card in first_trick] + [list(fourth_holds)]
    rest = [c for c in STANDARD_DECK if c not in first_trick and c not in fourth_holds]
    for seat in range(4):
        while len(hands[seat]) < 13:
            hands[seat].append(rest.pop())
    state = game.new_match_from_deal({"hands": hands}, dealer=0)
    for seat in range(4):
        state = game.apply(state, seat, {"type": "expose", "cards": []})
    for seat, card in enumerate(first_trick):
        state = game.apply(state, seat, {"type": "play", "card": card})
    return game.observation(state, 3), game.legal_actions(state, 3)


def test_the_last_seat_ducks_the_pig_and_takes_the_goat():
    obs, legal = last_to_play(["5S", "KS", "QS"], ["AS", "2S"])
    assert GreedyBot(samples=3).act(obs, legal, random.Random(1))["card"] != "AS"
    obs, legal = last_to_play(["5D", "KD", "JD"], ["AD", "2D"])
    assert GreedyBot(samples=3).act(obs, legal, random.Random(1))["card"] == "AD"


def test_a_seat_answering_later_drops_the_pig_under_a_higher_spade():
    view = View(observation(0, ["AS", "2C", "3C"], [], leader=0))
    hands = [["AS", "2C", "3C"], ["QS", "4S", "5C"], ["6C", "7C", "8C"], ["9C", "TD", "JH"]]
    greedy = Greedy(view, Weights())
    assert greedy.answer(hands, [set(), set(), set(), set()], 0, ["AS"])[1] == "QS"


def test_reliefs():
    greedy = Greedy(View(observation(0, ["2C"], [], leader=0)), Weights())
    pig_gone = Greedy(View(observation(0, ["2C"], [], leader=0, tricks=[trick("QS")])), Weights())
    # High spades while the pig is out (neither played nor held); no more once it has fallen.
    assert greedy.relief(0, "AS", ["AS"], []) > greedy.relief(0, "5S", ["5S"], []) + 20
    assert greedy.relief(0, "AS", ["AS", "QS"], []) < 20
    assert pig_gone.relief(0, "AS", ["AS"], []) < 20
    # High diamonds are worth keeping while the goat is out.
    assert greedy.relief(0, "AD", ["AD"], []) < 0
    # High clubs weigh by the doubling the transformer threatens: the seat's points so far.
    hurt = Greedy(
        View(observation(0, ["2C"], [], 0, collected=[["AH", "KH"], [], [], []])), Weights()
    )
    assert hurt.relief(0, "AC", ["AC"], []) > greedy.relief(0, "AC", ["AC"], []) + 20
    # The pig and the hearts relieve their holder when another seat takes them.
    assert greedy.dumped("QS") > 0 and greedy.dumped("KH") > greedy.dumped("5H") > 0


def trick(*cards, leader=1):
    """A finished trick led by ``leader`` whose first card is ``cards[0]``."""
    filler = iter(["2D", "3D", "4D"])
    plays = [*cards, *(next(filler) for _ in range(4 - len(cards)))]
    return {
        "leader": leader,
        "plays": [{"seat": (leader + i) % 4, "card": c} for i, c in enumerate(plays)],
    }


def test_taking_the_transformer_early_counts_the_doubling_of_the_points_to_come():
    """Taken alone, the transformer scores +50 at the hand's end only if no other point card
    follows; early in a hand a seat's part of the points to come is negative, and the
    transformer doubles it."""
    greedy = Greedy(View(observation(0, ["AC"], [], leader=0)), Weights())
    assert greedy.worth(0, 0, ["AC", "TC", "2C", "3C"]) < 25


def test_a_void_seat_gives_its_dearest_heart_to_another_seats_trick():
    obs, legal = last_to_play(["5D", "KD", "9D"], ["AH", "2C", "3C"])
    assert GreedyBot(samples=3).act(obs, legal, random.Random(1))["card"] == "AH"


def test_an_early_lead_prefers_a_short_suit():
    hand = ["2C", "3D", "4D", "5D", "6D", "7D"]
    view = View(observation(0, hand, [], leader=0))
    assert short_suit_bonus(view, "2C") > short_suit_bonus(view, "3D")


def test_as_a_partnership_player_it_gives_the_goat_to_its_pair_mate_and_keeps_it_from_the_others():
    """``team=1`` (the published sampler's partnership rules, a benchmark's question): the
    trick's worth to the seat's pair, less its worth to the other pair's seat that takes it.
    Seat 3's pair-mate is seat 1."""
    team = GreedyBot(samples=3, team=1)
    obs, legal = last_to_play(["5D", "KD", "9D"], ["JD", "2D"])  # seat 1 takes it
    assert team.act(obs, legal, random.Random(1))["card"] == "JD"
    obs, legal = last_to_play(["5D", "9D", "KD"], ["JD", "2D"])  # seat 2 takes it
    assert team.act(obs, legal, random.Random(1))["card"] == "2D"
    alone = GreedyBot(samples=3)  # each for itself: the goat is no use to it either way
    assert alone.act(obs, legal, random.Random(1))["card"] == "JD"
