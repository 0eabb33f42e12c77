"""Gan Deng Yan: every example of the rule text and RULINGS.md, one test each."""

from __future__ import annotations

import pytest

from games.engine import Combo, IllegalAction, get_game
from games.engine.gandengyan import beats, readings, settle
from games.engine.gandengyan.state import sort_hand

GAME = get_game("gandengyan")


def C(kind, low=None, high=None, count=1):
    return Combo(kind, low, high if high is not None else low, count)


def single(r):
    return C("single", r, r, 1)


def pair(r):
    return C("pair", r, r, 2)


def bomb(r, n):
    return C("bomb", r, r, n)


JOKER_BOMB = Combo("joker_bomb", None, None, 2)


def state_with(hands, *, table=None, turn=0, stock=None, draw="all"):
    """A round in progress with chosen hands; the cards not in any hand are played or stock."""
    seats = len(hands)
    state = GAME.new_match(seed=1, seats=seats, options={"draw": draw})
    state.hands = [sort_hand(h) for h in hands]
    held = {c for h in hands for c in h}
    rest = [
        c
        for c in state.stock + [c for h in GAME.new_match(1, seats).hands for c in h]
        if c not in held
    ]
    state.stock = rest if stock is None else list(stock)
    state.turn = turn
    if table is not None:
        cards, combo = table
        state.table = {
            "type": "play",
            "seat": (turn - 1) % seats,
            "cards": cards,
            "combo": combo.to_dict(),
        }
        state.trick = [state.table]
        state.log = [state.table]
    return state


def play(cards, combo=None):
    action = {"type": "play", "cards": cards}
    if combo is not None:
        action["combo"] = combo.to_dict()
    return action


def refused(state, seat, action):
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, seat, action)
    assert GAME.to_json(state) == before
    assert str(exc.value)
    return exc.value


# --- "on a single 7 you may only play an 8 — a 9 or a 10 won't do" -------------------


def test_it_follows_a_single_7_only_with_an_8():
    assert beats(single("8"), single("7"))
    assert not beats(single("9"), single("7"))
    assert not beats(single("T"), single("7"))
    assert not beats(single("6"), single("7"))
    assert not beats(single("7"), single("7"))


def test_it_refuses_a_9_on_a_7_as_not_one_higher():
    state = state_with([["9S", "8H", "3C"], ["4S", "5S"], ["6S"]], table=(["7S"], single("7")))
    err = refused(state, 0, play(["9S"]))
    assert err.code == "not_one_higher"
    assert err.params["needed"] == "8" and err.params["played"] == "9"
    assert GAME.apply(state, 0, play(["8H"])).table["cards"] == ["8H"]


def test_it_follows_a_pair_of_9s_only_with_a_pair_of_10s():
    assert beats(pair("T"), pair("9"))
    assert not beats(pair("J"), pair("9"))
    assert not beats(single("T"), pair("9"))


def test_it_follows_a_5_6_7_straight_only_with_6_7_8_of_the_same_length():
    s567 = C("straight", "5", "7", 3)
    assert beats(C("straight", "6", "8", 3), s567)
    assert not beats(C("straight", "7", "9", 3), s567)
    assert not beats(C("straight", "6", "9", 4), s567)
    state = state_with([["6S", "7S", "8S", "9S"], ["4S"], ["3S"]], table=(["5H", "6H", "7H"], s567))
    assert refused(state, 0, play(["6S", "7S", "8S", "9S"])).code == "wrong_length"
    assert refused(state, 0, play(["7S", "8S", "9S"])).code == "not_one_higher"


def test_it_lets_the_ace_follow_the_king_and_nothing_follow_the_two_but_a_bomb():
    assert beats(single("A"), single("K"))
    assert beats(pair("A"), pair("K"))
    assert not beats(single("2"), single("2"))
    assert not beats(pair("2"), pair("2"))
    assert beats(bomb("3", 3), single("2"))


# --- the 2 exceptions -----------------------------------------------------------------


def test_it_lets_a_2_beat_any_single_even_a_3():
    for r in "3456789TJQKA":
        assert beats(single("2"), single(r))
        assert beats(pair("2"), pair(r))


def test_it_does_not_let_a_single_2_beat_a_pair():
    assert not beats(single("2"), pair("3"))
    state = state_with([["2S", "4C"], ["4S"], ["3S"]], table=(["3H", "3D"], pair("3")))
    assert refused(state, 0, play(["2S"])).code == "wrong_kind"


