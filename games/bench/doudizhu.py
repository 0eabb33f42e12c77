"""Dou Dizhu's bench plug-in (games/bench/harness.py): named positions for timing
``legal_actions``, ``enginebench doudizhu --compare rlcard``, and the benchmark-only
``perfect`` player, which sees every hand (games/bench/doudizhu_perfect.py).

RLCard is a benchmark-only extra (``pip install -e '.[bench]'``); nothing here imports it
until a comparison runs.
"""

from __future__ import annotations

import random
import statistics
import time

from games.bench import harness
from games.engine import get_game
from games.engine.doudizhu import new_match_fixed
from games.engine.doudizhu.combos import counts_of, leads


def legal_scenarios(rng: random.Random, count: int) -> dict[str, list]:
    """``lead_fresh_20``: the landlord's opening lead with 20 cards; ``follow``: a play to beat."""
    game = get_game("doudizhu")
    fresh = [(new_match_fixed(rng.randrange(2**31), landlord=0), 0) for _ in range(count)]
    follow: list = []
    while len(follow) < count:
        state = game.new_match(seed=rng.randrange(2**31), seats=3)
        while not game.hand_over(state) and len(follow) < count:
            seat = game.to_move(state)[0]
            if state.phase == "playing" and state.table is not None:
                follow.append((state, seat))
            legal = game.legal_actions(state, seat)
            state = game.apply(state, seat, legal[rng.randrange(len(legal))])
    return {"lead_fresh_20": fresh, "follow": follow}


def bot_options(level: str) -> dict:
    # Hard's default budget (samples per decision) lives in the bot; --budget overrides it.
    return {}


def players() -> dict:
    """Benchmark-only players: ``perfect``, Hard's search on the true hands."""
    from games.bench.doudizhu_perfect import DouDizhuPerfect

    return {"perfect": DouDizhuPerfect}


# --------------------------------------------------------------------------- RLCard

_RL_JOKER = {"BJ": "B", "RJ": "R"}


def rlcard_hand(cards) -> str:
    """Our cards as RLCard's rank string (``3…A2BR``, in its order)."""
    return "".join(_RL_JOKER.get(c, c[0]) for c in cards)


def _rlcard_hands_per_second(seconds: float, seed: int) -> float:
    """RLCard's bare engine: random hands per CPU second (``init_game`` / ``step``)."""
    import numpy as np
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": seed})
    game = env.game
    pick = np.random.RandomState(seed)
    hands = 0
    start = time.process_time()
    while True:
        state, _player = game.init_game()
        while not game.is_over():
            actions = state["actions"]
            state, _player = game.step(actions[pick.randint(len(actions))])
        hands += 1
        used = time.process_time() - start
        if used >= seconds:
            return hands / used


def _our_hands_per_second(seconds: float, seed: int) -> float:
    """Ours, as harness.hands_per_second but per CPU second: bidding included, every
    mover's legal actions listed at every step."""
    game = get_game("doudizhu")
    rng = random.Random(seed)
    hands = 0
    start = time.process_time()
    while True:
        harness.random_hand(game, 3, seed * 1_000_003 + hands, rng)
        hands += 1
        used = time.process_time() - start
        if used >= seconds:
            return hands / used


def _time_total(fn, items) -> float:
    """CPU seconds of this process (other processes on shared cores do not count)."""
    start = time.process_time()
    for item in items:
        fn(item)
    return time.process_time() - start


