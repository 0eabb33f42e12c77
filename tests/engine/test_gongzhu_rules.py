"""The rules of Gong Zhu and docs/RULINGS.md "Gong Zhu", one clause at a time."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, get_game
from games.engine.gongzhu import CODES, trick_winner
from games.engine.gongzhu.rules import match_decided, out_seats
from games.engine.gongzhu.state import PLAY, from_json, to_json

game = get_game("gongzhu")


def make_state(hands, *, exposed=None, leader=0, trick=(), tricks=(), taken=None, **extra):
    """A play-phase state with the given hands (the tests' way to stage a position)."""
    data = to_json(game.new_match(seed=1, seats=4))
    data.update(
        hands=[list(h) for h in hands],
        phase=PLAY,
        pending=[None] * 4,
        exposed=[list(e) for e in (exposed or [[], [], [], []])],
        first_leader=leader,
        leader=leader,
        trick=list(trick),
        tricks=[[lead, list(cards), w] for lead, cards, w in tricks],
        taken=[list(t) for t in (taken or [[], [], [], []])],
        led="".join(dict.fromkeys(cards[0][1] for _, cards, _ in tricks)),
    )
    data.update(extra)
    return from_json(data)


def play(state, seat, card):
    return game.apply(state, seat, {"type": "play", "card": card})


def cards_of(actions):
    return sorted(a["card"] for a in actions)


def refusal(state, seat, action):
    with pytest.raises(IllegalAction) as exc:
        game.apply(state, seat, action)
    assert str(exc.value)
    return exc.value.code, exc.value.params


def finish_exposure(state, choices=None):
    choices = choices or {}
    for seat in range(4):
        state = game.apply(state, seat, {"type": "expose", "cards": choices.get(seat, [])})
    return state


# --- the deal ---------------------------------------------------------------------------


def test_it_deals_13_cards_to_each_of_four_seats_from_the_seed():
    state = game.new_match(seed=42, seats=4)
    hands = to_json(state)["hands"]
    assert [len(h) for h in hands] == [13] * 4
    assert len({c for h in hands for c in h}) == 52
    assert to_json(game.new_match(seed=42, seats=4)) == to_json(state)
    assert to_json(game.new_match(seed=43, seats=4))["hands"] != hands


def test_it_refuses_other_seat_counts_and_options():
    with pytest.raises(ValueError):
        game.new_match(seed=1, seats=3)
    with pytest.raises(ValueError):
        game.new_match(seed=1, seats=4, options={"hands": 3})
    assert game.seat_counts == (4,)


# --- exposure phase ---------------------------------------------------------------------


def test_it_asks_all_four_seats_to_decide_at_once():
    state = game.new_match(seed=3, seats=4)
    assert game.to_move(state) == [0, 1, 2, 3]
    obs = game.observation(state, 0)
    assert obs["phase"] == "expose" and obs["decided"] is False and obs["to_move"] is None
    state = game.apply(state, 2, game.legal_actions(state, 2)[0])
    assert game.to_move(state) == [0, 1, 3]


def test_a_seat_without_exposable_card_has_only_the_empty_choice():
    for seed in range(50):
        state = game.new_match(seed=seed, seats=4)
        for seat in range(4):
            hand = game.observation(state, seat)["hand"]
            held = [c for c in ("AH", "QS", "JD", "TC") if c in hand]
            legal = game.legal_actions(state, seat)
            assert len(legal) == 2 ** len(held)
            assert legal[0] == {"type": "expose", "cards": []}
            if not held:
                assert legal == [{"type": "expose", "cards": []}]


def test_it_hides_who_decided_and_what_until_all_have_decided():
    state = game.new_match(seed=8, seats=4)
    exposer = next(s for s in range(4) if len(game.legal_actions(state, s)) > 1)
    others = [s for s in range(4) if s != exposer]
    before = [game.observation(state, s) for s in others]
    public_before = game.public_view(state)
    state = game.apply(state, exposer, game.legal_actions(state, exposer)[-1])
    assert [game.observation(state, s) for s in others] == before
    assert game.public_view(state) == public_before
    mine = game.observation(state, exposer)
    assert mine["decided"] is True and mine["my_exposure"]
    # A decided seat cannot change its mind.
    assert refusal(state, exposer, {"type": "expose", "cards": []})[0] == "not_your_turn"
    for seat in others:
        state = game.apply(state, seat, {"type": "expose", "cards": []})
    chosen = game.legal_actions(game.new_match(seed=8, seats=4), exposer)[-1]["cards"]
    for seat in range(4):
        obs = game.observation(state, seat)
        assert obs["phase"] == "play"
        assert obs["exposed"][exposer] == chosen
        assert all(obs["exposed"][s] == [] for s in others)


def test_it_refuses_wrong_exposures():
    state = game.new_match(seed=8, seats=4)
    hand = game.observation(state, 0)["hand"]
    plain = next(c for c in hand if c not in ("AH", "QS", "JD", "TC"))
    assert refusal(state, 0, {"type": "expose", "cards": [plain]}) == (
        "not_exposable",
        {"card": plain},
    )
    missing = next(c for c in ("AH", "QS", "JD", "TC") if c not in hand)
    assert refusal(state, 0, {"type": "expose", "cards": [missing]})[0] == "not_in_hand"
    assert refusal(state, 0, {"type": "play", "card": plain}) == (
        "wrong_phase",
        {"phase": "expose"},
    )
    assert refusal(state, 0, {"type": "expose", "cards": "AH"})[0] == "malformed"
    assert refusal(state, 0, {"type": "expose", "cards": [plain, plain]})[0] == "malformed"


def test_an_exposure_in_the_play_phase_is_the_wrong_phase():
    state = finish_exposure(game.new_match(seed=8, seats=4))
    seat = game.to_move(state)[0]
    assert refusal(state, seat, {"type": "expose", "cards": []}) == (
        "wrong_phase",
        {"phase": "play"},
    )


# --- leading ----------------------------------------------------------------------------


def test_the_holder_of_2s_leads_hand_one_with_any_card():
    for seed in range(10):
        state = game.new_match(seed=seed, seats=4)
        holder = next(s for s in range(4) if "2S" in game.observation(state, s)["hand"])
        state = finish_exposure(state)
        assert game.to_move(state) == [holder]
        hand = game.observation(state, holder)["hand"]
        assert cards_of(game.legal_actions(state, holder)) == sorted(hand)


def test_the_pig_taker_leads_the_next_hand():
    state = game.new_match(seed=5, seats=4)
    import random

    rng = random.Random(5)
    for _ in range(3):
        while not game.hand_over(state):
            seat = game.to_move(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if game.match_over(state):
            break
        taker = next(
            s for s in range(4) if "QS" in game.hand_result(state)["breakdown"][s]["point_cards"]
        )
        state = finish_exposure(game.next_hand(state))
        assert game.to_move(state) == [taker]
        assert game.observation(state, 0)["hand_number"] >= 2


def test_hearts_may_be_led_at_once_and_points_fall_in_the_first_trick():
    hands = [["AH", "2C"], ["3C", "4C"], ["QS", "5C"], ["JD", "6C"]]
    state = make_state(hands)
    assert "AH" in cards_of(game.legal_actions(state, 0))
    state = play(play(state, 0, "AH"), 1, "3C")
    # Void in hearts: anything, the pig and the goat included.
    assert cards_of(game.legal_actions(state, 2)) == ["5C", "QS"]


# --- following and trick winners --------------------------------------------------------


def test_it_makes_you_follow_suit_and_says_which():
    hands = [["2C", "3D"], ["KC", "AD"], ["QC", "9S"], ["4D", "5D"]]
    state = play(make_state(hands), 0, "2C")
    assert cards_of(game.legal_actions(state, 1)) == ["KC"]
    assert refusal(state, 1, {"type": "play", "card": "AD"}) == ("must_follow_suit", {"suit": "C"})
    assert str(IllegalAction("must_follow_suit", {"suit": "C"})) == CODES[
        "must_follow_suit"
    ].format(suit="C")


def test_the_highest_card_of_the_led_suit_wins_and_leads_next():
    hands = [["5C", "2H"], ["AD", "3H"], ["9C", "4H"], ["KS", "5H"]]
    state = make_state(hands)
    for seat, card in enumerate(["5C", "AD", "9C", "KS"]):
        state = play(state, seat, card)
    # AD and KS are higher but of other suits: they never win.
    assert game.to_move(state) == [2]
    obs = game.observation(state, 0)
    assert obs["last_trick"]["winner"] == 2
    assert obs["last_trick"]["plays"][1] == {"seat": 1, "card": "AD"}
    assert obs["voids"][1] == ["C"] and obs["voids"][3] == ["C"]


def test_the_trick_winner_is_one_public_rule_for_a_closed_trick_and_an_open_one():
    # The bots ask the engine who wins (or is winning) a trick: games.engine.gongzhu.
    assert trick_winner(0, ["5C", "AD", "9C", "KS"]) == 2
    assert trick_winner(3, ["5C", "AD", "9C", "KS"]) == 1
    assert trick_winner(1, ["7H"]) == 1
    assert trick_winner(1, ["7H", "AH", "2H"]) == 2


def test_a_trick_closes_with_its_fourth_card_and_stays_closed_until_the_next():
    hands = [["5C", "2H"], ["AD", "3H"], ["9C", "4H"], ["KS", "5H"]]
    state = make_state(hands)
    closed = []
    for seat, card in [*enumerate(["5C", "AD", "9C", "KS"]), (2, "4H")]:
        before = game.public_view(state)
        state = play(state, seat, card)
        closed.append(game.trick_closed(before, game.public_view(state)))
        # The same fact from a seat's observations, and with no view before.
        assert game.trick_closed(None, game.observation(state, seat)) == closed[-1]
    assert closed == [False, False, False, True, False]


def test_the_trick_winner_takes_its_point_cards():
    hands = [["5H", "2C"], ["QH", "3C"], ["JD", "4C"], ["QS", "5C"]]
    state = make_state(hands)
    for seat, card in enumerate(["5H", "QH", "JD", "QS"]):
        state = play(state, seat, card)
    obs = game.observation(state, 3)
    assert obs["collected"][1] == ["5H", "QH", "JD", "QS"]
    assert obs["hand_scores"][1] == -10 - 30 + 100 - 100
    assert obs["all_hearts_threat"] == 1


# --- the exposed-card restriction -------------------------------------------------------


def test_an_exposed_card_may_not_lead_its_suit_unless_it_is_the_only_one():
    hands = [["QS", "3S", "2C"], ["4S", "5C", "6C"], ["7S", "8C", "9C"], ["8S", "TS", "TD"]]
    state = make_state(hands, exposed=[["QS"], [], [], []])
    assert cards_of(game.legal_actions(state, 0)) == ["2C", "3S"]
    assert refusal(state, 0, {"type": "play", "card": "QS"}) == (
        "exposed_card_first_trick",
        {"card": "QS", "suit": "S"},
    )
    alone = make_state(
        [["QS", "2C"], ["4S", "5C"], ["7S", "8C"], ["8S", "TD"]], exposed=[["QS"], [], [], []]
    )
    assert cards_of(game.legal_actions(alone, 0)) == ["2C", "QS"]


def test_an_exposed_card_may_not_go_into_the_first_trick_of_its_suit():
    hands = [["4S", "5C"], ["QS", "3S", "2C"], ["7S", "8C"], ["8S", "TD"]]
    state = play(make_state(hands, exposed=[[], ["QS"], [], []]), 0, "4S")
    assert cards_of(game.legal_actions(state, 1)) == ["3S"]
    assert refusal(state, 1, {"type": "play", "card": "QS"}) == (
        "exposed_card_first_trick",
        {"card": "QS", "suit": "S"},
    )


def test_an_exposed_card_that_is_the_only_one_of_its_suit_must_follow():
    hands = [["4S", "5C"], ["QS", "2C"], ["7S", "8C"], ["8S", "TD"]]
    state = play(make_state(hands, exposed=[[], ["QS"], [], []]), 0, "4S")
    assert cards_of(game.legal_actions(state, 1)) == ["QS"]


def test_an_exposed_card_may_be_discarded_any_time():
    hands = [["4D", "5C"], ["QS", "3S"], ["7D", "8C"], ["8D", "TD"]]
    state = play(make_state(hands, exposed=[[], ["QS"], [], []]), 0, "4D")
    assert cards_of(game.legal_actions(state, 1)) == ["3S", "QS"]


def test_an_exposed_card_is_free_once_its_suit_has_been_led():
    earlier = [(0, ("2S", "5S", "6S", "9S"), 3)]
    hands = [["4S", "5C"], ["QS", "3S"], ["7S", "8C"], ["8S", "TD"]]
    state = make_state(hands, exposed=[[], ["QS"], [], []], tricks=earlier, leader=0)
    state = play(state, 0, "4S")
    assert cards_of(game.legal_actions(state, 1)) == ["3S", "QS"]
    lead = make_state(
        [["QS", "3S"], ["4S", "5C"], ["7S", "8C"], ["8S", "TD"]],
        exposed=[["QS"], [], [], []],
        tricks=earlier,
    )
    assert cards_of(game.legal_actions(lead, 0)) == ["3S", "QS"]


def test_the_restriction_binds_only_the_exposing_seat_and_its_own_card():
    hands = [["JD", "3D"], ["QD", "2D"], ["KD", "4D"], ["AD", "5D"]]
    state = make_state(hands, exposed=[[], ["QD"] if False else [], [], []])
    state = make_state(hands, exposed=[["JD"], [], [], []], leader=1)
    state = play(state, 1, "QD")
    state = play(state, 2, "KD")
    state = play(state, 3, "AD")
    assert cards_of(game.legal_actions(state, 0)) == ["3D"]


# --- the common refusal codes, in the contract's order ---------------------------------


def test_it_checks_the_common_codes_first():
    hands = [["2C", "3D"], ["KC", "AD"], ["QC", "9S"], ["4D", "5D"]]
    state = make_state(hands)
    assert refusal(state, 1, {"type": "play", "card": "KC"})[0] == "not_your_turn"
    assert refusal(state, 1, {"junk": 1})[0] == "not_your_turn"
    assert refusal(state, 0, {"type": "play", "card": "ZZ"})[0] == "malformed"
    assert refusal(state, 0, {"type": "play", "card": ["2C"]})[0] == "malformed"
    assert refusal(state, 0, {"type": "play", "card": "2C", "extra": 1})[0] == "malformed"
    assert refusal(state, 0, {"type": "play", "card": "AS"}) == ("not_in_hand", {"card": "AS"})
    assert refusal(state, 7, {"type": "play", "card": "2C"})[0] == "not_your_turn"


def test_every_code_has_an_english_sentence():
    params = {"suit": "C", "card": "QS", "phase": "play"}
    for code in CODES:
        text = str(IllegalAction(code, params))
        assert "{" not in text and text.endswith(".")
    for code in ("hand_not_over", "match_over"):
        assert str(IllegalAction(code, {})) != f"Illegal action ({code})."


# --- end of the hand and of the match ---------------------------------------------------


def _finished(prior, taken):
    state = make_state([[], [], [], []], taken=taken, phase="over", prior_totals=prior)
    return state


ALL_POINTS = [
    "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "QS", "JD", "TC",
]  # fmt: skip


def test_the_text_examples_of_the_match_end():
    # "-1010, 120, 120 und -300 bedeuten Gleichstand an der Spitze, also wird weitergespielt."
    assert not match_decided([-1010, 120, 120, -300])
    # "-1010, 150, 120 und -300 beenden das Spiel, und der Spieler mit 150 gewinnt."
    assert match_decided([-1010, 150, 120, -300])
    assert out_seats([-1010, 150, 120, -300]) == [0]
    assert not match_decided([-990, 150, 120, -300])
    assert match_decided([-1000, 150, 120, -300])


def test_a_finished_hand_ends_the_match_only_with_a_sole_leader():
    taken = [[], ALL_POINTS, [], []]  # seat 1 takes all 16: +800
    tied = _finished([-1010, 120 - 800, 120, -300], taken)
    assert game.hand_over(tied) and game.totals(tied) == [-1010, 120, 120, -300]
    assert not game.match_over(tied)
    assert game.public_view(tied)["out"] == [0]
    following = game.next_hand(tied)
    assert game.totals(following) == [-1010, 120, 120, -300]
    assert game.to_move(following) == [0, 1, 2, 3]
    done = _finished([-1010, 150 - 800, 120, -300], taken)
    assert game.match_over(done)
    assert game.public_view(done)["winner"] == 1
    assert refusal_of(game.next_hand, done) == "match_over"


def refusal_of(fn, state):
    with pytest.raises(IllegalAction) as exc:
        fn(state)
    return exc.value.code


def test_hand_result_names_every_factor_and_all_16():
    state = _finished([0, 0, 0, 0], [[], ALL_POINTS, [], []])
    state = from_json({**to_json(state), "exposed": [["QS"], [], [], []]})
    result = game.hand_result(state)
    assert result["scores"] == [0, 1000, 0, 0]
    row = result["breakdown"][1]
    assert row["all_16"] and row["all_hearts"] and row["pig"] == 200
    assert result["breakdown"][0]["exposed"] == ["QS"]
    assert result["breakdown"][0]["exposure_multipliers"]["pig"] == 2
    assert game.totals(state) == [0, 1000, 0, 0]


def test_totals_before_the_end_of_a_hand_are_the_prior_totals():
    state = make_state([["2C"], ["3C"], ["4C"], ["5C"]], prior_totals=[10, -20, 30, -40])
    assert game.totals(state) == [10, -20, 30, -40]
    assert refusal_of(game.hand_result, state) == "hand_not_over"
    assert refusal_of(game.next_hand, state) == "hand_not_over"


def test_the_exposure_phase_of_hand_one_does_not_tell_who_holds_2s():
    state = game.new_match(seed=12, seats=4)
    assert all(game.observation(state, s)["leader"] is None for s in range(4))
    assert game.public_view(state)["leader"] is None
    state = finish_exposure(state)
    holder = game.to_move(state)[0]
    assert game.public_view(state)["leader"] == holder
