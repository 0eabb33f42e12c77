"""The generic benchmark harness behind ``botmatch`` and ``enginebench``: measured,
not guessed.

It knows a game only through the engine contract and ``get_bot``; a game may add a plug-in
module ``games/bench/<game>.py`` defining any of:

- ``legal_scenarios(rng, count) -> {name: [(state, seat), ...]}``: named position sets on
  which ``enginebench`` times ``legal_actions`` (median and p99 per name). Without it,
  positions are sampled from random hands.
- ``bot_options(level) -> dict``: keyword options for ``get_bot`` (e.g. a search budget).
  ``botmatch --budget B`` adds ``budget=B`` to the options of the ``hard`` level only.
- ``compare(name, args) -> None``: run by ``enginebench <game> --compare <name>``.

botmatch plays bot-only hands: each deal is the first hand of ``new_match(seed=deal_seed,
seats=K)``, played K times with the hero in every seat and the villain level in the others.
A deal's value is the hero's hand score minus the villains' mean, averaged over its K
seatings; the summary is the mean over deals with a 95% interval (normal approximation).
Per-deal records are appended to a JSON-lines results file as they finish, so a run that is
interrupted continues where it stopped; deals run in ``jobs`` worker processes.
"""

from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from games.bots import get_bot
from games.engine import get_game


def plugin(game_name: str):
    """The game's bench module, or None when it has none."""
    try:
        return importlib.import_module(f"games.bench.{game_name}")
    except ModuleNotFoundError as e:
        if e.name != f"games.bench.{game_name}":
            raise
        return None


def bot_options(game_name: str, level: str, budget: int | None = None) -> dict:
    module = plugin(game_name)
    options = dict(module.bot_options(level)) if module and hasattr(module, "bot_options") else {}
    if budget is not None and level == "hard":
        options["budget"] = budget
    return options


def deal_seed(seed: int, deal: int) -> int:
    """The match seed of deal number ``deal`` of a run: independent of the other deals."""
    return random.Random(f"botmatch:{seed}:{deal}").randrange(2**62)