def test_it_never_puts_a_2_in_a_straight_or_pair_run():
    assert readings(["QS", "KS", "AS"]) == [C("straight", "Q", "A", 3)]
    assert readings(["KS", "AS", "2S"]) == []
    assert readings(["AS", "2S", "3S"]) == []
    assert readings(["AS", "AH", "2S", "2H"]) == []
    state = state_with([["KS", "AS", "2S"], ["4S"], ["3S"]])
    assert refused(state, 0, play(["KS", "AS", "2S"])).code == "two_in_run"


# --- bombs: more cards first, then rank; the joker bomb -------------------------------


def test_it_orders_bombs_by_count_then_rank():
    assert beats(bomb("3", 4), bomb("A", 3))
    assert beats(bomb("3", 4), bomb("2", 3))
    assert beats(bomb("8", 3), bomb("7", 3))
    assert beats(bomb("2", 3), bomb("A", 3))
    assert not beats(bomb("7", 3), bomb("8", 3))
    assert not beats(bomb("A", 3), bomb("3", 4))
    assert not beats(bomb("7", 3), bomb("7", 3))
    assert beats(bomb("3", 5), bomb("2", 4))


def test_it_lets_a_bomb_beat_every_non_bomb_ignoring_one_higher():
    for old in (single("2"), pair("2"), C("straight", "3", "A", 12), C("pair_run", "9", "K", 10)):
        assert beats(bomb("3", 3), old)


def test_it_lets_the_joker_bomb_beat_everything_and_nothing_beat_it():
    for old in (single("2"), bomb("2", 4), bomb("9", 6), C("straight", "3", "A", 12)):
        assert beats(JOKER_BOMB, old)
        assert not beats(old, JOKER_BOMB)
    assert readings(["BJ", "RJ"]) == [JOKER_BOMB]


def test_it_counts_jokers_in_bombs_but_never_as_2s():
    assert readings(["7S", "7H", "BJ"]) == [bomb("7", 3)]
    assert bomb("7", 6) in readings(["7S", "7H", "7D", "7C", "BJ", "RJ"])
    assert readings(["2S", "2H", "BJ"]) == []
    state = state_with([["2S", "2H", "BJ", "3S"], ["4S"], ["5S"]])
    assert refused(state, 0, play(["2S", "2H", "BJ"])).code == "joker_as_two"
    assert refused(state, 0, play(["2S", "BJ"])).code == "joker_as_two"


def test_it_refuses_a_smaller_bomb_on_a_bomb():
    state = state_with(
        [["8S", "8H", "8D", "3S"], ["4S"], ["5S"]], table=(["9S", "9H", "9D", "9C"], bomb("9", 4))
    )
    assert refused(state, 0, play(["8S", "8H", "8D"])).code == "does_not_beat"


def test_it_counts_every_bomb_and_joker_bomb_for_the_multiplier():
    state = state_with([["8S", "8H", "8D", "3S"], ["BJ", "RJ", "4S"], ["5S"]])
    state = GAME.apply(state, 0, play(["8S", "8H", "8D"]))
    state = GAME.apply(state, 1, play(["BJ", "RJ"]))
    assert state.bombs == 2
    assert GAME.observation(state, 2)["base_multiplier"] == 4


# --- jokers ---------------------------------------------------------------------------


def test_it_reads_7_8_and_a_joker_as_6_7_8_and_as_7_8_9():
    assert readings(["7S", "8H", "BJ"]) == [C("straight", "6", "8", 3), C("straight", "7", "9", 3)]
    assert readings(["7S", "8H", "RJ"]) == readings(["7S", "8H", "BJ"])


def test_it_reads_jokers_at_either_end_and_inside():
    assert readings(["QS", "KS", "BJ"]) == [C("straight", "J", "K", 3), C("straight", "Q", "A", 3)]
    assert readings(["KS", "AS", "BJ"]) == [C("straight", "Q", "A", 3)]
    assert readings(["3S", "5S", "BJ"]) == [C("straight", "3", "5", 3)]
    assert readings(["7S", "BJ", "RJ"]) == [
        bomb("7", 3),
        C("straight", "5", "7", 3),
        C("straight", "6", "8", 3),
        C("straight", "7", "9", 3),
    ]
    assert readings(["7S", "7H", "8S", "BJ"]) == [C("pair_run", "7", "8", 4)]
    assert readings(["7S", "7H", "BJ", "RJ"]) == [
        bomb("7", 4),
        C("pair_run", "6", "7", 4),
        C("pair_run", "7", "8", 4),
    ]


