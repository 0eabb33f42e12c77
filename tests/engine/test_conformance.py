"""The contract's promises, checked over every registered game by random playouts.

Each game adds its own rule tests beside this file; this suite is what every game must pass.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import IllegalAction, game_names, get_game

GAMES = game_names(unlisted=True)


def _configs():
    for name in GAMES:
        game = get_game(name)
        for seats in game.seat_counts:
            yield pytest.param(name, seats, id=f"{name}-{seats}")


def _play_hand(game, state, rng, *, on_step=None, max_steps=5000):
    steps = 0
    while not game.hand_over(state):
        movers = game.to_move(state)
        assert movers, "nobody to move in a hand that is not over"
        seat = movers[rng.randrange(len(movers))]
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} must move but has no legal action"
        action = rng.choice(legal)
        state = game.apply(state, seat, action)
        if on_step:
            on_step(state, seat, action)
        steps += 1
        assert steps < max_steps
    return state


def test_registry_names():
    for name in GAMES:
        game = get_game(name)
        assert game.name == name
        assert game.seat_counts
    with pytest.raises(KeyError):
        get_game("skat")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seats"), list(_configs()))
def test_random_hands_json_round_trip_every_step(name, seats):
    game = get_game(name)
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_match(seed=seed, seats=seats)

        def check(state, seat, action):
            data = game.to_json(state)
            text = json.dumps(data)
            again = game.from_json(json.loads(text))
            assert game.to_json(again) == data
            for s in range(seats):
                obs = game.observation(state, s)
                json.dumps(obs)
                assert "hand" in obs
            json.dumps(game.public_view(state))

        state = _play_hand(game, state, rng, on_step=check)
        result = game.hand_result(state)
        assert len(result["scores"]) == seats
        assert len(result["breakdown"]) == seats
        json.dumps(result)
        assert len(game.totals(state)) == seats


@pytest.mark.parametrize(("name", "seats"), list(_configs()))
def test_determinism_and_no_global_random(name, seats):
    """Same seed and actions give the same match, whatever the global generator does."""
    game = get_game(name)

    def run(disturb: bool):
        rng = random.Random(99)
        state = game.new_match(seed=12345, seats=seats)
        trail = [game.to_json(state)]
        for _ in range(2):

            def step(state, seat, action):
                if disturb:
                    # Move the global generator on; a game that used it would now diverge.
                    random.seed(len(trail))
                    random.random()
                trail.append(game.to_json(state))

            state = _play_hand(game, state, rng, on_step=step)
            trail.append(game.hand_result(state))
            if game.match_over(state):
                break
            state = game.next_hand(state)
            trail.append(game.to_json(state))
        return trail

    assert run(False) == run(True)


@pytest.mark.parametrize(("name", "seats"), list(_configs()))
def test_apply_leaves_input_unchanged_and_illegal_changes_nothing(name, seats):
    game = get_game(name)
    rng = random.Random(7)
    state = game.new_match(seed=7, seats=seats)
    for _ in range(60):
        if game.hand_over(state):
            break
        before = copy.deepcopy(game.to_json(state))
        movers = game.to_move(state)
        idle = [s for s in range(seats) if s not in movers]
        if idle:
            with pytest.raises(IllegalAction) as exc:
                game.apply(state, idle[0], game.legal_actions(state, movers[0])[0])
            assert exc.value.code == "not_your_turn"
        seat = movers[0]
        for bad in ({}, {"type": "nonsense"}, "play", None):
            with pytest.raises(IllegalAction) as exc:
                game.apply(state, seat, bad)
            assert exc.value.code == "malformed"
            assert str(exc.value)
        assert game.to_json(state) == before
        action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        assert game.to_json(state) == before, "apply changed the state passed in"
        state = game.apply(state, seat, action)


@pytest.mark.parametrize(("name", "seats"), list(_configs()))
def test_hand_result_before_end_and_next_hand(name, seats):
    game = get_game(name)
    state = game.new_match(seed=3, seats=seats)
    with pytest.raises(IllegalAction) as exc:
        game.hand_result(state)
    assert exc.value.code == "hand_not_over"
    state = _play_hand(game, state, random.Random(3))
    scores = game.hand_result(state)["scores"]
    assert game.totals(state) == scores
    if not game.match_over(state):
        nxt = game.next_hand(state)
        assert not game.hand_over(nxt)
        assert game.totals(nxt) == scores


@pytest.mark.parametrize("name", GAMES)
def test_the_game_record_matches_the_game(name):
    game = get_game(name)
    info = game.info
    assert info.name == game.name == name
    assert tuple(info.seat_counts) == tuple(game.seat_counts)
    assert info.deal_word in ("hand", "round")
    # Every offered option value starts a match; anything else is refused.
    for seats in info.seat_counts:
        game.new_match(seed=1, seats=seats, options=dict(info.default_options) or None)
    for key, values in info.options.items():
        for value in values:
            game.new_match(
                seed=1, seats=info.default_seats, options={**info.default_options, key: value}
            )
        with pytest.raises((ValueError, TypeError)):
            game.new_match(seed=1, seats=info.default_seats, options={key: "no such value"})


@pytest.mark.parametrize(("name", "seats"), list(_configs()))
def test_the_deal_record_holds_every_card_once(name, seats):
    game = get_game(name)
    state = game.new_match(seed=11, seats=seats)
    dealt = game.dealt(state)
    hands = dealt["hands"]
    assert len(hands) == seats
    for seat in range(seats):
        assert sorted(hands[seat]) == sorted(game.observation(state, seat)["hand"])
    cards = [c for h in hands for c in h] + [c for k, v in dealt.items() if k != "hands" for c in v]
    assert len(cards) == len(set(cards))
    json.dumps(dealt)


@pytest.mark.parametrize(("name", "seats"), list(_configs()))
def test_a_recorded_deal_starts_a_match_that_plays_as_the_original(name, seats):
    """``new_match_from_deal``: the recorded deal (and dealer) of any hand starts a new match
    whose first hand is that hand: the same seats to move, legal actions, views and result
    for the same actions (with the same seed also any deal thrown in), without the original's
    seed otherwise."""
    game = get_game(name)
    for seed in (3, 19, 2024):
        original = game.new_match(seed=seed, seats=seats)
        if seed == 19:  # a later hand too: its deal and dealer start the new match
            original = game.next_hand(_play_hand(game, original, random.Random(seed)))
        deal = game.dealt(original)
        dealer = game.public_view(original).get("dealer", 0)
        again = game.new_match_from_deal(deal, dealer, None, seed=seed)
        assert game.dealt(again) == deal
        rng = random.Random(seed * 7)
        steps = 0
        while not game.hand_over(original):
            assert game.to_move(again) == game.to_move(original)
            seat = rng.choice(game.to_move(original))
            legal = game.legal_actions(original, seat)
            assert game.legal_actions(again, seat) == legal
            for s in range(seats):
                mine, theirs = game.observation(again, s), game.observation(original, s)
                for key in ("hand_number", "round", "totals", "scores", "prior_totals", "out"):
                    mine.pop(key, None), theirs.pop(key, None)  # the match's count and totals
                assert mine == theirs
            action = rng.choice(legal)
            original, again = game.apply(original, seat, action), game.apply(again, seat, action)
            steps += 1
            assert steps < 5000
        assert game.hand_over(again)
        assert game.hand_result(again)["scores"] == game.hand_result(original)["scores"]
    # A deal that is not the game's cards once each is refused.
    bad = game.dealt(game.new_match(seed=5, seats=seats))
    bad["hands"][0] = bad["hands"][0][:-1] + bad["hands"][1][:1]
    with pytest.raises(ValueError):
        game.new_match_from_deal(bad, 0, None)
