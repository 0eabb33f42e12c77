"""Gong Zhu's bench plug-in (harness.py): named positions for timing ``legal_actions``, and
the benchmark-only ``sampler``, ``greedy`` and ``perfect`` that botmatch may name besides the
levels."""

from __future__ import annotations

import random

from games.engine import get_game


def legal_scenarios(rng: random.Random, count: int) -> dict[str, list]:
    """Exposure decisions, leads, follows, discards and leads under the exposed-card rule."""
    game = get_game("gongzhu")
    sets: dict[str, list] = {
        "exposure": [],
        "lead": [],
        "follow": [],
        "discard": [],
        "exposed lead": [],
    }
    while any(len(v) < count for v in sets.values()):
        state = game.new_match(seed=rng.randrange(2**31), seats=4)
        expose_all = rng.random() < 0.5
        while not game.hand_over(state):
            movers = game.to_move(state)
            seat = movers[rng.randrange(len(movers))]
            legal = game.legal_actions(state, seat)
            obs_trick = state.trick
            if legal[0]["type"] == "expose":
                name = "exposure"
            elif not obs_trick:
                name = (
                    "exposed lead"
                    if state.exposed[seat] and set(state.exposed[seat]) & set(state.hands[seat])
                    else "lead"
                )
            elif any(c[1] == obs_trick[0][1] for c in state.hands[seat]):
                name = "follow"
            else:
                name = "discard"
            if len(sets[name]) < count:
                sets[name].append((state, seat))
            action = legal[-1] if expose_all and legal[0]["type"] == "expose" else rng.choice(legal)
            state = game.apply(state, seat, action)
    return sets


def bot_options(level: str) -> dict:
    # Hard's default budget (samples per decision) lives in the bot; --budget overrides it.
    return {}


def players() -> dict:
    """Benchmark-only players: ``sampler``, the determinized sampler
    (games/bots/gongzhu_sampler.py), ``greedy``, the greedy trick sampler rebuilt from the
    published one (games/bench/gongzhu_greedy.py), and ``perfect``, which sees every hand
    (games/bench/perfect.py)."""
    from games.bench.gongzhu_greedy import GreedyBot
    from games.bench.gongzhu_perfect import GongZhuPerfect
    from games.bots.gongzhu_sampler import SamplerBot

    return {"sampler": SamplerBot, "greedy": GreedyBot, "perfect": GongZhuPerfect}


def load_move(html: str, rng: random.Random) -> dict | None:
    """The load client's move on this board (loadbench), or None when it is not the human's
    turn: expose nothing (always legal), then a random playable card."""
    from games.bench import load

    if load.offers_next_hand(html):
        return {"action": "next"}
    if "data-exposure-form" in html:
        return {"action": "expose", "cards": []}
    if "my-turn" in load.board_flags(html):
        cards = load.playable_cards(html)
        if cards:
            return {"action": "play", "card": rng.choice(cards)}
    return None
