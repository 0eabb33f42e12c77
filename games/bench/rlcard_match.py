"""Our Dou Dizhu bots against RLCard's rule-based agent ``doudizhu-rule-v1``, measured
against the field; run by ``manage.py rlcardmatch``.

Each deal is played twice in OUR engine with the landlord fixed at seat 0 and a bid of 1,
no bidding, as RLCard plays: ours as landlord against two of theirs, then theirs as
landlord against two of ours, on the same cards. RLCard's agent sees RLCard's raw
observation built from ours (its rank strings ``3…A2BR``); its choice is translated back.
Its own leads are composed by itself: when one is a play our rules refuse, the legal play
it ranks next is taken and counted. numpy's global generator, from which the agent draws,
is seeded per game, so a run repeats exactly.

Ours is a level or a benchmark-only player of the game's plug-in (``perfect``, which sees
every hand: the ceiling of Hard's search against this field).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import statistics

from games.bench.harness import bracket, decision, make_bot, records_by_run
from games.engine import get_game
from games.engine.doudizhu import new_match_fixed

# The game and the outside program: RLCard ships a rule agent for Dou Dizhu alone.
GAME = "doudizhu"
OPPONENT = "RLCard doudizhu-rule-v1"

_JOKER = {"BJ": "B", "RJ": "R"}


def rl_string(cards) -> str:
    """Cards as RLCard's rank string; our hand order is RLCard's order."""
    return "".join(_JOKER.get(c, c[0]) for c in cards)


def deal_seed(seed: int, deal: int) -> int:
    return random.Random(f"rlcardmatch:{seed}:{deal}").randrange(2**31)


class TheirSeat:
    """RLCard's rule agent playing one seat of our engine; it draws from numpy's global
    generator, seeded here for the game."""

    def __init__(self, seed: int):
        import numpy as np
        from rlcard.games.doudizhu.utils import CARD_TYPE
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

        np.random.seed(seed)
        self.agent = DouDizhuRuleAgentV1()
        self.known = CARD_TYPE[0]
        self.refused = 0
        self.decisions = 0

    def act(self, obs: dict, legal: list[dict]) -> dict:
        self.decisions += 1
        by_string = {}
        for action in legal:
            key = "pass" if action["type"] == "pass" else rl_string(action["cards"])
            by_string.setdefault(key, action)
        trace = [
            (p["seat"], "pass" if p["cards"] is None else rl_string(p["cards"]))
            for p in obs["plays"]
        ]
        hand = rl_string(obs["hand"])
        # RLCard's agent looks its plays up in its own table of kinds
        actions = [a for a in by_string if a == "pass" or a in self.known]
        raw = {
            "trace": trace,
            "current_hand": hand,
            "actions": actions,
            "landlord": obs["landlord"],
            "self": obs["seat"],
        }
        choice = self.agent.step({"raw_obs": raw})
        if choice in by_string:
            return by_string[choice]
        # a lead our rules refuse (or none): the next play in the agent's own order
        self.refused += 1
        for candidate in self._lead_order(hand):
            if candidate in by_string:
                return by_string[candidate]
        plays = [a for a in legal if a["type"] == "play"]
        return min(plays, key=lambda a: len(a["cards"]))

    def _lead_order(self, hand):
        comb = self.agent.combine_cards(hand)
        lowest = hand[0]
        first = [a for group in comb.values() for a in group if lowest in a]
        rest = [a for group in comb.values() for a in group if lowest not in a]
        return first + rest


def play_game(seed: int, ours_landlord: bool, level: str, options: dict) -> dict:
    game = get_game(GAME)
    bot = make_bot(GAME, level, options)
    theirs = TheirSeat(seed)
    rng = random.Random(f"{seed}:{ours_landlord}")
    state = new_match_fixed(seed, landlord=0, bid=1, options={"hands": 1})
    ours = {0} if ours_landlord else {1, 2}
    while not game.hand_over(state):
        seat = game.to_move(state)[0]
        legal = game.legal_actions(state, seat)
        if seat in ours:
            action = decision(bot, game, state, seat, legal, rng)()
        else:
            action = theirs.act(game.observation(state, seat), legal)
        state = game.apply(state, seat, action)
    scores = game.hand_result(state)["scores"]
    points = sum(scores[s] for s in ours)
    return {
        "points": points,
        "won": points > 0,
        "refused": theirs.refused,
        "their_decisions": theirs.decisions,
    }


def play_deal(args) -> dict:
    run, seed, deal, level, options = args
    s = deal_seed(seed, deal)
    return {
        "run": run,
        "deal": deal,
        "seed": s,
        "landlord": play_game(s, True, level, options),
        "peasants": play_game(s, False, level, options),
    }


def run(level, deals, *, seed=1, options=None, jobs=1, results=None, progress=None):
    options = options or {}
    key = json.dumps({"level": level, "seed": seed, "options": options}, sort_keys=True)
    done = records_by_run([results], needs=("landlord", "peasants")).get(key, {})
    todo = [(key, seed, d, level, options) for d in range(deals) if d not in done]
    out = open(results, "a") if results else None  # noqa: SIM115 - closed below
    try:
        if jobs > 1 and len(todo) > 1:
            pool = multiprocessing.get_context("fork").Pool(jobs)
            records = pool.imap_unordered(play_deal, todo, chunksize=1)
        else:
            pool = None
            records = map(play_deal, todo)
        for record in records:
            done[record["deal"]] = record
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
            if progress:
                progress(len(done), deals)
        if pool:
            pool.close()
            pool.join()
    finally:
        if out:
            out.close()
    return [done[d] for d in sorted(done) if d < deals]


def _interval(values):
    n = len(values)
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.nan
    return mean, mean - half, mean + half


def summarize(records) -> dict:
    out = {"deals": len(records)}
    for role in ("landlord", "peasants"):
        games = [r[role] for r in records]
        out[role] = {
            "win": _interval([1.0 if g["won"] else 0.0 for g in games]),
            "points": _interval([g["points"] for g in games]),
        }
    both = [r[role] for r in records for role in ("landlord", "peasants")]
    out["overall_win"] = _interval([1.0 if g["won"] else 0.0 for g in both])
    out["refused"] = sum(g["refused"] for g in both)
    out["their_decisions"] = sum(g["their_decisions"] for g in both)
    return out


def format_summary(level, summary) -> str:
    def pct(t):
        interval = bracket(100 * t[1], 100 * t[2], ".1f")
        return f"{100 * t[0]:.1f}% {interval or '(no interval from one game)'}"

    def pts(t):
        return f"{t[0]:+.3f} {bracket(t[1], t[2], '+.3f') or '(no interval from one deal)'}"

    lines = [
        f"rlcardmatch: our {level} vs {OPPONENT}, {summary['deals']} deals, "
        "each played with ours as landlord and ours as peasants (landlord fixed, bid 1)",
        f"  overall: ours win {pct(summary['overall_win'])} of games",
        f"  ours as landlord: win {pct(summary['landlord']['win'])}, "
        f"points per deal {pts(summary['landlord']['points'])}",
        f"  ours as peasants: win {pct(summary['peasants']['win'])}, "
        f"points per deal (both peasants) {pts(summary['peasants']['points'])}",
        f"  RLCard plays our rules refused (next-ranked play taken): {summary['refused']} "
        f"of {summary['their_decisions']} decisions",
    ]
    return "\n".join(lines)
