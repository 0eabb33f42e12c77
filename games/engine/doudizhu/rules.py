"""The course of a Dou Dizhu hand (RULINGS.md, Dou Dizhu: the deal, the bidding, the kitty,
leading and following, passes, the end of the hand and of the match).
"""

from __future__ import annotations

import copy
from itertools import combinations

from games.engine.base import IllegalAction
from games.engine.cards import FULL_DECK, check_deal
from games.engine.doudizhu import scoring
from games.engine.doudizhu.actions import parse
from games.engine.doudizhu.bidding import after_bid, allowed_bids, passed
from games.engine.doudizhu.combos import (
    ACE,
    AIRPLANE_MIN,
    BJ,
    CARD_INDEX,
    CHAIN_MAX,
    CHAIN_MIN,
    NRANKS,
    PAIR_CHAIN_MIN,
    RANK_NAMES,
    RJ,
    TWO,
    _all_runs,
    beats_key,
    combo_key,
    counts_of,
    follows,
    leads,
    move_key,
    read_counts,
    to_combo,
)
from games.engine.doudizhu.state import (
    DEFAULT_HANDS,
    MATCH_LENGTHS,
    SEATS,
    State,
    deal,
    sort_cards,
)

PASS = {"type": "pass"}


def _hands_option(options) -> int:
    options = options or {}
    hands = options.get("hands", DEFAULT_HANDS)
    if hands not in MATCH_LENGTHS or isinstance(hands, bool):
        raise ValueError(f"hands must be one of {MATCH_LENGTHS}")
    return hands


def _fresh_hand(seed, hands_in_match, hand_number, deal_number, dealer, totals, redeals=0) -> State:
    hands, kitty = deal(seed, deal_number)
    return State(
        seed=seed,
        hands_in_match=hands_in_match,
        hand_number=hand_number,
        deal_number=deal_number,
        dealer=dealer,
        hands=hands,
        kitty=kitty,
        phase="bidding",
        turn=(dealer + 1) % SEATS,
        redeals=redeals,
        totals=list(totals),
    )


def new_match(seed: int, seats: int = SEATS, options: dict | None = None) -> State:
    if seats != SEATS:
        raise ValueError("Dou Dizhu is played by three")
    return _fresh_hand(seed, _hands_option(options), 1, 0, 0, [0, 0, 0])


def new_match_from_deal(
    deal: dict, dealer: int = 0, options: dict | None = None, seed: int = 0
) -> State:
    """A match whose first hand is ``deal`` (a ``dealt`` record: three hands and the kitty),
    the bidding opened by the seat after ``dealer``. ``seed`` deals the rest: a deal thrown in
    when everyone passes, and the hands after it."""
    hands, kitty = deal.get("hands") or [], deal.get("kitty") or []
    if len(hands) != SEATS or any(len(h) != 17 for h in hands) or len(kitty) != 3:
        raise ValueError("a Dou Dizhu deal is three hands of 17 and a kitty of 3")
    if dealer not in range(SEATS):
        raise ValueError("the dealer is one of the three seats")
    check_deal([c for h in hands for c in h] + list(kitty), FULL_DECK)
    state = _fresh_hand(seed, _hands_option(options), 1, 0, dealer, [0, 0, 0])
    state.hands = [sort_cards(h) for h in hands]
    state.kitty = sort_cards(kitty)
    return state


def new_match_fixed(
    seed: int, landlord: int = 0, bid: int = 1, options: dict | None = None
) -> State:
    """A match whose first hand skips the bidding: ``landlord`` holds the bid ``bid``.

    Not part of the contract: benchmarks against engines that deal the landlord role
    without an auction (RLCard) start here. The deal is the same as ``new_match``'s first
    deal of that seed; the kitty is shown and joins the landlord, who leads.
    """
    if landlord not in range(SEATS) or bid not in (1, 2, 3):
        raise ValueError("landlord is a seat, bid is 1, 2 or 3")
    state = _fresh_hand(seed, _hands_option(options), 1, 0, 0, [0, 0, 0])
    state.fixed = True
    _make_landlord(state, landlord, bid)
    return state


def _make_landlord(state: State, seat: int, bid: int) -> None:
    state.landlord = seat
    state.bid = bid
    state.hands[seat] = sort_cards(state.hands[seat] + state.kitty)
    state.phase = "playing"
    state.turn = seat
    state.table = None
    state.passes = 0


# --------------------------------------------------------------------------- queries


def to_move(state: State) -> list[int]:
    return [] if state.phase == "over" else [state.turn]


def moves(state: State) -> list:
    """The internal moves (combos.Move) open to the seat to move, passes excluded."""
    counts = counts_of(state.hands[state.turn])
    if state.table is None:
        return leads(counts)
    return follows(counts, move_key(state.table[2]))