# --- botmatch ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchConfig:
    game: str
    hero: str
    villain: str
    seats: int
    seed: int
    hero_options: dict = field(default_factory=dict)
    villain_options: dict = field(default_factory=dict)

    def key(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


_BOTS: dict[tuple[str, str, str], Any] = {}


def _bot(game_name: str, level: str, options: dict):
    key = (game_name, level, json.dumps(options, sort_keys=True))
    if key not in _BOTS:
        _BOTS[key] = get_bot(game_name, level, **options)
    return _BOTS[key]


def play_deal(config: MatchConfig, deal: int) -> dict:
    """One deal played once per hero seat; the record that goes into the results file."""
    game = get_game(config.game)
    hero = _bot(config.game, config.hero, config.hero_options)
    villain = _bot(config.game, config.villain, config.villain_options)
    seed = deal_seed(config.seed, deal)
    diffs, times, cpu = [], [], []
    for hero_seat in range(config.seats):
        rng = random.Random(f"{seed}:{hero_seat}")
        state = game.new_match(seed=seed, seats=config.seats)
        while not game.hand_over(state):
            movers = game.to_move(state)
            for seat in movers:
                legal = game.legal_actions(state, seat)
                observation = game.observation(state, seat)
                if seat == hero_seat:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    action = hero.act(observation, legal, rng)
                    times.append(time.perf_counter() - start)
                    cpu.append(time.process_time() - start_cpu)
                else:
                    action = villain.act(observation, legal, rng)
                state = game.apply(state, seat, action)
        scores = game.hand_result(state)["scores"]
        others = [s for i, s in enumerate(scores) if i != hero_seat]
        diffs.append(scores[hero_seat] - sum(others) / len(others))
    return {
        "run": config.key(),
        "deal": deal,
        "seed": seed,
        "diffs": diffs,
        "times_ms": [round(t * 1000, 3) for t in times],
        # CPU time of the same decisions: what a decision costs on a machine shared with others.
        "cpu_ms": [round(t * 1000, 3) for t in cpu],
    }


def _play_task(args: tuple[MatchConfig, int]) -> dict:
    return play_deal(*args)


def records_by_run(paths, needs=("diffs",)) -> dict[str, dict[int, dict]]:
    """The records of JSON-lines results files, by run key and deal (a later record of a deal
    wins); records without ``run``, ``deal`` and each of ``needs`` are passed over, and so is
    a line cut short when a run was interrupted."""
    runs: dict[str, dict[int, dict]] = {}
    for path in paths:
        if not path or not os.path.exists(path):
            continue
        with open(path) as lines:
            for line in lines:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(record, dict) and all(k in record for k in ("run", "deal", *needs)):
                    runs.setdefault(record["run"], {})[record["deal"]] = record
    return runs


def load_results(path: str | None, config: MatchConfig) -> dict[int, dict]:
    """Records of this very run already in the results file, by deal."""
    return records_by_run([path]).get(config.key(), {})


def run_match(
    config: MatchConfig,
    deals: int,
    *,
    jobs: int = 1,
    results: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict]:
    """Play the deals not yet in ``results`` (appending each as it finishes); all records."""
    done = load_results(results, config)
    todo = [d for d in range(deals) if d not in done]
    out = open(results, "a+") if results else None  # noqa: SIM115 - closed below
    if out and out.tell() > 0:
        out.seek(out.tell() - 1)
        if out.read(1) != "\n":
            out.write("\n")  # the last line was cut short when a run was interrupted
    try:
        for record in _records(config, todo, jobs):
            done[record["deal"]] = record
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
            if progress:
                progress(len([d for d in done if d < deals]), deals)
    finally:
        if out:
            out.close()
    return [done[d] for d in sorted(done) if d < deals]


def _records(config: MatchConfig, todo: list[int], jobs: int) -> Iterator[dict]:
    if jobs <= 1 or len(todo) <= 1:
        for deal in todo:
            yield play_deal(config, deal)
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_task, [(config, d) for d in todo], chunksize=1)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summarize(records: list[dict]) -> dict:
    """Hero minus villains per hand, with a 95% interval over deals; hero decision times."""
    per_deal = [sum(r["diffs"]) / len(r["diffs"]) for r in records]
    n = len(per_deal)
    mean = statistics.fmean(per_deal) if per_deal else math.nan
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(n) if n > 1 else math.nan
    times = [t for r in records for t in r["times_ms"]]
    cpu = [t for r in records for t in r.get("cpu_ms", ())]
    return {
        "deals": n,
        "hands": sum(len(r["diffs"]) for r in records),
        "mean": mean,
        "low": mean - half,
        "high": mean + half,
        "decisions": len(times),
        "median_ms": percentile(times, 50),
        "p95_ms": percentile(times, 95),
        "cpu_median_ms": percentile(cpu, 50),
        "cpu_p95_ms": percentile(cpu, 95),
    }


def format_summary(config: MatchConfig, summary: dict) -> str:
    lines = [
        f"botmatch {config.game}: hero {config.hero} vs villain {config.villain}, "
        f"{summary['deals']} deals x {config.seats} seats = {summary['hands']} hands "
        f"(seed {config.seed})",
        f"hero - villains: {summary['mean']:+.1f} points per hand, "
        f"95% interval [{summary['low']:+.1f}, {summary['high']:+.1f}]",
        f"hero decision time: median {summary['median_ms']:.2f} ms, "
        f"p95 {summary['p95_ms']:.2f} ms ({summary['decisions']} decisions; "
        f"CPU time median {summary['cpu_median_ms']:.2f} ms, p95 {summary['cpu_p95_ms']:.2f} ms)",
    ]
    return "\n".join(lines)


# --- enginebench ------------------------------------------------------------------------


