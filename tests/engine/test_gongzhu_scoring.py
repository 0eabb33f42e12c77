"""Every scoring example of the Gong Zhu rule text and the docs/RULINGS.md hand score, as unit tests."""

from __future__ import annotations

import pytest

from games.engine import gongzhu
from games.engine.gongzhu.scoring import HEART_VALUES, breakdown, quick_score

ALL_HEARTS = list(HEART_VALUES)
score = gongzhu.score_hand


# The rule text's examples without exposed cards
@pytest.mark.parametrize(
    ("collected", "expected"),
    [
        (["QS", "AH", "5H"], -160),
        (["TC"], 50),
        (["TC", "2H"], 0),
        (["TC", "JD"], 200),
        (["TC", "JD", "QS"], 0),
        (ALL_HEARTS, 200),
        ([*ALL_HEARTS, "QS"], 300),
        ([*ALL_HEARTS, "QS", "JD", "TC"], 800),
    ],
)
def test_it_scores_the_examples_without_exposure(collected, expected):
    assert score(collected, []) == expected


def test_it_scores_the_examples_with_exposure():
    # "Nachdem das Herz Ass aufgedeckt wurde, ergeben Herz Ass und Herz König -180."
    assert score(["AH", "KH"], ["AH"]) == -180
    # "Nachdem die Kreuz 10 aufgedeckt wurde, ergibt sie zusammen mit dem Schwein -400."
    assert score(["TC", "QS"], ["TC"]) == -400


def test_it_values_the_thirteen_hearts_at_minus_200_or_400_with_ah_exposed():
    assert sum(HEART_VALUES.values()) == -200
    assert sum(score([h], []) for h in ALL_HEARTS) == -200
    assert sum(score([h], ["AH"]) for h in ALL_HEARTS) == -400
    assert [score([h], []) for h in ("AH", "KH", "QH", "JH", "TH", "5H", "4H", "3H", "2H")] == [
        -50,
        -40,
        -30,
        -20,
        -10,
        -10,
        0,
        0,
        0,
    ]


def test_it_doubles_each_exposed_card_for_whoever_takes_it():
    assert score(["QS"], []) == -100
    assert score(["QS"], ["QS"]) == -200
    assert score(["JD"], []) == 100
    assert score(["JD"], ["JD"]) == 200
    assert score(["TC"], ["TC"]) == 100
    assert score(["TC", "JD"], ["TC"]) == 400
    # An exposure only touches its own card.
    assert score(["QS", "JD"], ["AH", "TC"]) == 0
    assert score(["KH"], ["QS", "JD", "TC"]) == -40


def test_it_multiplies_the_transformer_text_examples():
    # "Zusammen mit der Ziege sind es +200, zusammen mit dem Schwein werden aus -100 aber -200."
    assert score(["TC", "JD"], []) == 200
    assert score(["TC", "QS"], []) == -200


def test_it_turns_hearts_and_pig_positive_with_all_hearts_and_exposures():
    assert score(ALL_HEARTS, ["AH"]) == 400
    assert score([*ALL_HEARTS, "QS"], ["QS"]) == 400
    assert score([*ALL_HEARTS, "QS"], ["AH", "QS"]) == 600
    assert score([*ALL_HEARTS, "TC"], []) == 400
    assert score([*ALL_HEARTS, "QS", "JD", "TC"], ["AH", "QS", "JD", "TC"]) == 3200
    # Twelve hearts are no all hearts.
    assert score([*ALL_HEARTS[1:], "QS"], []) == -150 - 100


def test_it_counts_small_hearts_as_point_cards_for_the_transformer():
    assert score(["TC", "4H", "3H"], []) == 0
    assert score(["TC", "4H"], ["TC"]) == 0
    assert score(["TC", "KH", "2H"], ["TC"]) == -160


def test_it_ignores_cards_that_score_nothing():
    assert score(["AS", "2C", "KD", "QS"], []) == -100
    assert score([], []) == 0
    assert score(["2C", "3D"], ["AH", "QS"]) == 0


def test_it_names_every_factor_in_the_breakdown():
    row = breakdown([*ALL_HEARTS, "QS", "JD", "TC", "9S"], [])
    assert row["all_16"] and row["all_hearts"]
    assert (row["hearts"], row["pig"], row["goat"]) == (200, 100, 100)
    assert row["transformer_multiplier"] == 2 and row["transformer"] == 400
    assert row["score"] == 800
    row = breakdown(["TC"], ["TC", "AH"])
    assert row["transformer"] == 100 and row["transformer_multiplier"] == 1
    assert row["exposure_multipliers"] == {"hearts": 2, "pig": 1, "goat": 1, "transformer": 2}
    assert not row["all_16"]


def test_quick_score_agrees_with_score_hand():
    import itertools
    import random

    rng = random.Random(5)
    points = [*ALL_HEARTS, "QS", "JD", "TC"]
    for _ in range(2000):
        taken = rng.sample(points, rng.randrange(len(points) + 1))
        if rng.random() < 0.05:
            taken = [*ALL_HEARTS, *rng.sample(["QS", "JD", "TC"], rng.randrange(4))]
        exposed = [c for c in ("AH", "QS", "JD", "TC") if rng.random() < 0.3]
        assert quick_score(taken, frozenset(exposed)) == score(taken, exposed)
    for subset in itertools.product([0, 1], repeat=4):
        exposed = [c for c, on in zip(("AH", "QS", "JD", "TC"), subset, strict=True) if on]
        assert quick_score(points, frozenset(exposed)) == score(points, exposed)