def test_it_never_reads_a_joker_alone_or_as_a_2():
    assert readings(["BJ"]) == []
    assert readings(["RJ"]) == []
    assert readings(["2S", "BJ"]) == []
    assert readings(["AS", "BJ"]) == [pair("A")]
    state = state_with([["BJ", "3S"], ["4S"], ["5S"]])
    assert refused(state, 0, play(["BJ"])).code == "lone_joker"
    state = state_with([["BJ", "2S"], ["4S"], ["5S"]], table=(["AS"], single("A")))
    assert refused(state, 0, play(["BJ"], single("2"))).code == "malformed"


def test_it_lets_a_lone_joker_go_out_on_an_empty_stock_when_leading():
    state = state_with([["BJ"], ["4S", "5S"], ["6S"]], stock=[])
    legal = GAME.legal_actions(state, 0)
    assert legal == [{"type": "play", "cards": ["BJ"], "combo": single("BJ").to_dict()}]
    done = GAME.apply(state, 0, play(["BJ"]))
    assert GAME.hand_over(done) and done.winner == 0


def test_it_keeps_the_lone_joker_when_the_stock_is_not_empty_or_it_follows():
    state = state_with([["BJ"], ["4S", "5S"], ["6S"]], stock=["9S"])
    assert refused(state, 0, play(["BJ"])).code == "lone_joker"
    state = state_with([["BJ"], ["4S", "5S"], ["6S"]], stock=[], table=(["3S"], single("3")))
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}]
    assert refused(state, 0, play(["BJ"])).code == "lone_joker"


def test_it_lists_a_joker_play_once_whichever_joker():
    state = state_with([["7S", "8H", "BJ", "RJ"], ["4S"], ["5S"]])
    legal = GAME.legal_actions(state, 0)
    pairs_of_7 = [a for a in legal if a["combo"] == pair("7").to_dict()]
    assert pairs_of_7 == [{"type": "play", "cards": ["7S", "BJ"], "combo": pair("7").to_dict()}]
    # 7 8 + one joker: listed once per reading.
    three = [
        a
        for a in legal
        if a["combo"]["kind"] == "straight" and len(a["cards"]) == 3 and "RJ" not in a["cards"]
    ]
    assert sorted(a["combo"]["low"] for a in three if a["cards"] == ["7S", "8H", "BJ"]) == [
        "6",
        "7",
    ]


def test_it_lists_a_play_once_whatever_the_suits():
    state = state_with([["7S", "7H", "7D", "8C"], ["4S"], ["5S"]])
    singles = [a for a in GAME.legal_actions(state, 0) if a["combo"]["kind"] == "single"]
    assert [a["combo"]["low"] for a in singles] == ["7", "8"]


# --- ambiguous and malformed ------------------------------------------------------------


def test_it_asks_which_reading_when_a_selection_has_several():
    state = state_with([["7S", "8H", "BJ", "3S"], ["4S"], ["5S"]])
    err = refused(state, 0, play(["7S", "8H", "BJ"]))
    assert err.code == "ambiguous"
    assert err.params == {
        "readings": [C("straight", "6", "8", 3).to_dict(), C("straight", "7", "9", 3).to_dict()]
    }
    after = GAME.apply(state, 0, play(["7S", "8H", "BJ"], C("straight", "7", "9", 3)))
    assert after.table["combo"]["low"] == "7"
    obs = GAME.observation(after, 1)
    assert obs["table"]["jokers_as"] == {"BJ": "9"}


def test_it_takes_the_one_reading_legal_now_without_a_combo():
    # On 6-7-8 only 7-8-9 follows, so 7 8 joker needs no combo.
    state = state_with(
        [["7S", "8H", "BJ", "3S"], ["4S"], ["5S"]],
        table=(["6C", "7C", "8C"], C("straight", "6", "8", 3)),
    )
    after = GAME.apply(state, 0, play(["7S", "8H", "BJ"]))
    assert after.table["combo"] == C("straight", "7", "9", 3).to_dict()


def test_it_refuses_a_combo_that_is_not_a_reading_as_malformed():
    state = state_with([["7S", "8H", "BJ", "3S"], ["4S"], ["5S"]])
    assert (
        refused(state, 0, play(["7S", "8H", "BJ"], C("straight", "8", "T", 3))).code == "malformed"
    )
    assert refused(state, 0, play(["7S", "8H"], C("pair", "7", "7", 2))).code == "malformed"