_SAME_RANK = frozenset(("solo", "pair", "trio", "bomb"))
_RUNS = {"chain": 1, "pair_chain": 2, "airplane": 3}


def play_dicts(hand, move_list) -> list[dict]:
    """Moves as the contract's play actions (the lowest suits of each rank)."""
    index = CARD_INDEX
    by_rank: list[list[str]] = [[] for _ in RANK_NAMES]
    for card in hand:
        by_rank[index[card]].append(card)
    names = RANK_NAMES
    same_rank, runs = _SAME_RANK, _RUNS
    out = []
    append = out.append
    for kind, low, length, ranks in move_list:
        n = len(ranks)
        if kind in same_rank:
            append(
                {
                    "type": "play",
                    "cards": by_rank[low][:n],
                    "combo": {"kind": kind, "low": names[low], "high": names[low], "count": n},
                }
            )
            continue
        need = runs.get(kind)
        if need == 1:
            cards = [by_rank[r][0] for r in ranks]
        elif need:
            cards = []
            for r in range(low, low + length):
                cards += by_rank[r][:need]
        else:
            cards = []
            prev = i = -1
            for r in ranks:
                if r == prev:
                    i += 1
                else:
                    i = 0
                    prev = r
                cards.append(by_rank[r][i])
        if kind == "rocket":
            combo = {"kind": kind, "low": None, "high": None, "count": 2}
        else:
            combo = {"kind": kind, "low": names[low], "high": names[low + length - 1], "count": n}
        append({"type": "play", "cards": cards, "combo": combo})
    return out


def lead_dicts(hand) -> list[dict]:
    """``play_dicts(hand, leads(counts))`` built in one pass, the same list in the same order.

    The opening lead of a full hand lists the most plays, so its dicts are built straight
    from the cards of each rank, without the intermediate moves.
    """
    index = CARD_INDEX
    by_rank: list[list[str]] = [[] for _ in RANK_NAMES]
    for card in hand:
        by_rank[index[card]].append(card)
    c = [len(cards) for cards in by_rank]
    names = RANK_NAMES
    out: list[dict] = []
    add = out.append
    present = [r for r in range(NRANKS) if c[r]]
    pairs = [r for r in range(TWO + 1) if c[r] >= 2]
    trios = [r for r in range(TWO + 1) if c[r] >= 3]
    for r in present:
        name = names[r]
        add(
            {
                "type": "play",
                "cards": by_rank[r][:1],
                "combo": {"kind": "solo", "low": name, "high": name, "count": 1},
            }
        )
    for r in pairs:
        name = names[r]
        add(
            {
                "type": "play",
                "cards": by_rank[r][:2],
                "combo": {"kind": "pair", "low": name, "high": name, "count": 2},
            }
        )
    for r in trios:
        name = names[r]
        add(
            {
                "type": "play",
                "cards": by_rank[r][:3],
                "combo": {"kind": "trio", "low": name, "high": name, "count": 3},
            }
        )
    for r in trios:
        name = names[r]
        main = by_rank[r][:3]
        proto = {"kind": "trio_solo", "low": name, "high": name, "count": 4}
        for k in present:
            if k != r:
                kick = by_rank[k][:1]
                add(
                    {
                        "type": "play",
                        "cards": kick + main if k < r else main + kick,
                        "combo": proto.copy(),
                    }
                )
    for r in trios:
        name = names[r]
        main = by_rank[r][:3]
        proto = {"kind": "trio_pair", "low": name, "high": name, "count": 5}
        for k in pairs:
            if k != r:
                kick = by_rank[k][:2]
                add(
                    {
                        "type": "play",
                        "cards": kick + main if k < r else main + kick,
                        "combo": proto.copy(),
                    }
                )
    for low, length in _all_runs(c, 1, CHAIN_MIN, CHAIN_MAX):
        add(
            {
                "type": "play",
                "cards": [by_rank[r][0] for r in range(low, low + length)],
                "combo": {
                    "kind": "chain",
                    "low": names[low],
                    "high": names[low + length - 1],
                    "count": length,
                },
            }
        )
    for low, length in _all_runs(c, 2, PAIR_CHAIN_MIN, 12):
        cards = []
        for r in range(low, low + length):
            cards += by_rank[r][:2]
        add(
            {
                "type": "play",
                "cards": cards,
                "combo": {
                    "kind": "pair_chain",
                    "low": names[low],
                    "high": names[low + length - 1],
                    "count": 2 * length,
                },
            }
        )
    n = len(hand)
    for length in range(AIRPLANE_MIN, 7):
        if 3 * length > n:
            break
        lows = [
            low
            for low in range(0, ACE - length + 2)
            if all(c[r] >= 3 for r in range(low, low + length))
        ]
        if not lows:
            break
        planes = {}
        for low in lows:
            cards = []
            for r in range(low, low + length):
                cards += by_rank[r][:3]
            planes[low] = cards
            add(
                {
                    "type": "play",
                    "cards": list(cards),
                    "combo": {
                        "kind": "airplane",
                        "low": names[low],
                        "high": names[low + length - 1],
                        "count": 3 * length,
                    },
                }
            )
        for kind, per, take in (("airplane_solo", 4, 1), ("airplane_pair", 5, 2)):
            if per * length > n:
                continue
            for low in lows:
                high = low + length
                plane = planes[low]
                proto = {
                    "kind": kind,
                    "low": names[low],
                    "high": names[high - 1],
                    "count": per * length,
                }
                if take == 1:
                    cand = [r for r in present if not low <= r < high]
                else:
                    cand = [r for r in pairs if not low <= r < high]
                for wings in combinations(cand, length):
                    if take == 1 and wings[-1] == RJ and wings[-2] == BJ:
                        continue
                    below, above = [], []
                    for w in wings:
                        if w < low:
                            below += by_rank[w][:take]
                        else:
                            above += by_rank[w][:take]
                    add({"type": "play", "cards": below + plane + above, "combo": proto.copy()})
    if 4 in c:
        quads = [r for r in range(TWO + 1) if c[r] == 4]
        for kind, take in (("four_two_solo", 1), ("four_two_pair", 2)):
            for r in quads:
                name = names[r]
                quad = by_rank[r]
                proto = {"kind": kind, "low": name, "high": name, "count": 4 + 2 * take}
                cand = [x for x in (present if take == 1 else pairs) if x != r]
                for a, b in combinations(cand, 2):
                    if a == BJ and b == RJ:
                        continue
                    ka, kb = by_rank[a][:take], by_rank[b][:take]
                    if b < r:
                        cards = ka + kb + quad
                    elif a < r:
                        cards = ka + quad + kb
                    else:
                        cards = quad + ka + kb
                    add({"type": "play", "cards": cards, "combo": proto.copy()})
        for r in quads:
            name = names[r]
            add(
                {
                    "type": "play",
                    "cards": list(by_rank[r]),
                    "combo": {"kind": "bomb", "low": name, "high": name, "count": 4},
                }
            )
    if c[BJ] and c[RJ]:
        add(
            {
                "type": "play",
                "cards": ["BJ", "RJ"],
                "combo": {"kind": "rocket", "low": None, "high": None, "count": 2},
            }
        )
    return out


