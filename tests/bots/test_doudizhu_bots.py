"""Dou Dizhu bots: always legal, reproducible per rng seed, never handed the state."""

from __future__ import annotations

import inspect
import json
import random

import pytest

from games.bots import doudizhu as bots
from games.bots import get_bot
from games.engine import get_game
from games.engine.doudizhu import rules, state
from games.engine.doudizhu.combos import RANK_NAMES, rank_index

game = get_game("doudizhu")
LEVELS = ("easy", "normal", "hard")


def _bot(level):
    return get_bot("doudizhu", level, samples=3) if level == "hard" else get_bot("doudizhu", level)


def _plain(obs):
    """The observation as it would travel: plain JSON, nothing of the engine reachable."""
    return json.loads(json.dumps(obs))


def _play(levels, seed, rng):
    players = [_bot(level) for level in levels]
    st = game.new_match(seed=seed, seats=3, options={"hands": 1})
    while not game.hand_over(st):
        seat = game.to_move(st)[0]
        legal = game.legal_actions(st, seat)
        action = players[seat].act(_plain(game.observation(st, seat)), _plain(legal), rng)
        assert action in legal, (levels[seat], action)
        st = game.apply(st, seat, action)
    return st


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_actions(level):
    rng = random.Random(3)
    others = {"easy": "normal", "normal": "easy", "hard": "normal"}[level]
    for seed in range(4 if level == "hard" else 12):
        seats = [others] * 3
        seats[seed % 3] = level
        st = _play(seats, seed, rng)
        assert sum(game.hand_result(st)["scores"]) == 0


def test_the_levels_play_each_other_through_whole_matches():
    rng = random.Random(9)
    for seed in range(3):
        _play(["easy", "normal", "hard"], seed, rng)


@pytest.mark.parametrize("level", LEVELS)
def test_same_rng_seed_same_choice(level):
    rng = random.Random(0)
    st = game.new_match(seed=21, seats=3)
    positions = []
    while not game.hand_over(st) and len(positions) < 40:
        seat = game.to_move(st)[0]
        legal = game.legal_actions(st, seat)
        positions.append((game.observation(st, seat), legal))
        st = game.apply(st, seat, _bot("normal").act(game.observation(st, seat), legal, rng))
    for obs, legal in positions[::3]:
        a = _bot(level).act(_plain(obs), _plain(legal), random.Random(42))
        b = _bot(level).act(_plain(obs), _plain(legal), random.Random(42))
        assert a == b


def test_bots_are_never_handed_the_state():
    for cls in bots.BOTS.values():
        params = list(inspect.signature(cls.act).parameters)
        assert params == ["self", "observation", "legal_actions", "rng"]
    source = inspect.getsource(bots)
    assert "doudizhu.state" not in source and "doudizhu.rules" not in source
    assert "import django" not in source


def _table(hands, landlord, turn, plays=()):
    st = rules.new_match_fixed(1, landlord, 1)
    st.hands = [state.sort_cards(h.split()) for h in hands]
    st.turn = turn
    for seat, cards in plays:
        st = game.apply(st, seat, {"type": "play", "cards": cards.split()})
    return st


def test_normal_goes_out_when_it_can():
    st = _table(["3S 4S 5S 6S 7S", "9S 9H KD", "TS JS"], landlord=0, turn=0)
    action = bots.hint(game.observation(st, 0), game.legal_actions(st, 0))
    assert sorted(action["cards"]) == sorted(["3S", "4S", "5S", "6S", "7S"])


def test_normal_does_not_overtake_its_partner():
    # seats 1 and 2 are peasants; seat 1 leads a 9 and seat 2, next, could beat it
    st = _table(["3S 3H 3D 4S 5S 6S 8C", "9S KH KD", "TS JS QS AS 2C"], landlord=0, turn=1)
    st = game.apply(st, 1, {"type": "play", "cards": ["9S"]})
    obs = game.observation(st, 2)
    assert bots.hint(obs, game.legal_actions(st, 2)) == {"type": "pass"}


def test_normal_bombs_to_stop_a_landlord_about_to_go_out():
    st = _table(["KS KH 3C", "5S 5H 5D 5C 4D 7C 8C 9C", "6S 7S 8S 9D"], landlord=0, turn=0)
    st = game.apply(st, 0, {"type": "play", "cards": ["KS", "KH"]})
    action = bots.hint(game.observation(st, 1), game.legal_actions(st, 1))
    assert action["type"] == "play" and action["combo"]["kind"] == "bomb"