def test_it_checks_the_common_codes_in_order():
    state = state_with([["7S", "8H", "BJ", "3S"], ["4S"], ["5S"]])
    assert refused(state, 1, play(["4S"])).code == "not_your_turn"
    assert refused(state, 0, {"type": "play", "cards": "7S"}).code == "malformed"
    assert refused(state, 0, {"type": "play", "cards": ["7S", "7S"]}).code == "malformed"
    assert refused(state, 0, play(["9S"])).code == "not_in_hand"
    assert refused(state, 0, play(["7S", "3S"])).code == "not_a_play"
    assert refused(state, 0, {"type": "pass"}).code == "pass_on_lead"


def test_it_lists_every_code_in_one_place():
    from games.engine.gandengyan import CODES

    for code in (
        "not_one_higher",
        "wrong_length",
        "wrong_kind",
        "joker_as_two",
        "lone_joker",
        "pass_on_lead",
        "not_a_play",
        "does_not_beat",
    ):
        assert code in CODES
        assert (
            str(IllegalAction(code, {"kind": "single", "rank": "7", "count": 1}))
            != f"Illegal action ({code})."
        )


# --- passing, closing a trick, drawing ---------------------------------------------------


def test_it_closes_the_trick_after_n_minus_1_passes_and_everyone_draws_from_the_winner():
    state = state_with(
        [["7S", "3S", "4S"], ["4H", "5H"], ["5D", "6D"], ["6C", "9C"]],
        stock=["AS", "AH", "AD", "AC", "KS"],
    )
    state = GAME.apply(state, 0, play(["7S"]))
    state = GAME.apply(state, 1, {"type": "pass"})
    state = GAME.apply(state, 2, {"type": "pass"})
    assert state.turn == 3 and state.table is not None
    state = GAME.apply(state, 3, {"type": "pass"})
    assert state.turn == 0 and state.table is None
    assert state.hands == [
        ["3S", "4S", "AS"],
        ["4H", "5H", "AH"],
        ["5D", "6D", "AD"],
        ["6C", "9C", "AC"],
    ]
    assert state.stock == ["KS"]
    obs = GAME.observation(state, 1)
    draws = [e for e in obs["log"] if e["type"] == "draw"]
    assert [d["seat"] for d in draws] == [0, 1, 2, 3]
    assert [d.get("cards") for d in draws] == [None, ["AH"], None, None]
    assert all(d["count"] == 1 for d in draws)


def test_it_lets_a_seat_that_passed_play_again_when_its_turn_comes_round():
    state = state_with([["7S", "3S"], ["4H", "8H"], ["9D", "6D"]], stock=["AS"])
    state = GAME.apply(state, 0, play(["7S"]))
    state = GAME.apply(state, 1, {"type": "pass"})
    state = GAME.apply(state, 2, {"type": "pass"})
    # Trick closed; 0 leads again after the draw. Now 1 passes, then plays later.
    state = GAME.apply(state, 0, play(["3S"]))
    assert GAME.legal_actions(state, 1)[-1] == {"type": "pass"}
    state = GAME.apply(state, 1, play(["4H"]))
    assert state.turn == 2


def test_it_deals_from_the_winner_on_while_the_stock_lasts_and_winner_draws_alone():
    state = state_with(
        [["7S", "3S"], ["4H", "5H"], ["5D", "6D"]],
        stock=["AS", "AH"],
        turn=2,
        table=(["6S"], single("6")),
    )
    state = GAME.apply(state, 2, {"type": "pass"})
    state = GAME.apply(state, 0, {"type": "pass"})
    assert state.turn == 1 and state.table is None
    assert (
        state.hands == [["3S", "7S"], ["4H", "5H", "AS"], ["5D", "6D", "AH"]] and state.stock == []
    )
    state = state_with(
        [["7S", "3S"], ["4H", "5H"], ["5D", "6D"]], stock=["AS", "AH"], draw="winner"
    )
    state = GAME.apply(state, 0, play(["7S"]))
    state = GAME.apply(state, 1, {"type": "pass"})
    state = GAME.apply(state, 2, {"type": "pass"})
    assert state.hands == [["3S", "AS"], ["4H", "5H"], ["5D", "6D"]] and state.stock == ["AH"]


def test_it_ends_the_round_the_moment_a_hand_is_empty():
    state = state_with([["7S"], ["8H", "5H"], ["5D", "6D"]], stock=["AS", "AH"])
    state = GAME.apply(state, 0, play(["7S"]))
    assert GAME.hand_over(state) and GAME.to_move(state) == []
    assert state.winner == 0 and state.stock == ["AS", "AH"]
    assert GAME.hand_result(state)["scores"] == [8, -4, -4]  # 2 cards × 2 for spring each


# --- the deal ---------------------------------------------------------------------------


