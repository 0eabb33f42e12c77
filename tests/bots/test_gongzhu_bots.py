"""Gong Zhu opponents: always legal, reproducible per rng seed, given only the observation."""

from __future__ import annotations

import ast
import copy
import json
import random
from pathlib import Path

import pytest

from games.bots import get_bot
from games.bots.gongzhu import hint, normal_exposure
from games.engine import get_game
from games.engine.gongzhu.state import PLAY, from_json, to_json

game = get_game("gongzhu")
BOT_FILES = sorted(Path("games/bots").glob("gongzhu*.py"))


def make_bots(levels):
    return [get_bot("gongzhu", lvl, **({"samples": 2} if lvl == "hard" else {})) for lvl in levels]


def play_hand(seed, bots, rng, *, check=None):
    state = game.new_match(seed=seed, seats=4)
    while not game.hand_over(state):
        for seat in game.to_move(state):
            legal = game.legal_actions(state, seat)
            obs = json.loads(json.dumps(game.observation(state, seat)))  # plain data only
            frozen = (copy.deepcopy(obs), copy.deepcopy(legal))
            action = bots[seat].act(obs, legal, rng)
            assert action in legal, (seat, action)
            assert (obs, legal) == frozen, "a bot changed what it was given"
            if check:
                check(state, seat, obs, action)
            state = game.apply(state, seat, action)
    return state


@pytest.mark.slow
def test_every_level_always_plays_legally():
    lineups = [
        ["easy", "normal", "easy", "normal"],
        ["normal", "normal", "normal", "normal"],
        ["random", "easy", "normal", "easy"],
    ]
    for i in range(300):
        play_hand(i, make_bots(lineups[i % 3]), random.Random(i))


@pytest.mark.slow
def test_hard_always_plays_legally_with_a_tiny_budget():
    for i in range(24):
        play_hand(500 + i, make_bots(["hard", "normal", "hard", "easy"]), random.Random(i))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_bot_is_reproducible_per_rng_seed(level):
    def run(seed):
        picks = []

        def record(state, seat, obs, action):
            picks.append(action)

        bots = make_bots([level] * 4)
        play_hand(77, bots, random.Random(seed), check=record)
        return picks

    assert run(3) == run(3)


def test_hard_gives_the_same_move_for_the_same_rng_seed_at_full_budget():
    state = game.new_match(seed=21, seats=4)
    for seat in range(4):
        state = game.apply(state, seat, {"type": "expose", "cards": []})
    seat = game.to_move(state)[0]
    obs, legal = game.observation(state, seat), game.legal_actions(state, seat)
    bot = get_bot("gongzhu", "hard", samples=8)
    assert bot.act(obs, legal, random.Random(5)) == bot.act(obs, legal, random.Random(5))


