"""Gan Deng Yan properties: random playouts for every seat count and both draw rules, and a
brute-force enumeration over card subsets that the rank-count move generator must match."""

from __future__ import annotations

import json
import random
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Combo, IllegalAction, get_game
from games.engine.cards import FULL_DECK, JOKERS, is_card
from games.engine.gandengyan import readings

GAME = get_game("gandengyan")
CONFIGS = [(seats, draw) for seats in (2, 3, 4) for draw in ("all", "winner")]
ORDER = "3456789TJQKA2"


# --- an independent statement of the rules, slow and plain -------------------------------


def naive_readings(cards):
    """Try every rank 3…A for every joker and classify what results."""
    jokers = [c for c in cards if c in JOKERS]
    reals = [ORDER.index(c[0]) for c in cards if c not in JOKERS]
    if len(cards) == 2 and len(jokers) == 2:
        return {Combo("joker_bomb", None, None, 2)}
    if not reals:
        return set()
    found = set()
    for stand_ins in product(range(12), repeat=len(jokers)):
        ranks = sorted(reals + list(stand_ins))
        n = len(ranks)
        if len(set(ranks)) == 1:
            r = ORDER[ranks[0]]
            kind = {1: "single", 2: "pair"}.get(n, "bomb")
            found.add(Combo(kind, r, r, n))
        no_two = ranks[-1] <= 11
        if n >= 3 and no_two and ranks == list(range(ranks[0], ranks[0] + n)):
            found.add(Combo("straight", ORDER[ranks[0]], ORDER[ranks[-1]], n))
        half = ranks[::2]
        if (
            n >= 4
            and n % 2 == 0
            and no_two
            and ranks[1::2] == half
            and half == list(range(half[0], half[0] + n // 2))
        ):
            found.add(Combo("pair_run", ORDER[half[0]], ORDER[half[-1]], n))
    return found


def naive_beats(new, old):
    if old.kind == "joker_bomb":
        return False
    if new.kind == "joker_bomb":
        return True
    if new.kind == "bomb" and old.kind != "bomb":
        return True
    if new.kind == "bomb":
        return (new.count, ORDER.index(new.low)) > (old.count, ORDER.index(old.low))
    if new.kind != old.kind or new.count != old.count or old.kind == "bomb":
        return False
    if new.kind in ("single", "pair") and new.low == "2":
        return old.low != "2"
    return old.low != "2" and ORDER.index(new.low) == ORDER.index(old.low) + 1 and new.low != "2"


def shape(cards):
    """A play up to suit and joker."""
    return tuple(sorted("*" if c in JOKERS else c[0] for c in cards))


def brute_force_plays(hand, table):
    plays = set()
    for k in range(1, len(hand) + 1):
        for subset in combinations(hand, k):
            for combo in naive_readings(subset):
                if table is None or naive_beats(combo, table):
                    plays.add((shape(subset), combo))
    return plays


def listed_plays(state, seat):
    legal = GAME.legal_actions(state, seat)
    plays = [(shape(a["cards"]), Combo.from_dict(a["combo"])) for a in legal if a["type"] == "play"]
    assert len(plays) == len(set(plays)), "a play is listed twice"
    return set(plays)


# --- readings and the move generator against brute force ----------------------------------

hands = st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=9, unique=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=7, unique=True))
def test_readings_match_the_naive_rules(cards):
    assert set(readings(cards)) == naive_readings(cards)
    assert len(readings(cards)) == len(set(readings(cards)))


def _table_from(cards):
    found = sorted(naive_readings(cards), key=repr)
    return found[0] if found else None


@settings(max_examples=300, deadline=None)
@given(hands, st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=6, unique=True))
def test_legal_plays_are_exactly_the_brute_force_set(hand, table_cards):
    state = GAME.new_match(seed=0, seats=2)
    state.hands = [sorted(hand), ["3S"]]
    state.stock = ["4S"]
    table = _table_from([c for c in table_cards if c not in hand])
    if table is not None and table.low not in ("BJ", "RJ"):
        state.table = {"type": "play", "seat": 1, "cards": [], "combo": table.to_dict()}
    else:
        table = None
    assert listed_plays(state, 0) == brute_force_plays(hand, table)
    for action in GAME.legal_actions(state, 0):
        after = GAME.apply(state, 0, action)
        if action["type"] == "play" and table is not None:
            assert naive_beats(Combo.from_dict(action["combo"]), table)
        assert after is not state


