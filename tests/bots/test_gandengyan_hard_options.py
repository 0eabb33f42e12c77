"""Hard's Gan Deng Yan options (issue #15): each runs, repeats for the same observation and
seed, and returns a legal action; Normal's policy on rank counts is Normal's; a deal fits the
opponents' decisions it reads when it is the true one."""

from __future__ import annotations

import gc
import random
import sys
import threading

import pytest

from games.bots import gandengyan as bots
from games.bots import gandengyan_search as search
from games.bots import get_bot
from games.engine import get_game
from games.engine.gandengyan.combos import counts_of

GAME = get_game("gandengyan")

OPTIONS = (
    {"rollout": "greedy", "infer": 0},  # Hard before issue #15
    {"rollout": "greedy"},
    {"rollout": "normal", "infer": 0},
    {"rollout": "mixed"},
    {"infer": 2},
    {"infer": 2, "rollout": "normal", "tries": 3},
)


def decisions(seats, seed, count):
    """``count`` decisions with a choice to make, from a round of Normal against Normal: the
    state, the seat to move, its observation and legal actions."""
    normal = bots.NormalBot()
    state = GAME.new_match(seed=seed, seats=seats)
    found = []
    while not GAME.hand_over(state) and len(found) < count:
        (seat,) = GAME.to_move(state)
        obs, legal = GAME.observation(state, seat), GAME.legal_actions(state, seat)
        if len(legal) > 1:
            found.append((state, seat, obs, legal))
        state = GAME.apply(state, seat, normal.choose(obs, legal))
    return found


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("seats", [2, 4])
def test_each_option_is_legal_and_repeats_for_a_seed(options, seats):
    bot = get_bot("gandengyan", "hard", samples=3, **options)
    for step, (_state, _seat, obs, legal) in enumerate(decisions(seats, 11 + seats, 12)):
        first = bot.act(obs, legal, random.Random(step))
        again = get_bot("gandengyan", "hard", samples=3, **options).act(
            obs, legal, random.Random(step)
        )
        assert first == again
        assert first in legal


def test_an_unknown_rollout_is_refused():
    with pytest.raises(ValueError):
        get_bot("gandengyan", "hard", rollout="random")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_normal_on_rank_counts_is_normal(seats):
    normal = bots.NormalBot()
    for state, seat, obs, legal in decisions(seats, 30 + seats, 40):
        world, _pool = search.root_world(obs)
        for s, hand in enumerate(state.hands):
            world.counts[s], world.jokers[s] = counts_of(hand)
        world.stock = [0] * obs["stock"]
        move = search.normal_move(world, seat)
        pick = normal.choose(obs, legal)
        if pick["type"] == "pass":
            assert move is None
        else:
            combo, used, jokers = move
            counts, pick_jokers = counts_of(pick["cards"])
            assert (combo.kind, combo.low, combo.count) == (
                pick["combo"]["kind"],
                pick["combo"]["low"],
                pick["combo"]["count"],
            )
            mine = [0] * 13
            for r, k in used:
                mine[r] += k
            assert (mine, jokers) == (counts, pick_jokers)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_true_deal_fits_the_opponents_last_two_tricks(seats):
    """Against Normal, the real hands always fit what inference reads off the log."""
    rng = random.Random(5)
    checked = 0
    found = [d for seed in range(50, 54) for d in decisions(seats, seed, 60)]
    for state, seat, obs, _legal in found:
        seen = search.checks(obs, 2)
        world, _pool = search.root_world(obs)
        for s, hand in enumerate(state.hands):
            world.counts[s], world.jokers[s] = counts_of(hand)
        assert all(ck.seat != seat for ck in seen)
        assert all(search.agrees(world, ck, rng) for ck in seen)
        checked += len(seen)
    assert checked > 20


def choice_positions(seed: int, count: int) -> list[tuple]:
    """Arguments of ``normal_choice`` from random hands: rank counts, jokers, a table (None or
    a play open to another random hand), the threat and the stock."""
    rng = random.Random(seed)
    deck = [r for r in range(13) for _ in range(4)] + [13, 13]
    out = []
    for _ in range(count):
        cards = rng.sample(deck, rng.randint(3, 14))
        counts = [cards.count(r) for r in range(13)]
        other = rng.sample(deck, 8)
        table = None
        if rng.random() < 0.7:
            other_counts = [other.count(r) for r in range(13)]
            table = rng.choice(search.lead_plays(other_counts, other.count(13)))[0]
        out.append((counts, cards.count(13), table, rng.randint(1, 6), rng.randint(0, 30)))
    return out


def test_normal_choices_are_remembered_as_numbers_the_collector_skips():
    # Kept as objects, a full cache of Normal's choices made every full collection walk
    # hundreds of thousands of them: a sixth of Hard's time.
    for position in choice_positions(1, 3000):  # the tables and plays seen get numbers
        search.normal_choice(*position)
    gc.collect()
    before = len(gc.get_objects())
    for position in choice_positions(2, 3000):
        search.normal_choice(*position)
    gc.collect()
    assert len(gc.get_objects()) - before < 300


def test_normal_choices_stay_right_when_the_cache_is_forgotten(monkeypatch):
    positions = choice_positions(3, 400)
    expected = [search._normal_choice(*p) for p in positions]
    monkeypatch.setattr(search, "CHOICE_CAP", 50)
    assert [search.normal_choice(*p) for p in positions] == expected
    assert [search.normal_choice(*p) for p in reversed(positions)] == expected[::-1]
    assert len(search._choices.by_key) <= 51


def test_normal_choices_stay_right_for_threads_asking_at_once(monkeypatch):
    positions = choice_positions(4, 300)
    expected = [search._normal_choice(*p) for p in positions]
    monkeypatch.setattr(search, "CHOICE_CAP", 40)  # forgotten again and again meanwhile
    answers: dict[int, list] = {}

    def ask(shift: int) -> None:
        order = positions[shift:] + positions[:shift]
        answers[shift] = [search.normal_choice(*p) for p in order]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as they can
    try:
        for _round in range(3):
            answers.clear()
            threads = [threading.Thread(target=ask, args=(shift,)) for shift in range(0, 300, 50)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(answers) == list(range(0, 300, 50))
            for shift, got in answers.items():
                assert got == expected[shift:] + expected[:shift]
    finally:
        sys.setswitchinterval(interval)
