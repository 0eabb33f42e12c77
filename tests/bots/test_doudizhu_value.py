"""Dou Dizhu's learned value (games/bots/doudizhu_value.py), its training
(games/bench/doudizhu_train.py, ``manage.py train``) and Hard's use of it."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from games.bench import doudizhu_train as training
from games.bots import doudizhu as bots
from games.bots import doudizhu_value as value
from games.bots import get_bot
from games.engine.doudizhu.combos import NRANKS
from tests.bots.test_doudizhu_bots import hard_beside_plain


def _hands(rng):
    hands, landlord = training._deal(rng)
    return hands, landlord


def test_a_position_reads_the_same_from_whichever_seat_the_landlord_has():
    """The inputs are the landlord's side's: the same hands turned round the table (the
    landlord, whose turn it is and the play to beat turned with them) are the same inputs,
    each within range and none twice."""
    rng = random.Random(3)
    for _ in range(50):
        hands, landlord = _hands(rng)
        turn = rng.randrange(3)
        table = rng.choice([None, ((landlord + 1) % 3, ("pair", 4, 1, 2))])
        first = value.encode(hands, turn, landlord, table)
        assert len(set(first)) == len(first)
        assert all(0 <= i < value.FEATURES for i in first)
        for k in (1, 2):
            turned = [hands[(s - k) % 3] for s in range(3)]
            moved = None if table is None else ((table[0] + k) % 3, table[1])
            assert value.encode(turned, (turn + k) % 3, (landlord + k) % 3, moved) == first


def test_the_inputs_tell_the_hands_apart():
    """One card more in one hand is another input: the counts are read, not only the totals."""
    rng = random.Random(4)
    hands, landlord = _hands(rng)
    rank = next(r for r in range(NRANKS) if hands[(landlord + 1) % 3][r] == 1)
    other = [list(h) for h in hands]
    other[(landlord + 1) % 3][rank] = 2
    assert value.encode(hands, landlord, landlord, None) != value.encode(
        other, landlord, landlord, None
    )


def test_the_shipped_weights_load_and_give_chances():
    model = value.shipped()
    rng = random.Random(5)
    for _ in range(20):
        hands, landlord = _hands(rng)
        p = model.landlord_wins(hands, landlord, landlord, None)
        assert 0.0 < p < 1.0
    # The landlord with one card left, to lead, wins more often than a landlord who has
    # just been left with twenty against a peasant to lead with one.
    near = [[0] * NRANKS for _ in range(3)]
    near[0][3], near[1][:10], near[2][:10] = 1, [1] * 10, [1] * 10
    far = [[0] * NRANKS for _ in range(3)]
    far[0][:13], far[0][13], far[1][5], far[2][:10] = [1] * 13, 1, 1, [1] * 10
    assert model.landlord_wins(near, 0, 0, None) > model.landlord_wins(far, 1, 0, None)


def test_a_play_that_goes_out_is_worth_its_exact_points():
    obs_hand = [0] * NRANKS
    obs_hand[4] = 2
    hands = [obs_hand, [1] * 13 + [0, 0], [0] * 11 + [1, 1, 1, 1]]
    view = type("V", (), {})()
    view.table_key, view.table_seat, view.seat, view.landlord = None, None, 0, 0
    view.obs = {"passes": 0, "multiplier": {"bombs": 1}}
    move = ("pair", 4, 1, (4, 4))
    assert bots.learned_value(view, hands, move, value.shipped()) == bots._points(True, 0, 0, 1)


def test_the_data_repeats_from_its_seed_and_its_labels_are_playouts():
    first = training.play_games(7, 0, games=6)
    again = training.play_games(7, 0, games=6)
    assert first == again
    rows, labels, games = first
    assert rows and len(rows) == len(labels) == len(games)
    assert {label for pair in labels for label in pair} <= {0, 1}
    assert training.play_games(8, 0, games=6)[0] != rows
    # A row is the position again: its hands, turn, landlord and play to beat.
    for row in rows:
        hands, turn, landlord, table = training.position(row)
        assert training._row(hands, turn, landlord, table) == row
        assert sum(map(sum, hands)) <= 54 and 0 <= turn < 3 and 0 <= landlord < 3


def test_training_predicts_held_out_positions_better_than_a_constant(tmp_path):
    paths = training.make_data(tmp_path, 1, 2)
    assert training.make_data(tmp_path, 1, 2) == paths  # made once: the chunks are kept
    X, Y, games = training.load(paths)
    model, report = training.train(X, Y, games, epochs=4, hidden=16)
    assert report["cheap"] < report["cheap_constant"]
    assert model.w1.shape == (value.FEATURES, 16)


@pytest.mark.django_db
def test_the_train_command_writes_weights_a_bot_can_load(tmp_path):
    from django.core.management import call_command

    out = tmp_path / "weights.json"
    call_command(
        "train", "doudizhu", chunks=1, epochs=1, hidden=8, work=str(tmp_path), out=str(out)
    )
    data = json.loads(out.read_text())
    assert data["trained"]["command"].startswith("manage.py train doudizhu --chunks 1")
    model = value.Value(data)
    hands, landlord = _hands(random.Random(1))
    assert 0.0 < model.landlord_wins(hands, landlord, landlord, None) < 1.0


def test_hard_with_the_learned_value_plays_legally_repeats_and_weighs_it():
    """Hard with the value beside Normal's playout: legal moves through a whole hand, the same
    choice for the same rng seed, and values that are not the plain search's."""
    hard = get_bot("doudizhu", "hard", samples=3, value=0.5)
    plain = get_bot("doudizhu", "hard", samples=3)
    pairs = hard_beside_plain(hard, plain)
    assert any(not np.allclose(weighed, without) for weighed, without in pairs)