def random_hand(game, seats: int, seed: int, rng: random.Random, visit=None) -> int:
    """Play one random hand, listing every mover's legal actions at every step; steps."""
    state = game.new_match(seed=seed, seats=seats)
    steps = 0
    while not game.hand_over(state):
        movers = game.to_move(state)
        choices = [(seat, game.legal_actions(state, seat)) for seat in movers]
        if visit:
            for seat, _ in choices:
                visit(state, seat)
        seat, legal = choices[rng.randrange(len(choices))]
        state = game.apply(state, seat, legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def hands_per_second(game_name: str, seats: int, seconds: float, seed: int) -> float:
    game = get_game(game_name)
    rng = random.Random(seed)
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        random_hand(game, seats, seed * 1_000_003 + hands, rng)
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def sampled_positions(game_name: str, rng: random.Random, count: int) -> dict[str, list]:
    """Positions from random hands, by seat count, when the game's plug-in names none."""
    game = get_game(game_name)
    found: dict[str, list] = {}
    for seats in game.seat_counts:
        positions: list = []
        while len(positions) < count:
            random_hand(
                game,
                seats,
                rng.randrange(2**31),
                rng,
                visit=lambda state, seat, p=positions: p.append((state, seat)),
            )
        rng.shuffle(positions)
        found[f"random positions, {seats} seats"] = positions[:count]
    return found


def time_legal_actions(game_name: str, positions: list, repeat: int = 5) -> list[float]:
    """Seconds per ``legal_actions`` call at each position (best of ``repeat`` calls)."""
    game = get_game(game_name)
    legal_actions = game.legal_actions
    clock = time.perf_counter
    out = []
    for state, seat in positions:
        best = math.inf
        for _ in range(repeat):
            start = clock()
            legal_actions(state, seat)
            best = min(best, clock() - start)
        out.append(best)
    return out


def engine_bench(
    game_name: str, *, seconds: float = 2.0, runs: int = 3, seed: int = 1, positions: int = 2000
) -> dict:
    """Hands per second (median of runs) per seat count and legal_actions timings per set."""
    game = get_game(game_name)
    speeds = {}
    for seats in game.seat_counts:
        rates = [hands_per_second(game_name, seats, seconds, seed + run) for run in range(runs)]
        speeds[seats] = {"median": statistics.median(rates), "runs": rates}
    rng = random.Random(seed)
    module = plugin(game_name)
    if module and hasattr(module, "legal_scenarios"):
        scenarios = module.legal_scenarios(rng, positions)
    else:
        scenarios = sampled_positions(game_name, rng, positions)
    timings = {}
    every_call: list[list[float]] = [[] for _ in range(runs)]
    for name, sample in scenarios.items():
        per_run = [time_legal_actions(game_name, sample) for _ in range(runs)]
        for run, calls in enumerate(per_run):
            every_call[run].extend(calls)
        medians = [percentile(t, 50) for t in per_run]
        p99s = [percentile(t, 99) for t in per_run]
        timings[name] = {
            "positions": len(sample),
            "median_us": statistics.median(medians) * 1e6,
            "p99_us": statistics.median(p99s) * 1e6,
        }
    overall = statistics.median(percentile(calls, 50) for calls in every_call) * 1e6
    return {
        "game": game_name,
        "hands_per_second": speeds,
        "legal": timings,
        "legal_median_us": overall,
    }


def format_engine_bench(result: dict) -> str:
    lines = [f"enginebench {result['game']}"]
    for seats, speed in result["hands_per_second"].items():
        runs = ", ".join(f"{r:.0f}" for r in speed["runs"])
        lines.append(
            f"  {seats} seats: {speed['median']:.0f} full random hands/s "
            f"(legal actions listed at every step; runs: {runs})"
        )
    lines.append(f"  legal_actions: median {result['legal_median_us']:.1f} us per call")
    for name, t in result["legal"].items():
        lines.append(
            f"    {name}: median {t['median_us']:.1f} us, p99 {t['p99_us']:.1f} us "
            f"({t['positions']} positions)"
        )
    return "\n".join(lines)