# --- random playouts -----------------------------------------------------------------------

CARD_KEYS = ("hand", "cards", "played_cards", "playable")


def card_codes(value):
    """Every card code anywhere in a JSON value, keys included."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from card_codes(k)
            yield from card_codes(v)
    elif isinstance(value, list):
        for v in value:
            yield from card_codes(v)
    elif is_card(value):
        yield value


def check_state(state, seats):
    hands = [c for h in state.hands for c in h]
    played = [c for e in state.log if e["type"] == "play" for c in e["cards"]]
    everything = hands + state.stock + played
    assert sorted(everything) == sorted(FULL_DECK), "54 cards are not conserved"
    data = GAME.to_json(state)
    assert GAME.to_json(GAME.from_json(json.loads(json.dumps(data)))) == data
    for seat in range(seats):
        obs = GAME.observation(state, seat)
        seen = set(card_codes(json.loads(json.dumps(obs))))
        allowed = set(state.hands[seat]) | set(played)
        assert seen <= allowed, f"seat {seat} sees {seen - allowed}"
        assert obs["counts"] == [len(h) for h in state.hands]
        assert obs["stock"] == len(state.stock)
    assert set(card_codes(GAME.public_view(state))) <= set(played)


def illegal_tries(state, seat, rng):
    hand = state.hands[seat]
    legal = {
        (shape(a["cards"]), json.dumps(a.get("combo"), sort_keys=True))
        for a in GAME.legal_actions(state, seat)
        if a["type"] == "play"
    }
    for _ in range(3):
        k = rng.randint(1, min(4, len(hand)))
        cards = rng.sample(hand, k)
        found = readings(cards)
        if any((shape(cards), json.dumps(c.to_dict(), sort_keys=True)) in legal for c in found):
            continue
        if len(cards) == 1 and cards[0] in JOKERS and not state.stock and state.table is None:
            continue
        yield {"type": "play", "cards": cards}
    if state.table is None:
        yield {"type": "pass"}


def play_round(state, seats, rng, *, checks=True):
    steps = 0
    while not GAME.hand_over(state):
        (seat,) = GAME.to_move(state)
        legal = GAME.legal_actions(state, seat)
        if checks:
            check_state(state, seats)
            for bad in illegal_tries(state, seat, rng):
                before = GAME.to_json(state)
                with pytest.raises(IllegalAction):
                    GAME.apply(state, seat, bad)
                assert GAME.to_json(state) == before
            table = state.table and Combo.from_dict(state.table["combo"])
            for a in legal:
                if a["type"] == "play" and table:
                    assert naive_beats(Combo.from_dict(a["combo"]), table)
            if state.table is None:
                assert {"type": "pass"} not in legal
        action = rng.choice(legal)
        before_stock, before_hands = list(state.stock), [len(h) for h in state.hands]
        after = GAME.apply(state, seat, action)
        if action["type"] == "pass" and after.table is None and not GAME.hand_over(after):
            check_draws(state, after, before_stock, before_hands)
        state = after
        steps += 1
        assert steps < 3000
    return state


def check_draws(before, after, stock, counts):
    """A closed trick: each seat from the winner on takes one (or the winner alone) while the
    stock lasts."""
    winner = before.table["seat"]
    order = (
        [winner]
        if before.draw == "winner"
        else [(winner + k) % before.seats for k in range(before.seats)]
    )
    drawers = order[: len(stock)]
    for seat in range(before.seats):
        assert len(after.hands[seat]) == counts[seat] + (seat in drawers)
    assert after.stock == stock[len(drawers) :]
    for seat, card in zip(drawers, stock, strict=False):
        assert card in after.hands[seat]
    assert after.turn == winner


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "draw"), CONFIGS)
def test_random_rounds_keep_every_promise(seats, draw):
    rng = random.Random(seats * 10 + len(draw))
    state = GAME.new_match(seed=seats, seats=seats, options={"draw": draw})
    totals = [0] * seats
    for _ in range(3):
        state = play_round(state, seats, rng)
        result = GAME.hand_result(state)
        assert sum(result["scores"]) == 0
        assert result["scores"] == [row["score"] for row in result["breakdown"]]
        totals = [t + s for t, s in zip(totals, result["scores"], strict=True)]
        assert GAME.totals(state) == totals
        assert not GAME.match_over(state)
        winner = state.winner
        state = GAME.next_hand(state)
        assert state.dealer == winner and GAME.to_move(state) == [winner]


@pytest.mark.parametrize(("seats", "draw"), CONFIGS)
def test_many_quick_rounds_sum_to_zero_and_conserve_cards(seats, draw):
    rng = random.Random(seats)
    state = GAME.new_match(seed=100 + seats, seats=seats, options={"draw": draw})
    for _ in range(25):
        state = play_round(state, seats, rng, checks=False)
        check_state(state, seats)
        assert sum(GAME.hand_result(state)["scores"]) == 0
        state = GAME.next_hand(state)
    assert sum(GAME.totals(state)) == 0


@pytest.mark.parametrize(("seats", "draw"), CONFIGS)
def test_same_seed_same_round(seats, draw):
    def run():
        rng = random.Random(5)
        state = GAME.new_match(seed=77, seats=seats, options={"draw": draw})
        trail = []
        for _ in range(2):
            state = play_round(state, seats, rng, checks=False)
            trail.append(GAME.to_json(state))
            state = GAME.next_hand(state)
        return trail

    assert run() == run()
    a = GAME.new_match(seed=77, seats=seats, options={"draw": draw})
    b = GAME.new_match(seed=78, seats=seats, options={"draw": draw})
    assert GAME.to_json(a) != GAME.to_json(b)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_legal_plays_match_brute_force_during_real_rounds(seats):
    rng = random.Random(seats)
    checked = 0
    for seed in range(6):
        state = GAME.new_match(seed=seed, seats=seats)
        while not GAME.hand_over(state):
            (seat,) = GAME.to_move(state)
            hand = state.hands[seat]
            if len(hand) <= 10:
                table = state.table and Combo.from_dict(state.table["combo"])
                expected = brute_force_plays(hand, table or None)
                if len(hand) == 1 and hand[0] in JOKERS and not state.stock and not state.table:
                    expected = {(("*",), Combo("single", hand[0], hand[0], 1))}
                assert listed_plays(state, seat) == expected
                checked += 1
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert checked > 20


def test_two_seats_everyone_drawing_grows_big_hands_quickly_enough():
    """The largest hands the rules allow: legal_actions stays cheap from rank counts."""
    import time

    state = GAME.new_match(seed=1, seats=2)
    deck = [c for c in FULL_DECK if c not in JOKERS]
    state.hands = [sorted(random.Random(3).sample(deck, 28)) + ["BJ", "RJ"], ["3S"]]
    start = time.perf_counter()
    legal = GAME.legal_actions(state, 0)
    assert time.perf_counter() - start < 0.5
    assert len(legal) > 100


@pytest.mark.parametrize("seats", [2, 4])
def test_apply_takes_any_concrete_selection_and_asks_only_when_ambiguous(seats):
    rng = random.Random(11 * seats)
    for seed in range(4):
        state = GAME.new_match(seed=seed, seats=seats)
        while not GAME.hand_over(state):
            (seat,) = GAME.to_move(state)
            legal = GAME.legal_actions(state, seat)
            plays = [a for a in legal if a["type"] == "play"]
            by_shape = {}
            for a in plays:
                by_shape.setdefault(shape(a["cards"]), []).append(a["combo"])
            for a in rng.sample(plays, min(5, len(plays))):
                # The same shape from other suits, and the other joker.
                hand = list(state.hands[seat])
                rng.shuffle(hand)
                other = []
                for symbol in shape(a["cards"]):
                    card = next(
                        c
                        for c in hand
                        if c not in other and ("*" if c in JOKERS else c[0]) == symbol
                    )
                    other.append(card)
                after = GAME.apply(
                    state, seat, {"type": "play", "cards": other, "combo": a["combo"]}
                )
                assert Combo.from_dict(
                    after.log[-1 if after.log[-1]["type"] == "play" else -2]["combo"]
                ) == Combo.from_dict(a["combo"])
                combos = by_shape[shape(other)]
                bare = {"type": "play", "cards": other}
                if len(combos) == 1:
                    GAME.apply(state, seat, bare)
                else:
                    with pytest.raises(IllegalAction) as exc:
                        GAME.apply(state, seat, bare)
                    assert exc.value.code == "ambiguous"
                    assert sorted(map(json.dumps, exc.value.params["readings"])) == sorted(
                        map(json.dumps, combos)
                    )
            state = GAME.apply(state, seat, rng.choice(legal))
