"""Dou Dizhu properties: complete move generation against brute force, random playouts."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Combo, IllegalAction, get_game
from games.engine import doudizhu as ddz
from games.engine.cards import FULL_DECK
from games.engine.doudizhu import combos

game = get_game("doudizhu")


def brute_force_plays(counts):
    """Every reading of every sub-multiset of the hand: plays up to suit, by enumeration."""
    found = set()
    for sub in itertools.product(*(range(n + 1) for n in counts)):
        if any(sub):
            found.update(combos.read_counts(list(sub)))
    return found


hand_counts = st.lists(st.integers(0, 4), min_size=13, max_size=13).flatmap(
    lambda ranks: st.tuples(st.just(ranks), st.integers(0, 1), st.integers(0, 1))
)


def _counts(drawn):
    ranks, bj, rj = drawn
    counts = list(ranks) + [bj, rj]
    # keep the brute force small: trim the hand to at most 13 cards
    while sum(counts) > 13:
        i = max(range(15), key=lambda r: (counts[r], r))
        counts[i] -= 1
    return counts


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(hand_counts)
def test_leads_are_exactly_the_brute_force_plays(drawn):
    counts = _counts(drawn)
    generated = combos.leads(counts)
    assert len(generated) == len(set(generated)), "a play is listed twice"
    assert set(generated) == brute_force_plays(counts)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(hand_counts, st.integers(0, 10_000))
def test_follows_are_exactly_the_brute_force_plays_that_beat(drawn, pick):
    counts = _counts(drawn)
    everything = sorted(brute_force_plays(counts))
    rng = random.Random(pick)
    other = [rng.choice([0, 1, 2, 3, 4]) for _ in range(13)] + [rng.randint(0, 1)] * 2
    pool = combos.leads(other) or [("solo", 0, 1, (0,))]
    table = combos.move_key(rng.choice(pool))
    expected = {m for m in everything if combos.beats_key(combos.move_key(m), table)}
    assert set(combos.follows(counts, table)) == expected


def test_full_hands_have_no_repeated_plays():
    for seed in range(30):
        st_ = ddz.new_match_fixed(seed, 0)
        moves = combos.leads(combos.counts_of(st_.hands[0]))
        assert len(moves) == len(set(moves))
        for m in moves:
            assert m in combos.read_counts(combos.counts_of_ranks(m[3]))


# ---------------------------------------------------------------- random playouts


def _bad_actions(state, seat, rng):
    """Actions the rules must refuse here, of several kinds."""
    others = [c for s in range(3) if s != seat for c in state.hands[s]]
    bad = [
        {"type": "bid", "value": 7},
        {"type": "play", "cards": [rng.choice(others)]} if others else {"type": "x"},
        {"type": "play", "cards": []},
        {"type": "play", "cards": list(state.hands[seat][:2]), "combo": {"kind": "rocket"}},
    ]
    if state.phase == "playing" and state.table is None:
        bad.append({"type": "pass"})
    return bad


def _check_step(state, rng, seen_kitty):
    # 54 cards, each once
    cards = [c for h in state.hands for c in h]
    cards += [c for _s, played, _m in state.plays if played for c in played]
    if state.landlord is None:
        cards += list(state.kitty)
    assert sorted(cards) == sorted(FULL_DECK)
    # JSON round trip
    data = game.to_json(state)
    again = game.from_json(json.loads(json.dumps(data)))
    assert game.to_json(again) == data
    for seat in range(3):
        obs = game.observation(state, seat)
        assert obs["hand"] == list(state.hands[seat])
        # card codes appear only where the seat may know them; the counter is per rank
        text = json.dumps({k: v for k, v in obs.items() if k != "unseen"})
        for other in range(3):
            if other != seat:
                for card in state.hands[other]:
                    if state.landlord is not None and card in state.kitty:
                        continue  # the kitty is shown to all
                    assert f'"{card}"' not in text
        if state.landlord is None:
            for card in state.kitty:
                if card not in state.hands[seat]:
                    assert f'"{card}"' not in text
        assert sum(obs["unseen"].values()) == 54 - len(
            set(state.hands[seat])
            | {c for _s, p, _m in state.plays if p for c in p}
            | (set(state.kitty) if state.landlord is not None else set())
        )
    if state.landlord is not None:
        seen_kitty.add(state.deal_number)


def _playout(seed, rng, check=True):
    state = game.new_match(seed=seed, seats=3, options={"hands": 3})
    seen_kitty = set()
    trail = []
    while True:
        while not game.hand_over(state):
            seat = game.to_move(state)[0]
            legal = game.legal_actions(state, seat)
            assert legal
            if check:
                _check_step(state, rng, seen_kitty)
                before = game.to_json(state)
                for bad in _bad_actions(state, seat, rng):
                    try:
                        game.apply(state, seat, bad)
                    except IllegalAction as e:
                        assert e.code and str(e)
                    else:
                        raise AssertionError(f"accepted {bad}")
                assert game.to_json(state) == before
                if state.phase == "bidding":
                    values = [a["value"] for a in legal]
                    assert values == [0] + list(range(state.bid + 1, 4))
                    passed = {s for s, v in state.bids if v == 0}
                    assert seat not in passed
                else:
                    top = state.table
                    for action in legal:
                        if action["type"] == "pass":
                            assert top is not None
                            continue
                        combo = Combo.from_dict(action["combo"])
                        assert combo in ddz.readings(action["cards"])
                        assert set(action["cards"]) <= set(state.hands[seat])
                        if top is not None:
                            assert ddz.beats(combo, combos.to_combo(top[2]))
            action = rng.choice(legal)
            bidding = state.phase == "bidding"
            state = game.apply(state, seat, action)
            trail.append(action)
            if bidding and state.phase == "playing":
                # bidding as ruled: a 3, or two passes after a bid; the highest bidder wins
                values = [v for _s, v in state.bids]
                assert values[-1] == 3 or sum(1 for v in values if v == 0) == 2
                assert state.bid == max(values)
                assert [s for s, v in state.bids if v == state.bid] == [state.landlord]
        result = game.hand_result(state)
        assert sum(result["scores"]) == 0
        assert sum(game.totals(state)) == 0
        if game.match_over(state):
            return state, trail
        state = game.next_hand(state)


@pytest.mark.slow
def test_random_matches_keep_every_promise():
    rng = random.Random(2024)
    for seed in range(6):
        _playout(seed, rng)


def test_same_seed_and_actions_same_match():
    a, trail_a = _playout(77, random.Random(5), check=False)
    b, trail_b = _playout(77, random.Random(5), check=False)
    assert trail_a == trail_b
    assert game.to_json(a) == game.to_json(b)


def test_many_random_hands_sum_to_zero_and_end():
    rng = random.Random(1)
    for seed in range(150):
        state = game.new_match(seed=seed, seats=3, options={"hands": 1})
        steps = 0
        while not game.hand_over(state):
            seat = game.to_move(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            steps += 1
        assert sum(game.hand_result(state)["scores"]) == 0
        assert game.match_over(state)


def _hand_from_counts(counts):
    hand = []
    for r, n in enumerate(counts):
        if r == combos.BJ:
            hand += ["BJ"] * n
        elif r == combos.RJ:
            hand += ["RJ"] * n
        else:
            hand += [combos.RANK_NAMES[r] + s for s in "SHDC"[:n]]
    return hand


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=13, max_size=13), st.integers(0, 1), st.integers(0, 1))
def test_the_one_pass_lead_listing_equals_the_move_generator(ranks, bj, rj):
    from games.engine.doudizhu import rules, state

    counts = list(ranks) + [bj, rj]
    hand = state.sort_cards(_hand_from_counts(counts))
    assert rules.lead_dicts(hand) == rules.play_dicts(hand, combos.leads(counts))


def test_the_one_pass_lead_listing_on_dealt_hands():
    from games.engine.doudizhu import rules

    for seed in range(200):
        hand = ddz.new_match_fixed(seed, seed % 3).hands[seed % 3]
        counts = combos.counts_of(hand)
        assert rules.lead_dicts(hand) == rules.play_dicts(hand, combos.leads(counts))
