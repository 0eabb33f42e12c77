"""Random playouts and hypothesis properties of the Gong Zhu engine."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, get_game
from games.engine.cards import STANDARD_DECK
from games.engine.gongzhu.state import RANK, from_json, to_json

game = get_game("gongzhu")
DECK = frozenset(STANDARD_DECK)
EXPOSABLE = ("AH", "QS", "JD", "TC")


def _cards_in(value, found):
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        if value in DECK:
            found.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _cards_in(v, found)
    elif isinstance(value, list | tuple):
        for v in value:
            _cards_in(v, found)
    return found


def check_invariants(state):
    data = to_json(state)
    played = [c for _, cards, _ in data["tricks"] for c in cards] + data["trick"]
    held = [c for h in data["hands"] for c in h]
    assert sorted(played + held) == sorted(STANDARD_DECK), "52 cards conserved"
    for leader, cards, winner in data["tricks"]:
        suit = cards[0][1]
        best = max((c for c in cards if c[1] == suit), key=RANK.__getitem__)
        assert winner == (leader + cards.index(best)) % 4
    # JSON round trip at every step.
    again = from_json(json.loads(json.dumps(data)))
    assert to_json(again) == data
    # No observation shows another seat's unplayed, unexposed card.
    revealed = set(played)
    if data["phase"] != "expose":
        revealed |= {c for e in data["exposed"] for c in e}
    for seat in range(4):
        obs = game.observation(state, seat)
        seen = _cards_in(obs, set())
        assert seen <= revealed | set(data["hands"][seat]), seat
    assert _cards_in(game.public_view(state), set()) <= revealed


def check_exposed_restriction(state, seat, card):
    """``card`` was just accepted from ``seat`` in ``state``: it respects RULINGS.md."""
    data = to_json(state)
    if card not in data["exposed"][seat] or card[1] in data["led"]:
        return
    hand = data["hands"][seat]
    trick = data["trick"]
    same_suit = [c for c in hand if c[1] == card[1]]
    if not trick or trick[0][1] == card[1]:
        # Leading its suit, or the first trick its suit is led: only as the last of its suit.
        assert same_suit == [card]


def play_out(seed, choose, *, check=True, disturb=None):
    state = game.new_match(seed=seed, seats=4)
    trail = [to_json(state)]
    while not game.hand_over(state):
        movers = game.to_move(state)
        seat = movers[choose(len(movers))]
        legal = game.legal_actions(state, seat)
        action = legal[choose(len(legal))]
        if check and action["type"] == "play":
            check_exposed_restriction(state, seat, action["card"])
        state = game.apply(state, seat, action)
        if disturb:
            disturb()
        if check:
            check_invariants(state)
        trail.append(to_json(state))
    return state, trail


@pytest.mark.slow
def test_random_playouts_keep_every_promise():
    for seed in range(60):
        rng = random.Random(seed)
        state, _ = play_out(seed, rng.randrange)
        result = game.hand_result(state)
        taken = [c for row in result["breakdown"] for c in row["point_cards"]]
        assert len(taken) == 16
        assert game.totals(state) == result["scores"]


@pytest.mark.slow
def test_random_playouts_with_exposures_exercise_the_restriction():
    """Expose everything exposable so the restriction is met often, and check each play."""
    restricted_seen = 0
    for seed in range(80):
        rng = random.Random(seed)
        state = game.new_match(seed=seed, seats=4)
        for seat in range(4):
            state = game.apply(state, seat, game.legal_actions(state, seat)[-1])
        while not game.hand_over(state):
            seat = game.to_move(state)[0]
            legal = {a["card"] for a in game.legal_actions(state, seat)}
            data = to_json(state)
            unplayable = game.observation(state, seat)["unplayable"]
            assert set(unplayable) == set(data["hands"][seat]) - legal
            for card in data["hands"][seat]:
                if card in legal:
                    continue
                with pytest.raises(IllegalAction) as exc:
                    game.apply(state, seat, {"type": "play", "card": card})
                # The observation told the seat the very refusal the move gets.
                assert unplayable[card] == {"code": exc.value.code, "params": exc.value.params}
                assert exc.value.code in ("must_follow_suit", "exposed_card_first_trick")
                if exc.value.code == "exposed_card_first_trick":
                    restricted_seen += 1
                    assert card in data["exposed"][seat]
                assert to_json(state) == data
            card = rng.choice(sorted(legal))
            check_exposed_restriction(state, seat, card)
            state = game.apply(state, seat, {"type": "play", "card": card})
            check_invariants(state)
    assert restricted_seen > 20


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_hypothesis_hands_keep_every_promise(seed, data):
    def choose(n):
        return data.draw(st.integers(0, n - 1))

    state, _ = play_out(seed, choose)
    assert len(game.hand_result(state)["scores"]) == 4


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 50), min_size=60, max_size=60))
def test_an_illegal_action_leaves_the_state_unchanged(seed, picks):
    state = game.new_match(seed=seed, seats=4)
    for pick in picks:
        if game.hand_over(state):
            break
        seat = game.to_move(state)[0]
        legal = game.legal_actions(state, seat)
        before = to_json(state)
        illegal = (
            [
                {"type": "play", "card": c}
                for c in STANDARD_DECK
                if {"type": "play", "card": c} not in legal
            ]
            + [{"type": "expose", "cards": [c]} for c in EXPOSABLE]
            + [{"type": "pass"}]
        )
        illegal = [a for a in illegal if a not in legal]
        bad = illegal[pick % len(illegal)]
        with pytest.raises(IllegalAction):
            game.apply(state, seat, bad)
        assert to_json(state) == before
        state = game.apply(state, seat, legal[pick % len(legal)])
        assert to_json(state) != before


def test_same_seed_and_actions_give_the_same_match_whatever_the_global_random_does():
    def run(disturb):
        rng = random.Random(4)
        trail = []
        state = game.new_match(seed=77, seats=4)
        for _ in range(3):
            while not game.hand_over(state):
                seat = game.to_move(state)[0]
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
                if disturb:
                    random.seed(len(trail))  # a separate source, so the moves stay the same
                    random.random()
                trail.append(to_json(state))
            trail.append(game.hand_result(state))
            if game.match_over(state):
                break
            state = game.next_hand(state)
        return trail

    assert run(False) == run(True)


def test_the_engine_never_touches_the_global_random(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the engine used the global random generator")

    for name in (
        "random",
        "seed",
        "shuffle",
        "choice",
        "randrange",
        "randint",
        "sample",
        "getrandbits",
        "uniform",
    ):
        monkeypatch.setattr(random, name, forbidden)
    rng = random.Random(3)
    state = game.new_match(seed=3, seats=4)
    for _ in range(2):
        while not game.hand_over(state):
            seat = game.to_move(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            for s in range(4):
                game.observation(state, s)
        game.public_view(state)
        game.hand_result(state)
        if game.match_over(state):
            break
        state = game.next_hand(state)


def test_the_deal_depends_only_on_seed_and_hand_number():
    first = game.new_match(seed=11, seats=4)
    rng = random.Random(1)
    state = first
    while not game.hand_over(state):
        seat = game.to_move(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    second_a = to_json(game.next_hand(state))["hands"]
    rng = random.Random(2)
    state = first
    while not game.hand_over(state):
        seat = game.to_move(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert to_json(game.next_hand(state))["hands"] == second_a
