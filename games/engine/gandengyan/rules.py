"""Turns, legal plays, passing, drawing and the end of a round ("Rules & variants": following,
drawing, the first player out; RULINGS.md, Gan Deng Yan: passing, the draw switch, the lone
last joker, the round ending the moment a hand is empty)."""

from __future__ import annotations

from typing import Any

from games.engine.base import Combo, IllegalAction
from games.engine.cards import JOKERS
from games.engine.gandengyan import actions, scoring
from games.engine.gandengyan.combos import (
    BOMB,
    INDEX,
    JOKER_BOMB,
    ORDER,
    PAIR,
    RUN_KINDS,
    SINGLE,
    TWO,
    Play,
    beats,
    combo_of,
    counts_of,
    follow_plays,
    lead_plays,
    one_higher,
    readings_of_counts,
)
from games.engine.gandengyan.state import State, sort_hand


def table_combo(state: State) -> Combo | None:
    return combo_of(state.table["combo"]) if state.table else None


def lone_joker_combo(card: str) -> Combo:
    return Combo(SINGLE, card, card, 1)


def may_go_out_on_joker(state: State, seat: int) -> bool:
    """The one exception to "never alone": the stock is empty, the seat leads and its last
    card is a joker."""
    hand = state.hands[seat]
    return state.table is None and not state.stock and len(hand) == 1 and hand[0] in JOKERS


def legal_plays(state: State, seat: int) -> list[Play]:
    """The seat's legal plays up to suit and joker (empty when it is not the seat's turn)."""
    if state.turn != seat:
        return []
    hand = state.hands[seat]
    if may_go_out_on_joker(state, seat):
        return [(lone_joker_combo(hand[0]), (), 1)]
    counts, jokers = counts_of(hand)
    table = table_combo(state)
    return lead_plays(counts, jokers) if table is None else follow_plays(counts, jokers, table)


def cards_for(hand: list[str], play: Play) -> list[str]:
    """One concrete selection for a play: the first cards of each rank in the (sorted) hand,
    the small joker before the big one."""
    return _selector(hand)(play)


def _selector(hand: list[str]):
    by_rank: list[list[str]] = [[] for _ in range(13)]
    jokers: list[str] = []
    for card in hand:
        if card in JOKERS:
            jokers.append(card)
        else:
            by_rank[INDEX[card[0]]].append(card)

    def select(play: Play) -> list[str]:
        used, wild = play[1], play[2]
        if len(used) == 1:
            r, n = used[0]
            return by_rank[r][:n] + jokers[:wild]
        out = [card for r, n in used for card in by_rank[r][:n]]
        if wild:
            out += jokers[:wild]
        return out

    return select


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    out = []
    plays = legal_plays(state, seat)
    if plays:
        select = _selector(state.hands[seat])
        last = None
        for play in plays:
            # Plays of one reading come together, as one shared Combo (combos.SINGLES …).
            if play[0] is not last:
                last = play[0]
                shape = last.to_dict()
            out.append({"type": "play", "cards": select(play), "combo": shape.copy()})
    if state.turn == seat and state.table is not None:
        out.append({"type": "pass"})
    return out


# --- apply ----------------------------------------------------------------------------


def apply(state: State, seat: int, action: Any) -> State:
    move = _checked(state, seat, action)
    if move is None:
        return _pass(state, seat)
    return _play(state, seat, *move)


def read(state: State, seat: int, action: Any) -> dict[str, Any]:
    """The action as the engine reads it: the legal action it is, in the shape
    ``legal_actions`` lists (a play names its combo; its cards in the hand's order).
    Refused exactly as ``apply`` would refuse it."""
    move = _checked(state, seat, action)
    if move is None:
        return {"type": "pass"}
    cards, combo = move
    return {"type": "play", "cards": sort_hand(cards), "combo": combo.to_dict()}


def _checked(state: State, seat: int, action: Any) -> tuple[list[str], Combo] | None:
    """A legal action's cards and reading (None for a pass), or the refusal, in the
    contract's order of codes."""
    if state.turn is None or seat != state.turn:
        raise IllegalAction("not_your_turn", {})
    kind, cards, combo = actions.parse(action)
    if kind == "pass":
        if state.table is None:
            raise IllegalAction("pass_on_lead", {})
        return None
    hand = state.hands[seat]
    missing = [c for c in cards if c not in hand]
    if missing:
        raise IllegalAction("not_in_hand", {"cards": missing})
    return cards, choose_reading(state, seat, cards, combo)


def choose_reading(state: State, seat: int, cards: list[str], combo: Combo | None) -> Combo:
    """The reading a play is made under, or the reason it is refused."""
    counts, jokers = counts_of(cards)
    found = readings_of_counts(counts, jokers)
    table = table_combo(state)
    if len(cards) == 1 and cards[0] in JOKERS:
        lone = lone_joker_combo(cards[0])
        if combo is not None and combo != lone:
            raise IllegalAction("malformed", {})
        if not may_go_out_on_joker(state, seat):
            raise IllegalAction("lone_joker", {})
        return lone
    if combo is not None:
        if combo not in found:
            raise IllegalAction("malformed", {})
        if table is not None and not beats(combo, table):
            raise refusal([combo], table)
        return combo
    if not found:
        raise unreadable(counts, jokers)
    legal = found if table is None else [c for c in found if beats(c, table)]
    if len(legal) > 1:
        raise IllegalAction("ambiguous", {"readings": [c.to_dict() for c in legal]})
    if not legal:
        raise refusal(found, table)
    return legal[0]


