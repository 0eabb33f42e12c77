"""RLCard comparisons for Dou Dizhu (benchmark-only: skipped when RLCard is absent)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("rlcard")

from games.bench import doudizhu as plugin  # noqa: E402
from games.bench import rlcard_match  # noqa: E402
from games.engine import get_game  # noqa: E402
from games.engine.doudizhu import new_match_fixed  # noqa: E402
from games.engine.doudizhu.combos import counts_of, leads  # noqa: E402

game = get_game("doudizhu")


def test_it_translates_cards_to_rlcard_strings_in_its_order():
    state = new_match_fixed(3, landlord=0)
    text = rlcard_match.rl_string(state.hands[0])
    assert len(text) == 20
    order = "3456789TJQKA2BR"
    assert list(text) == sorted(text, key=order.index)
    assert rlcard_match.rl_string(["BJ", "RJ"]) == "BR"


def test_our_leads_are_rlcards_minus_the_kicker_cases_our_rulings_refuse():
    from rlcard.games.doudizhu.judger import DoudizhuJudger

    for seed in range(20):
        hand = new_match_fixed(seed, landlord=0).hands[0]
        ours = {
            rlcard_match.rl_string(a["cards"])
            for a in game.legal_actions(new_match_fixed(seed, landlord=0), 0)
        }
        theirs = DoudizhuJudger.playable_cards_from_hand(plugin.rlcard_hand(hand))
        assert ours <= theirs
        assert len(ours) == len(leads(counts_of(hand)))


def test_a_deal_plays_both_ways_and_repeats():
    a = rlcard_match.play_deal(("k", 5, 0, "normal", {}))
    b = rlcard_match.play_deal(("k", 5, 0, "normal", {}))
    assert a == b
    for role in ("landlord", "peasants"):
        assert a[role]["points"] != 0
        assert a[role]["their_decisions"] > 0
    summary = rlcard_match.summarize([a])
    text = rlcard_match.format_summary("normal", summary)
    assert "ours as landlord" in text
    assert "no interval from one deal" in text and "nan" not in text


def test_the_perfect_player_plays_rlcard_seeing_every_hand(monkeypatch):
    from games.bench.doudizhu_perfect import DouDizhuPerfect

    seen = []
    real = DouDizhuPerfect.act_seeing_all

    def watched(self, game_, state, seat, legal, rng):
        seen.append(seat)
        return real(self, game_, state, seat, legal, rng)

    monkeypatch.setattr(DouDizhuPerfect, "act_seeing_all", watched)
    a = rlcard_match.play_deal(("k", 5, 0, "perfect", {}))
    assert a == rlcard_match.play_deal(("k", 5, 0, "perfect", {}))
    assert set(seen) == {0, 1, 2}  # landlord in one game, both peasants in the other
    assert a["landlord"]["their_decisions"] > 0 and a["peasants"]["their_decisions"] > 0


def test_their_seat_only_returns_our_legal_actions():
    seat = rlcard_match.TheirSeat(11)
    rng = random.Random(1)
    state = new_match_fixed(11, landlord=0)
    while not game.hand_over(state):
        s = game.to_move(state)[0]
        legal = game.legal_actions(state, s)
        action = seat.act(game.observation(state, s), legal) if s else rng.choice(legal)
        assert action in legal
        state = game.apply(state, s, action)


def test_scenarios_and_the_rlcard_speed_probe():
    sets = plugin.legal_scenarios(random.Random(1), 5)
    assert set(sets) == {"lead_fresh_20", "follow"}
    for state, seat in sets["lead_fresh_20"]:
        assert len(state.hands[seat]) == 20 and state.table is None
    for state, seat in sets["follow"]:
        assert state.table is not None and game.to_move(state) == [seat]
    assert plugin._rlcard_hands_per_second(0.05, 1) > 0