def test_bots_never_import_django_or_the_engine_state():
    for path in BOT_FILES:
        tree = ast.parse(path.read_text())
        names = [
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        ] + [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        for name in names:
            assert not name.startswith("django"), path
            assert not name.startswith(("games.models", "games.services")), path
            assert not name.startswith(
                ("games.engine.gongzhu.state", "games.engine.gongzhu.rules")
            ), path


def test_the_hint_is_normals_choice_in_both_phases():
    state = game.new_match(seed=9, seats=4)
    normal = get_bot("gongzhu", "normal")
    for seat in range(4):
        obs, legal = game.observation(state, seat), game.legal_actions(state, seat)
        assert hint(obs, legal) == normal.act(obs, legal, random.Random(0))
        assert hint(obs, legal) in legal
        state = game.apply(state, seat, hint(obs, legal))
    while not game.hand_over(state):
        seat = game.to_move(state)[0]
        obs, legal = game.observation(state, seat), game.legal_actions(state, seat)
        assert hint(obs, legal) == normal.act(obs, legal, random.Random(1))
        state = game.apply(state, seat, hint(obs, legal))


def test_normal_exposes_only_when_safe():
    assert normal_exposure(["QS", "2S", "3S", "5S", "9S", "2C"]) == ["QS"]
    assert normal_exposure(["QS", "KS", "2S", "3S", "5S", "9S"]) == []
    assert normal_exposure(["QS", "2S", "3S"]) == []
    assert normal_exposure(["JD", "AD", "KD", "QD"]) == ["JD"]
    assert normal_exposure(["JD", "AD", "3D"]) == []
    assert normal_exposure(["AH", "TC", "2C"]) == []


def _position(hands, trick=(), leader=0, taken=None, exposed=None):
    data = to_json(game.new_match(seed=1, seats=4))
    data.update(
        hands=[list(h) for h in hands],
        phase=PLAY,
        pending=[None] * 4,
        exposed=exposed or [[], [], [], []],
        first_leader=leader,
        leader=leader,
        trick=list(trick),
        tricks=[],
        taken=taken or [[], [], [], []],
        led="",
    )
    return from_json(data)


def normal_card(state):
    seat = game.to_move(state)[0]
    action = hint(game.observation(state, seat), game.legal_actions(state, seat))
    return action["card"]


def test_normal_sheds_the_pig_when_void():
    state = _position(
        [["5C", "2H"], ["8C", "3H"], ["9C", "4H"], ["QS", "KH", "2D"]], trick=["5C", "8C", "9C"]
    )
    assert normal_card(state) == "QS"


def test_normal_drops_the_pig_under_a_higher_spade():
    state = _position([["AS", "2H"], ["QS", "3S", "4H"], ["9C", "4C"], ["2D", "3D"]], trick=["AS"])
    assert normal_card(state) == "QS"


def test_normal_takes_the_goat_when_it_can():
    state = _position(
        [["JD", "2H"], ["3D", "4H"], ["5D", "4C"], ["AD", "2D", "3C"]], trick=["JD", "3D", "5D"]
    )
    assert normal_card(state) == "AD"


def test_normal_ducks_a_heart_trick():
    state = _position([["9H", "2S"], ["KH", "5H", "3H"], ["4C"], ["3D"]], trick=["9H"])
    assert normal_card(state) == "5H"


def test_normal_stops_a_run_at_all_hearts():
    # Seat 2 has taken every heart so far and leads another: seat 3 overtakes it.
    taken = [[], [], ["AH", "KH", "QH"], []]
    hands = [["2S"], ["2C"], ["8H", "2D"], ["5H", "9H", "3C"]]
    state = _position(hands, trick=["8H"], leader=2, taken=taken)
    assert game.observation(state, 3)["all_hearts_threat"] == 2
    assert normal_card(state) == "9H"


def test_hard_infers_a_void_from_an_exposed_card_in_the_first_trick_of_its_suit():
    from games.bots.gongzhu import View

    hands = [["4S", "5C"], ["QS", "2C"], ["7S", "8C"], ["8S", "TD"]]
    state = _position(hands, exposed=[[], ["QS"], [], []])
    state = game.apply(state, 0, {"type": "play", "card": "4S"})
    state = game.apply(state, 1, {"type": "play", "card": "QS"})
    view = View(game.observation(state, 2))
    assert "S" in view.voids[1]
    assert game.observation(state, 2)["voids"][1] == []  # the engine reports shown voids only


def _exposure_observation(hand, seed=1):
    """Seat 0's view of the exposure phase with ``hand``, the other cards dealt at random."""
    from games.engine.cards import STANDARD_DECK

    rest = [c for c in STANDARD_DECK if c not in hand]
    random.Random(seed).shuffle(rest)
    data = to_json(game.new_match(seed=seed, seats=4))
    data["hands"] = [list(hand), rest[:13], rest[13:26], rest[26:]]
    state = from_json(data)
    return game.observation(state, 0), game.legal_actions(state, 0)


@pytest.mark.parametrize("rng_seed", [1, 2])
@pytest.mark.parametrize(
    ("hand", "exposes"),
    [
        # The pig with six low spades to shed it under: exposing doubles the taker's loss.
        (["QS", "2S", "3S", "4S", "5S", "6S", "2D", "3D", "4D", "2C", "3C", "2H", "3H"], ["QS"]),
        # The pig with the ace of spades and no other spade: it is likely to come home.
        (["QS", "AS", "9D", "7D", "5D", "2D", "8C", "6C", "4C", "TH", "7H", "5H", "3H"], []),
        # The goat with the three diamonds above it.
        (["JD", "AD", "KD", "QD", "2C", "3C", "4C", "2H", "3H", "4S", "5S", "6S", "7S"], ["JD"]),
        # The heart ace over three low hearts, low cards elsewhere: the others take the hearts,
        # doubled (Normal's rule never exposes the heart ace).
        (["AH", "2H", "3H", "4H", "2S", "3S", "4S", "2D", "3D", "4D", "2C", "3C", "4C"], ["AH"]),
    ],
)
def test_hard_weighs_its_exposures_by_playing_them_out(hand, exposes, rng_seed):
    obs, legal = _exposure_observation(hand)
    action = get_bot("gongzhu", "hard", exposures="search").act(obs, legal, random.Random(rng_seed))
    assert sorted(action["cards"]) == exposes


def test_the_exposure_search_weighs_every_choice_over_the_same_deals():
    from games.bots.gongzhu_hard import exposure_values

    hand = ["AH", "QS", "TC", "2S", "3S", "4S", "5S", "2D", "3D", "4D", "2C", "3C", "2H"]
    obs, _legal = _exposure_observation(hand)
    values = exposure_values(obs, random.Random(3), 16)
    assert len(values) == 8 and set(values) >= {(), ("AH", "QS", "TC")}
    assert values == exposure_values(obs, random.Random(3), 16)
    assert values != exposure_values(obs, random.Random(4), 16)