def legal_actions(state: State, seat: int) -> list[dict]:
    if state.phase == "over" or seat != state.turn:
        return []
    if state.phase == "bidding":
        return [{"type": "bid", "value": v} for v in allowed_bids(state.bid)]
    if state.table is None:
        return lead_dicts(state.hands[seat])
    actions = play_dicts(state.hands[seat], moves(state))
    actions.append(dict(PASS))
    return actions


def hand_over(state: State) -> bool:
    return state.phase == "over"


def match_over(state: State) -> bool:
    return state.phase == "over" and state.hand_number >= state.hands_in_match


def hand_result(state: State) -> dict:
    if state.phase != "over":
        raise IllegalAction("hand_not_over")
    return copy.deepcopy(state.result)


def totals(state: State) -> list[int]:
    return list(state.totals)


def next_hand(state: State) -> State:
    if match_over(state):
        raise IllegalAction("match_over")
    if state.phase != "over":
        raise IllegalAction("hand_not_over")
    return _fresh_hand(
        state.seed,
        state.hands_in_match,
        state.hand_number + 1,
        state.deal_number + 1,
        (state.dealer + 1) % SEATS,
        state.totals,
    )


# --------------------------------------------------------------------------- apply


def apply(state: State, seat: int, action: dict) -> State:
    if state.phase == "over" or seat != state.turn:
        raise IllegalAction("not_your_turn", {"to_move": to_move(state)})
    kind, payload, combo = parse(action)
    if kind == "bid":
        return _bid(state, seat, payload)
    if kind == "pass":
        if state.phase == "bidding":
            raise IllegalAction("still_bidding")
        if state.table is None:
            raise IllegalAction("pass_on_lead")
        return _pass(state, seat)
    return _play(state, seat, payload, combo)


def bid_error(state: State, seat: int, value: int) -> IllegalAction | None:
    """Why ``seat`` may not bid ``value`` now, or None (RULINGS: bidding)."""
    if state.phase != "bidding":
        return IllegalAction("not_bidding_phase")
    if seat in passed(state.bids):
        return IllegalAction("already_passed")
    if value not in (0, 1, 2, 3):
        return IllegalAction("bid_out_of_range", {"value": value})
    if value and value <= state.bid:
        return IllegalAction("bid_too_low", {"value": value, "current": state.bid})
    return None


