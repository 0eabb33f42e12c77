"""Gan Deng Yan's plug-in for the benchmark harness.

``legal_scenarios`` builds the positions on which ``enginebench`` times ``legal_actions``:
the largest hands the rules allow (two seats, everyone drawing: hands pass 25 cards, both
jokers held) and hands of 20 cards with both jokers. They come from real rounds in which the
jokers are dealt to seat 1 and the other seat keeps leading its lowest single while seat 1
keeps passing, so seat 1 takes a card on every closed trick; each such position is also
offered with seat 1 on lead, the costly case.
``bot_options`` leaves the levels' budgets to the bots; ``players`` names the benchmark-only ``perfect``,
which sees every hand and the stock (games/bench/gandengyan_perfect.py).
"""

from __future__ import annotations

import random

from games.engine import get_game
from games.engine.cards import JOKERS
from games.engine.gandengyan.combos import card_order


def bot_options(level: str) -> dict:
    # Hard's default budget (deals per decision, by table size) lives in the bot, so botmatch
    # measures the Hard that players meet; --budget or hard:samples=N overrides it.
    return {}


def players() -> dict:
    """Benchmark-only players: ``perfect``, Hard's search on the true deal."""
    from games.bench.gandengyan_perfect import GanDengYanPerfect

    return {"perfect": GanDengYanPerfect}


def _grow(seed: int, target: int):
    """Play a two-seat everyone-draws round until seat 1 holds ``target`` cards with both
    jokers; the position (seat 1 to follow) or None if the stock ran dry first."""
    game = get_game("gandengyan")
    state = game.new_match(seed=seed, seats=2, options={"draw": "all"})
    # Re-deal the jokers to seat 1: a legal deal, just not this seed's.
    for joker in JOKERS:
        if joker in state.hands[1]:
            continue
        holder = state.hands[0] if joker in state.hands[0] else state.stock
        swap = next(c for c in state.hands[1] if c not in JOKERS)
        holder[holder.index(joker)] = swap
        state.hands[1][state.hands[1].index(swap)] = joker
        state.hands = [sorted(h, key=card_order) for h in state.hands]
    while not game.hand_over(state):
        (seat,) = game.to_move(state)
        if seat == 1 and len(state.hands[1]) >= target and state.table is not None:
            return state
        legal = game.legal_actions(state, seat)
        if seat == 0:
            plays = [a for a in legal if a["type"] == "play" and a["combo"]["kind"] == "single"]
            action = plays[0] if plays and len(state.hands[0]) > 1 else legal[0]
            if state.table is not None:
                action = {"type": "pass"}
        else:
            action = {"type": "pass"} if state.table is not None else legal[0]
        state = game.apply(state, seat, action)
    return None


def _positions(rng: random.Random, count: int, target: int, exact: bool) -> list[tuple]:
    out: list[tuple] = []
    tries = 0
    while len(out) < count and tries < count * 20:
        tries += 1
        state = _grow(rng.randrange(1 << 30), target)
        if state is None or (exact and len(state.hands[1]) != target):
            continue
        out.append((state, 1))
        if len(out) < count:
            lead = state.copy()
            lead.table, lead.trick, lead.passes = None, [], 0
            out.append((lead, 1))
    return out


def legal_scenarios(rng: random.Random, count: int) -> dict[str, list[tuple]]:
    return {
        "largest hands": _positions(rng, count, 26, exact=False),
        "20 cards with both jokers": _positions(rng, count, 20, exact=True),
    }


def _lead(cards: list[str], rng: random.Random) -> list[str]:
    """Any non-joker is a single; holding only jokers, all of them (the joker bomb, or the
    last-card exception)."""
    plain = [c for c in cards if c not in JOKERS]
    return [rng.choice(plain)] if plain else cards


def load_move(html: str, rng: random.Random) -> dict | None:
    """The load client's move on this board (loadbench), or None when it is not the human's
    turn: pass when following, else lead a single card (``_lead``)."""
    from games.bench import load

    return load.pass_or_lead(html, rng, lead=_lead)
