"""Toy Trick, the game for the tests only: its rules, its computer players, and that it is
listed nowhere outside the tests (tests/games/test_unlisted_games.py checks every unlisted
game; here, that this one is)."""

from __future__ import annotations

import random

import pytest

from games.bots import get_bot
from games.engine import IllegalAction, get_game
from games.engine.toytrick import INFO
from games.engine.toytrick.rules import trick_winner


@pytest.fixture
def game():
    return get_game("toytrick")


def _play_out(game, state, rng, level="easy"):
    bot = get_bot("toytrick", level)
    while not game.hand_over(state):
        seat = game.to_move(state)[0]
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, bot.act(game.observation(state, seat), legal, rng))
    return state


def test_it_is_for_the_tests_only():
    assert INFO.unlisted


def test_the_leads_alternate_whoever_takes_the_trick(game):
    for seed in range(20):
        state = game.new_match(seed, 2)
        leaders = []
        while not game.hand_over(state):
            view = game.public_view(state)
            if not (view["trick"] or {}).get("plays"):
                leaders.append(view["to_move"])
            seat = game.to_move(state)[0]
            state = game.apply(state, seat, game.legal_actions(state, seat)[0])
        assert leaders == [0, 1, 0]


def test_a_player_must_follow_suit(game):
    for seed in range(50):
        state = game.new_match(seed, 2)
        state = game.apply(state, 0, game.legal_actions(state, 0)[0])
        hand = game.observation(state, 1)["hand"]
        led = game.public_view(state)["trick"]["plays"][0]["card"][1]
        follow = [c for c in hand if c[1] == led]
        off = [c for c in hand if c[1] != led]
        if follow and off:
            with pytest.raises(IllegalAction) as refused:
                game.apply(state, 1, {"type": "play", "card": off[0]})
            assert refused.value.code == "must_follow_suit"
            assert refused.value.params == {"suit": led}
            assert game.observation(state, 1)["unplayable"][off[0]]["code"] == "must_follow_suit"
            return
    pytest.fail("no deal where the follower could refuse to follow")


def test_the_higher_card_of_the_suit_led_takes_the_trick():
    assert trick_winner(0, ("KS", "AS")) == 1
    assert trick_winner(0, ("9S", "AH")) == 0
    assert trick_winner(1, ("TH", "9H")) == 1


def test_a_match_is_three_hands_with_a_winner(game):
    rng = random.Random(5)
    state = game.new_match(5, 2)
    for number in (1, 2, 3):
        assert game.public_view(state)["dealer"] == (number - 1) % 2
        state = _play_out(game, state, rng)
        assert sum(game.hand_result(state)["scores"]) == 3
        if number < 3:
            assert not game.match_over(state)
            state = game.next_hand(state)
    assert game.match_over(state) and sum(game.totals(state)) == 9
    assert game.public_view(state)["winner"] == game.totals(state).index(max(game.totals(state)))


def test_the_other_hand_and_the_stock_stay_hidden(game):
    state = game.new_match(8, 2)
    dealt = game.dealt(state)
    seen = str(game.observation(state, 0))
    assert all(c not in seen for c in [*dealt["hands"][1], *dealt["stock"]])


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_legal_cards(game, level):
    rng = random.Random(level)
    state = game.new_match(3, 2)
    while True:
        state = _play_out(game, state, rng, level)
        if game.match_over(state):
            break
        state = game.next_hand(state)


def test_hard_weighs_every_choice_and_takes_the_trick_it_can(game):
    hard = get_bot("toytrick", "hard")
    # Seat 1 follows a led KS holding AS and 9S: the ace takes the trick at once.
    observation = {
        "seat": 1,
        "hand": ["AS", "9S", "9H"],
        "hand_sizes": [2, 3],
        "trick": {"leader": 0, "plays": [{"seat": 0, "card": "KS"}]},
        "tricks": [],
        "voids": [[], []],
    }
    legal = [{"type": "play", "card": "AS"}, {"type": "play", "card": "9S"}]
    assert hard.shortlist(observation, legal) == legal
    values = hard.evaluate(observation, legal, random.Random(1), samples=30)
    assert values[0] > values[1]
    assert hard.act(observation, legal, random.Random(1)) == legal[0]
    assert hard.shortlist(observation, legal[:1]) is None