def _bid(state: State, seat: int, value: int) -> State:
    error = bid_error(state, seat, value)
    if error is not None:
        raise error
    new = state.clone()
    new.bids.append((seat, value))
    if value:
        new.bid = value
    course, who = after_bid(new.bids, new.bid)
    if course == "landlord":
        _make_landlord(new, who, new.bid)
    elif course == "thrown_in":
        # all three passed: the cards are dealt again at once, same dealer, same hand
        hands, kitty = deal(new.seed, new.deal_number + 1)
        new.deal_number += 1
        new.redeals += 1
        new.hands, new.kitty = hands, kitty
        new.bids = []
        new.bid = 0
        new.turn = (new.dealer + 1) % SEATS
    else:
        new.turn = who
    return new


def _pass(state: State, seat: int) -> State:
    new = state.clone()
    new.plays.append((seat, None, None))
    new.passes += 1
    new.turn = (seat + 1) % SEATS
    if new.passes == SEATS - 1:
        # two passes in a row: the last seat to play leads (and it is its turn now)
        new.table = None
        new.passes = 0
    return new


def read(state: State, seat: int, action: dict) -> dict:
    """The action as the engine reads it: the legal action it is, in the shape
    ``legal_actions`` lists (a play names its combo; its cards in the hand's order).
    Refused exactly as ``apply`` would refuse it."""
    if state.phase == "over" or seat != state.turn:
        raise IllegalAction("not_your_turn", {"to_move": to_move(state)})
    kind, payload, combo = parse(action)
    if kind == "bid":
        error = bid_error(state, seat, payload)
        if error is not None:
            raise error
        return {"type": "bid", "value": payload}
    if kind == "pass":
        if state.phase == "bidding":
            raise IllegalAction("still_bidding")
        if state.table is None:
            raise IllegalAction("pass_on_lead")
        return {"type": "pass"}
    move = _reading(state, seat, payload, combo)
    return {"type": "play", "cards": list(sort_cards(payload)), "combo": to_combo(move).to_dict()}


def _reading(state: State, seat: int, cards: list[str], combo):
    """The one legal reading (a combos.Move) of ``cards`` played by ``seat`` now."""
    selection = read_counts(counts_of(cards)) if cards else []
    if combo is not None:
        key = combo_key(combo)
        chosen = [m for m in selection if move_key(m) == key]
        if not chosen:
            raise IllegalAction("malformed", {"reason": "not_a_reading"})
        selection = chosen
    hand = state.hands[seat]
    missing = [c for c in cards if c not in hand]
    if missing:
        raise IllegalAction("not_in_hand", {"cards": missing})
    if state.phase == "bidding":
        raise IllegalAction("still_bidding")
    if not selection:
        raise IllegalAction("not_a_combination", {"cards": list(cards)})
    table = None if state.table is None else move_key(state.table[2])
    legal = [m for m in selection if table is None or beats_key(move_key(m), table)]
    if len(legal) > 1:
        raise IllegalAction("ambiguous", {"readings": [to_combo(m).to_dict() for m in legal]})
    if not legal:
        raise _why_not(move_key(selection[0]), table)
    return legal[0]


def _play(state: State, seat: int, cards: list[str], combo) -> State:
    move = _reading(state, seat, cards, combo)
    hand = state.hands[seat]
    new = state.clone()
    left = list(hand)
    for c in cards:
        left.remove(c)
    new.hands[seat] = tuple(left)
    played = sort_cards(cards)
    new.table = (seat, played, move)
    new.passes = 0
    new.plays.append((seat, played, move))
    new.played_count[seat] += 1
    if move[0] in ("bomb", "rocket"):
        new.bombs += 1
    if not left:
        _finish(new, seat)
    else:
        new.turn = (seat + 1) % SEATS
    return new


def _why_not(key, table) -> IllegalAction:
    if table[0] != "rocket" and key[0] not in ("bomb", "rocket"):
        if key[0] != table[0]:
            return IllegalAction("wrong_kind", {"kind": table[0], "played": key[0]})
        if key[3] != table[3] or key[2] != table[2]:
            return IllegalAction("wrong_count", {"count": table[3], "played": key[3]})
    return IllegalAction("does_not_beat", {"kind": table[0]})


def _finish(state: State, winner: int) -> None:
    state.phase = "over"
    state.winner = winner
    state.turn = winner
    state.table = None
    state.result = scoring.settle(
        state.landlord,
        winner,
        state.bid,
        state.bombs,
        state.played_count,
        [len(h) for h in state.hands],
    )
    state.totals = [t + s for t, s in zip(state.totals, state.result["scores"], strict=True)]
