"""Gong Zhu's Hard with its ``plays`` budget: it runs, repeats its move for the same
observation and rng seed, plays a legal card and samples more deals late in the hand."""

from __future__ import annotations

import random

import pytest

from games.bots import get_bot
from games.bots.gongzhu_hard import HardBot
from games.engine import get_game
from tests.bots.test_gongzhu_sampler import positions as sampler_positions

game = get_game("gongzhu")

OPTIONS = [{"plays": 4000}, {"horizon": 1}, {"answers": "greedy"}]


def positions(seed: int, every: int = 5) -> list[tuple[dict, list[dict]]]:
    """Every ``every``-th play decision with at least two cards of a hand Normal plays, as
    (observation, legal actions)."""
    found = []
    for state, seat in sampler_positions(seed):
        legal = game.legal_actions(state, seat)
        if len(legal) > 1:
            found.append((game.observation(state, seat), legal))
    return found[every - 1 :: every]


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_an_option_plays_legally_and_repeats_for_the_same_seed(options):
    bot = get_bot("gongzhu", "hard", samples=6, **options)
    for i, (obs, legal) in enumerate(positions(31)):
        action = bot.act(obs, legal, random.Random(i))
        assert action in legal
        assert action == bot.act(obs, legal, random.Random(i))


def test_the_plays_budget_samples_more_deals_late_in_the_hand_and_never_fewer():
    bot = HardBot(samples=10, plays=5000)
    early, late = positions(32, every=1)[0], positions(32, every=1)[-1]
    early_cards = [a["card"] for a in early[1]]
    late_cards = [a["card"] for a in late[1]]
    assert bot.deals(early[0], early_cards) == 10
    assert 10 < bot.deals(late[0], late_cards) <= 80


# --- the exposure search's aware playouts (exposure_playouts="aware")


def _aware(exposed_by):
    from games.bots.gongzhu_hard import Exposed

    return Exposed(exposed_by)


def test_an_aware_playout_hunts_an_exposed_pig_with_low_spades():
    from games.bots.gongzhu_hard import _aware_policy, _policy

    hands = [["3S", "8S", "2D", "3D"], ["QS", "4S"], ["5C"], ["6C"]]
    aware = _aware([[], ["QS"], [], []])
    hand = hands[0]
    # The plain policy leads one of its lowest cards at random; the hunter leads its low
    # spade whatever the generator says, and only while the pig is out.
    assert {_policy(hand, hand, [], random.Random(i)) for i in range(20)} > {"3S"}
    assert {
        _aware_policy(0, hand, hand, [], random.Random(i), aware, hands) for i in range(20)
    } == {"3S"}
    hands[1] = ["4S"]
    assert {
        _aware_policy(0, hand, hand, [], random.Random(i), aware, hands) for i in range(20)
    } != {"3S"}
    # A seat that holds a spade above the pig does not lead into it.
    hand = ["AS", "3S", "2D", "3D"]
    hands = [hand, ["QS", "4S"], ["5C"], ["6C"]]
    assert {
        _aware_policy(0, hand, hand, [], random.Random(i), aware, hands) for i in range(20)
    } != {"3S"}


def test_an_aware_playout_sheds_a_spade_above_an_exposed_pig_first():
    from games.bots.gongzhu_hard import _aware_policy, _policy

    hand = ["KS", "AH", "2C"]
    hands = [hand, ["QS", "4S"], ["5C"], ["6C"]]
    trick = ["9D"]
    assert _policy(hand, hand, trick, random.Random(1)) == "AH"
    assert (
        _aware_policy(0, hand, hand, trick, random.Random(1), _aware([[], ["QS"], [], []]), hands)
        == "KS"
    )
    # Nobody exposed the pig: the plain choice.
    assert (
        _aware_policy(0, hand, hand, trick, random.Random(1), _aware([[], [], [], []]), hands)
        == "AH"
    )


def test_an_aware_playout_weighs_a_trick_with_its_exposures_doubled():
    from games.bots.gongzhu_hard import _aware_policy, _policy

    # Last to play to the pig and the goat: +100 - 100 = 0 plain (take it), -100 with the
    # pig exposed (duck), +100 with the goat exposed (take it).
    hand = ["KS", "2S"]
    hands = [hand, [], [], []]
    trick = ["JS", "QS", "JD"]
    assert _policy(hand, hand, trick, random.Random(1)) == "KS"
    pig = _aware([[], ["QS"], [], []])
    hands[1] = []  # the pig is in the trick, no longer hunted
    assert _aware_policy(0, hand, hand, trick, random.Random(1), pig, hands) == "2S"
    goat = _aware([[], [], ["JD"], []])
    assert _aware_policy(0, hand, hand, trick, random.Random(1), goat, hands) == "KS"


def test_the_exposure_playouts_option_is_checked():
    assert HardBot(exposure_playouts="aware").aware
    assert not HardBot().aware
    with pytest.raises(ValueError, match="plain or aware"):
        HardBot(exposure_playouts="clever")


# --- truncated playouts scored by the burden (horizon)


def test_a_truncated_playout_stops_after_its_tricks_and_scores_by_the_burden():
    from games.bots.gongzhu_burden import burden
    from games.bots.gongzhu_hard import playout
    from games.engine.cards import STANDARD_DECK
    from games.engine.gongzhu.scoring import quick_score

    deck = list(STANDARD_DECK)
    random.Random(3).shuffle(deck)
    hands = [deck[i * 13 : (i + 1) * 13] for i in range(4)]
    taken = [[] for _ in range(4)]
    args = ([], 0, taken, [set() for _ in range(4)], set(), frozenset(), random.Random(1))
    scores = playout(hands, *args, horizon=1)
    assert [len(h) for h in hands] == [11] * 4  # the current trick and one more
    gone = {c for c in STANDARD_DECK if not any(c in h for h in hands)}
    assert scores == [
        quick_score(t, ()) - burden(h, gone, t, ()) for h, t in zip(hands, taken, strict=True)
    ]
    whole = playout([list(h) for h in hands], *args[:2], [[] for _ in range(4)], *args[3:])
    assert all(isinstance(s, int) for s in whole)


def test_the_horizon_and_answers_options_are_checked_and_off_by_default():
    from games.bench import harness

    assert HardBot().horizon is None
    assert not HardBot().greedy_answers
    with pytest.raises(ValueError):
        HardBot(answers="best")
    assert harness.make_bot("gongzhu", "hard:horizon=2").horizon == 2


def test_greedy_answers_change_some_of_hards_cards():
    plain, greedy = HardBot(samples=8), HardBot(samples=8, answers="greedy")
    differ = [
        obs
        for i, (obs, legal) in enumerate(positions(3, every=1))
        if greedy.act(obs, legal, random.Random(i)) != plain.act(obs, legal, random.Random(i))
    ]
    assert differ