def test_normal_keeps_its_bomb_over_a_small_lead_early():
    st = _table(
        ["3C 4C 6C 7C 9D TD JD QD KD AD 2D", "5S 5H 5D 5C 4D 8C 9C JC QC KC AC", "6S 7S 8S 9S"],
        landlord=0,
        turn=0,
    )
    st = game.apply(st, 0, {"type": "play", "cards": ["3C"]})
    action = bots.hint(game.observation(st, 1), game.legal_actions(st, 1))
    assert action.get("combo", {}).get("kind") != "bomb"


def _first_bid(hand: list[str]) -> dict:
    """Seat 1's observation when it bids first, holding ``hand`` (17 cards)."""
    unseen = {name: 1 if name in ("BJ", "RJ") else 4 for name in RANK_NAMES}
    for card in hand:
        unseen[RANK_NAMES[rank_index(card)]] -= 1
    return {
        **game.observation(game.new_match(seed=0, seats=3), 1),
        "hand": hand,
        "unseen": unseen,
    }


def test_bids_follow_hand_strength():
    strong = [
        "3S",
        "4S",
        "5S",
        "6S",
        "7S",
        "8S",
        "9S",
        "2S",
        "2H",
        "2D",
        "2C",
        "BJ",
        "RJ",
        "AS",
        "AH",
        "KS",
        "KH",
    ]
    weak = [
        "3S",
        "3H",
        "4S",
        "5D",
        "6C",
        "7S",
        "8H",
        "9D",
        "TS",
        "JD",
        "QC",
        "4H",
        "5S",
        "6D",
        "8C",
        "9S",
        "TC",
    ]
    legal = [{"type": "bid", "value": v} for v in range(4)]
    for level in LEVELS:
        assert _bot(level).act(_first_bid(strong), legal, random.Random(1))["value"] == 3
    # By the rule of thumb (no 2, joker or bomb) this hand is weak; Hard weighs its bids by
    # playouts instead, where its ten-card chain makes a landlord (a hand of low cards that
    # truly is weak: tests/bots/test_doudizhu_bids.py). Its rule of thumb is bolder.
    for bot in (_bot("easy"), _bot("normal"), bots.HardBot(bid_samples=0)):
        assert bot.act(_first_bid(weak), legal, random.Random(1))["value"] <= (
            1 if isinstance(bot, bots.HardBot) else 0
        )
    assert bots.hint({"hand": strong, "seat": 1}, legal) == {"type": "bid", "value": 3}
    higher = [{"type": "bid", "value": 0}, {"type": "bid", "value": 3}]
    assert bots.hint({"hand": strong, "seat": 1}, higher) == {"type": "bid", "value": 3}


def test_hint_is_normals_choice():
    rng = random.Random(4)
    st = game.new_match(seed=4, seats=3)
    normal = _bot("normal")
    for _ in range(30):
        if game.hand_over(st):
            break
        seat = game.to_move(st)[0]
        obs, legal = game.observation(st, seat), game.legal_actions(st, seat)
        assert bots.hint(obs, legal) == normal.act(obs, legal, random.Random(0))
        st = game.apply(st, seat, rng.choice(legal))


def hard_beside_plain(hard, plain) -> list[tuple[list[float], list[float]]]:
    """``hard`` plays seat 0 of a hand against Normal: each choice legal and the same again for
    the same rng seed. Where it weighs several plays, its totals and ``plain``'s over the same
    deals, a pair per decision."""
    rng = random.Random(5)
    normal = _bot("normal")
    st = game.new_match(seed=8, seats=3, options={"hands": 1})
    pairs = []
    while not game.hand_over(st):
        seat = game.to_move(st)[0]
        obs, legal = _plain(game.observation(st, seat)), _plain(game.legal_actions(st, seat))
        if seat == 0:
            action = hard.act(obs, legal, random.Random(seat))
            assert action in legal
            assert action == hard.act(obs, legal, random.Random(seat))
            if legal[0]["type"] == "play" and len(legal) > 2:
                view = bots.View(obs, legal)
                moves = hard._shortlist(view)
                pairs.append(
                    (
                        hard._totals(view, moves, random.Random(1), 3),
                        plain._totals(view, moves, random.Random(1), 3),
                    )
                )
        else:
            action = normal.act(obs, legal, rng)
        st = game.apply(st, seat, action)
    return pairs


def test_hard_with_cheap_rollouts_beside_normals_plays_legally_and_repeats():
    """The rollouts option (each sampled deal also played out by the cheap policy): legal
    moves through a whole hand, the same choice for the same rng seed, and a value that is
    not the plain search's (the rollouts are counted)."""
    hard = get_bot("doudizhu", "hard", samples=3, rollouts=2)
    plain = get_bot("doudizhu", "hard", samples=3)
    pairs = hard_beside_plain(hard, plain)
    assert any(with_rollouts != without for with_rollouts, without in pairs)