def compare(name: str, args) -> None:
    if name != "rlcard":
        raise SystemExit(f"doudizhu compares only with rlcard, not {name!r}")
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger
    except ImportError:
        print("RLCard is not installed: pip install -e '.[bench]'")
        return
    seconds = float(args.get("seconds", 2.0) or 2.0)
    runs = int(args.get("runs", 3) or 3)
    seed = int(args.get("seed", 1) or 1)
    positions = min(int(args.get("positions", 2000) or 2000), 2000)
    game = get_game("doudizhu")

    ours_hps, theirs_hps = [], []
    for run in range(runs):
        ours_hps.append(_our_hands_per_second(seconds, seed + run))
        theirs_hps.append(_rlcard_hands_per_second(seconds, seed + run))

    rng = random.Random(seed)
    fresh = [new_match_fixed(rng.randrange(2**31), landlord=0) for _ in range(positions)]
    hands = [state.hands[0] for state in fresh]
    strings = [rlcard_hand(h) for h in hands]
    gen_ours, gen_dicts, gen_theirs = [], [], []
    for _ in range(runs):
        # the three are timed chunk by chunk, in turn, so that a change of load on a shared
        # machine falls on all three alike
        theirs = ours = dicts = 0.0
        for at in range(0, len(hands), 50):
            chunk = slice(at, at + 50)
            theirs += _time_total(DoudizhuJudger.playable_cards_from_hand, strings[chunk])
            ours += _time_total(lambda h: leads(counts_of(h)), hands[chunk])
            dicts += _time_total(lambda s: game.legal_actions(s, 0), fresh[chunk])
        gen_theirs.append(theirs / len(hands))
        gen_ours.append(ours / len(hands))
        gen_dicts.append(dicts / len(hands))
    listed_ours = statistics.fmean(len(leads(counts_of(h))) for h in hands[:200])
    listed_theirs = statistics.fmean(
        len(DoudizhuJudger.playable_cards_from_hand(s)) for s in strings[:200]
    )

    bench = harness.engine_bench(
        "doudizhu", seconds=seconds, runs=runs, seed=seed, positions=min(positions, 500)
    )
    print(harness.format_engine_bench(bench))
    med = statistics.median
    print(f"compare rlcard (same run, medians of {runs} runs of {seconds:g} CPU s, in turn)")
    print(
        f"  full random hands per CPU second: ours {med(ours_hps):.0f} (bidding included), "
        f"RLCard {med(theirs_hps):.0f} (init_game/step, no bidding) "
        f"-> ratio {med(ours_hps) / med(theirs_hps):.2f}x"
    )
    print(
        f"  leading plays from the same {len(hands)} fresh 20-card hands, CPU time per hand "
        "(timed chunk by chunk in turn):"
    )
    print(
        f"    RLCard playable_cards_from_hand: {med(gen_theirs) * 1e6:.1f} us "
        f"({listed_theirs:.1f} plays listed on average)"
    )
    print(
        f"    ours, rank-count generator (combos.leads): {med(gen_ours) * 1e6:.1f} us "
        f"({listed_ours:.1f} plays) -> {med(gen_theirs) / med(gen_ours):.2f}x faster"
    )
    print(
        f"    ours, contract legal_actions (dicts): {med(gen_dicts) * 1e6:.1f} us "
        f"-> {med(gen_theirs) / med(gen_dicts):.2f}x faster"
    )


def decision_cpu_times(level: str = "hard", deals: int = 20, seed: int = 1, **options) -> dict:
    """CPU time (``time.process_time``, one core) of each decision of ``level`` against Normal.

    Unlike botmatch's wall-clock figures this does not grow when other processes share the
    cores. Run: ``manage.py shell -c "from games.bench.doudizhu import decision_cpu_times as
    d; print(d('hard', 20))"``.
    """
    from games.bots import get_bot

    game = get_game("doudizhu")
    hero = get_bot("doudizhu", level, **options)
    villain = get_bot("doudizhu", "normal")
    times = []
    for deal in range(deals):
        match_seed = harness.deal_seed(seed, deal)
        for hero_seat in range(3):
            rng = random.Random(f"{match_seed}:{hero_seat}")
            state = game.new_match(seed=match_seed, seats=3)
            while not game.hand_over(state):
                seat = game.to_move(state)[0]
                legal = game.legal_actions(state, seat)
                obs = game.observation(state, seat)
                if seat == hero_seat:
                    start = time.process_time()
                    action = hero.act(obs, legal, rng)
                    times.append(time.process_time() - start)
                else:
                    action = villain.act(obs, legal, rng)
                state = game.apply(state, seat, action)
    ms = [t * 1000 for t in times]
    return {
        "decisions": len(ms),
        "median_ms": round(harness.percentile(ms, 50), 2),
        "p95_ms": round(harness.percentile(ms, 95), 2),
        "max_ms": round(max(ms), 2),
    }


def _bid(html: str, rng: random.Random) -> dict:
    # 1 is offered only while nobody has bid; a pass is always legal.
    value = "1" if 'data-testid="bid-1"' in html and rng.random() < 0.5 else "0"
    return {"action": "bid", "value": value}


def load_move(html: str, rng: random.Random) -> dict | None:
    """The load client's move on this board (loadbench), or None when it is not the human's
    turn: bid pass or 1 while bidding; pass when following; lead a single card (any card is
    one)."""
    from games.bench import load

    return load.pass_or_lead(html, rng, phases={"bidding": _bid})