def unreadable(counts: list[int], jokers: int) -> IllegalAction:
    """Why a selection is no play at all."""
    if counts[TWO]:
        if jokers:
            as_twos = list(counts)
            as_twos[TWO] += jokers
            if readings_of_counts(as_twos, 0):
                return IllegalAction("joker_as_two", {})
        if readings_of_counts(counts, jokers, two_in_runs=True):
            return IllegalAction("two_in_run", {})
    return IllegalAction("not_a_play", {})


def refusal(found: list[Combo], table: Combo) -> IllegalAction:
    """Why none of a selection's readings beats the table: the closest miss decides."""
    params = {"kind": table.kind, "rank": table.low, "count": table.count}
    same_kind = [c for c in found if c.kind == table.kind]
    if table.kind in (BOMB, JOKER_BOMB) or any(c.kind in (BOMB, JOKER_BOMB) for c in found):
        return IllegalAction("does_not_beat", params)
    same_length = [c for c in same_kind if c.count == table.count]
    if same_length:
        needed = one_higher(table.low)
        if table.kind in (SINGLE, PAIR) and table.low == "2":
            return IllegalAction("does_not_beat", params)
        return IllegalAction(
            "not_one_higher", {**params, "needed": needed, "played": same_length[0].low}
        )
    if same_kind:
        return IllegalAction("wrong_length", {**params, "played_count": same_kind[0].count})
    return IllegalAction("wrong_kind", {**params, "played_kind": found[0].kind})


def _next(state: State, seat: int) -> int:
    return (seat + 1) % state.seats


def _play(state: State, seat: int, cards: list[str], combo: Combo) -> State:
    new = state.copy()
    hand = new.hands[seat]
    for card in cards:
        hand.remove(card)
    entry = {"type": "play", "seat": seat, "cards": sort_hand(cards), "combo": combo.to_dict()}
    new.trick.append(entry)
    new.log.append(entry)
    new.table = entry
    new.passes = 0
    new.played[seat] = True
    if combo.kind in (BOMB, JOKER_BOMB):
        new.bombs += 1
    if not hand:
        _end_round(new, seat)
    else:
        new.turn = _next(new, seat)
    return new


def _pass(state: State, seat: int) -> State:
    new = state.copy()
    entry = {"type": "pass", "seat": seat}
    new.trick.append(entry)
    new.log.append(entry)
    new.passes += 1
    if new.passes < new.seats - 1:
        new.turn = _next(new, seat)
        return new
    # n − 1 passes in a row: the trick closes, the stock pays out, the winner leads.
    winner = new.table["seat"]
    new.log.append({"type": "trick_won", "seat": winner})
    drawers = (
        [winner] if new.draw == "winner" else [(winner + k) % new.seats for k in range(new.seats)]
    )
    for drawer in drawers:
        if not new.stock:
            break
        card = new.stock.pop(0)
        new.hands[drawer] = sort_hand([*new.hands[drawer], card])
        new.log.append({"type": "draw", "seat": drawer, "cards": [card]})
    new.table = None
    new.trick = []
    new.passes = 0
    new.turn = winner
    return new


def _end_round(state: State, winner: int) -> None:
    state.turn = None
    state.winner = winner
    rows = scoring.breakdown(winner, state.hands, state.bombs, state.played)
    scores = [row["score"] for row in rows]
    state.result = {"winner": winner, "scores": scores, "breakdown": rows}
    state.totals = [t + s for t, s in zip(state.totals, scores, strict=True)]
    state.log.append({"type": "round_won", "seat": winner})


def requirement(table: Combo | None) -> dict[str, Any] | None:
    """What beats the table, in a form a status line can say in any language:
    "To beat single 7: only 8 · or a 2 · or a bomb"."""
    if table is None:
        return None
    req: dict[str, Any] = {
        "kind": table.kind,
        "low": table.low,
        "high": table.high,
        "count": table.count,
    }
    if table.kind == JOKER_BOMB:
        return {
            **req,
            "one_higher": None,
            "two_beats": False,
            "bomb_beats": False,
            "min_bomb": None,
        }
    if table.low not in INDEX:  # the lone last joker: the round is already over
        return {
            **req,
            "one_higher": None,
            "two_beats": False,
            "bomb_beats": False,
            "min_bomb": None,
        }
    if table.kind == BOMB:
        # A bigger bomb: more cards, or as many cards of a higher rank (the joker bomb always).
        r = INDEX[table.low]
        min_bomb = (
            {"count": table.count, "above": table.low}
            if r < TWO
            else {"count": table.count + 1, "above": None}
        )
        return {
            **req,
            "rank": table.low,
            "one_higher": None,
            "two_beats": False,
            "bomb_beats": True,
            "min_bomb": min_bomb,
        }
    up = one_higher(table.low)
    one = None
    if up is not None and table.kind in RUN_KINDS:
        length = table.count if table.kind == "straight" else table.count // 2
        top = INDEX[up] + length - 1
        one = {"low": up, "high": ORDER[top]} if top < TWO else None
    elif up is not None:
        one = {"low": up, "high": up}
    return {
        **req,
        "rank": table.low,
        "one_higher": one["low"] if one else None,
        "one_higher_high": one["high"] if one else None,
        "two_beats": table.kind in (SINGLE, PAIR) and table.low != "2",
        "bomb_beats": True,
        "min_bomb": {"count": 3, "above": None},
    }