def test_it_deals_6_to_the_dealer_5_to_the_others_and_the_winner_deals_next():
    for seats in (2, 3, 4):
        state = GAME.new_match(seed=5, seats=seats)
        assert [len(h) for h in state.hands] == [6] + [5] * (seats - 1)
        assert len(state.stock) == 54 - 6 - 5 * (seats - 1)
        assert GAME.to_move(state) == [0]
    nxt = GAME.next_hand(
        GAME.apply(state_with([["7S", "3S"], ["8H"], ["5D", "6D"]], turn=1), 1, play(["8H"]))
    )
    assert nxt.dealer == 1 and GAME.to_move(nxt) == [1]
    assert [len(h) for h in nxt.hands] == [5, 6, 5]
    assert nxt.round == 2


def test_it_refuses_unknown_options_and_seat_counts():
    with pytest.raises(ValueError):
        GAME.new_match(1, 5)
    with pytest.raises(ValueError):
        GAME.new_match(1, 3, {"draw": "loser"})
    assert GAME.new_match(1, 3, {"draw": "winner"}).draw == "winner"


# --- settlement -------------------------------------------------------------------------


def test_it_settles_the_worked_example():
    # Four players, seat 2 goes out, two bombs played (base ×4).
    hands = [["3S", "4S", "5S", "6S"], ["3H", "4H", "BJ"], [], ["3D", "4D", "5D", "6D", "7D"]]
    assert settle(2, hands, 2, [True, True, True, False]) == [-16, -24, 80, -40]


def test_it_caps_the_worked_example_at_64():
    hands = [["3S", "4S", "5S", "6S"], ["3H", "4H", "9C"], [], ["3D", "4D", "5D", "BJ", "RJ"]]
    scores = settle(2, hands, 4, [True, True, True, False])
    assert scores[3] == -320
    assert sum(scores) == 0


def test_it_shows_every_factor_in_the_breakdown():
    state = state_with([["7S"], ["8H", "BJ"], ["5D", "6D", "6H"]])
    state.bombs = 1
    state.played = [True, True, False]
    state = GAME.apply(state, 0, play(["7S"]))
    result = GAME.hand_result(state)
    seat1, seat2 = result["breakdown"][1], result["breakdown"][2]
    assert (seat1["cards_left"], seat1["bomb_factor"], seat1["spring"], seat1["joker_factor"]) == (
        2,
        2,
        False,
        2,
    )
    assert (seat1["product"], seat1["multiplier"], seat1["payment"]) == (4, 4, 8)
    assert (seat2["spring_factor"], seat2["product"], seat2["payment"]) == (2, 4, 12)
    assert result["breakdown"][0]["winner"] and result["scores"] == [20, -8, -12]
    assert GAME.totals(state) == [20, -8, -12]


# --- observation ------------------------------------------------------------------------


def test_it_states_what_beats_the_table():
    state = state_with([["8S", "2H", "3C"], ["4S", "5S"], ["6S"]], table=(["7S"], single("7")))
    obs = GAME.observation(state, 0)
    req = obs["requirement"]
    assert (req["kind"], req["rank"], req["one_higher"], req["two_beats"], req["bomb_beats"]) == (
        "single",
        "7",
        "8",
        True,
        True,
    )
    assert obs["table"]["seat"] == 2
    assert obs["playable"] == ["8S", "2H"]
    assert {a["type"] for a in obs["legal"]} == {"play", "pass"}
    req = GAME.observation(state_with([["8S"], ["4S"], ["6S"]], table=(["AS"], single("A"))), 0)[
        "requirement"
    ]
    assert req["one_higher"] is None and req["two_beats"]
    req = GAME.observation(
        state_with(
            [["8S"], ["4S"], ["6S"]], table=(["5S", "6S", "7S"], C("straight", "5", "7", 3))
        ),
        0,
    )["requirement"]
    assert (req["one_higher"], req["one_higher_high"], req["two_beats"]) == ("6", "8", False)


def test_it_tracks_unseen_2s_and_jokers_from_public_facts_and_the_own_hand():
    state = state_with([["2S", "BJ", "3C"], ["2H", "5S"], ["RJ"]])
    obs = GAME.observation(state, 0)
    assert obs["tracker"] == {"2": 3, "jokers": 1}
    state = GAME.apply(
        state_with([["2S", "2D", "3C"], ["2H", "5S"], ["RJ", "4C"]]), 0, play(["2S", "2D"])
    )
    assert GAME.observation(state, 1)["tracker"] == {"2": 1, "jokers": 2}
    assert GAME.observation(state, 0)["tracker"] == {"2": 2, "jokers": 2}
