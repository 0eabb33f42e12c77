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
- ``players() -> {name: factory}``: benchmark-only players that botmatch may name besides
  ``random`` and the levels (``factory(**options)`` returns a bot); ``get_bot`` never
  reaches them, so no player can choose them at a table.

A benchmark-only player may see the whole state: a class attribute ``sees_all = True`` makes
``decision`` (for ``play_deal`` and rlcardmatch) call ``bot.act_seeing_all(game, state, seat,
legal_actions, rng)`` (the game, the engine state as it stands, the seat to act, its legal
actions and the hand's rng) instead of ``bot.act(observation, legal_actions, rng)``. Only the plug-ins' ``perfect`` players
(games/bench/perfect.py) do, to measure how far perfect information reaches; the levels and
every bot a table can seat keep getting only their seat's observation.

A player is named by a spec ``name[:key=value,...]``: the options after the colon go to the
bot as keyword arguments (``hard:exposures=false``, ``sampler:samples=40``; a value reads as
an integer, a number, ``true``/``false`` or else a string).

botmatch plays bot-only hands: each deal is the first hand of ``new_match(seed=deal_seed,
seats=K)``, played once per seating of its layout:

- ``rotate`` (the default): K times, the hero in each seat and the villain in the others;
  a hand's value is the hero's hand score minus the villains' mean.
- ``pairs`` (an even K): twice, the hero in the even seats and the villain in the odd ones,
  then the other way round; a hand's value is the hero seats' scores added minus the villain
  seats' scores added (for four seats: the hero's pair minus the villain's pair). Each seat
  draws from its own random generator, the same one in both hands of a deal (common random
  numbers, as duplicate bridge deals the same cards): where the two players would decide
  alike, both hands go alike and cancel, so a deal counts by the decisions that differ
  (Hard with and without exposures differ only in deals where one would expose).
  With ``first_only`` (``botmatch --first-decisions-only``), for players that differ in
  each seat's first decision of a hand alone, a deal whose first decisions are all alike is
  scored 0 without playing its hands out (``play_deal``).

A deal's value is the mean over its hands; the summary is the mean over deals with a 95%
interval (normal approximation). Per-deal records are appended to a JSON-lines results file
as they finish, so a run that is interrupted continues where it stopped; deals run in
``jobs`` worker processes.
"""

from __future__ import annotations

import functools
import importlib
import inspect
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

from games.bots import LEVELS, get_bot
from games.engine import get_game


def plugin(game_name: str):
    """The game's bench module ``games/bench/<game>.py``, or None when it has none: the one
    place the bench finds a game (the harness knows no Django, so it cannot ask the registry;
    the load client and the commands name games the registry lists)."""
    try:
        return importlib.import_module(f"games.bench.{game_name}")
    except ModuleNotFoundError as e:
        if e.name != f"games.bench.{game_name}":
            raise
        return None


def bot_options(game_name: str, level: str, budget: int | None = None) -> dict:
    """The keyword options of a player (a level or a spec naming one) before its spec's own."""
    level, _ = split_spec(level)
    module = plugin(game_name)
    options = dict(module.bot_options(level)) if module and hasattr(module, "bot_options") else {}
    if budget is not None and level == "hard":
        options["budget"] = budget
    return options


def split_spec(spec: str) -> tuple[str, dict]:
    """A player spec's name and options:
    ``"hard:exposures=false,samples=40"`` -> ``("hard", {"exposures": False, "samples": 40})``."""
    name, _, rest = spec.partition(":")
    options = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"a player option is key=value, not {item!r}")
        options[key.strip()] = _option_value(value.strip())
    return name, options


def _option_value(text: str):
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def extra_players(game_name: str) -> dict:
    """The game's benchmark-only players, by name (its plug-in's ``players()``)."""
    module = plugin(game_name)
    return dict(module.players()) if module and hasattr(module, "players") else {}


def player_names(game_name: str) -> tuple[str, ...]:
    """Every name a botmatch player spec may start with for this game."""
    return ("random", *LEVELS, *extra_players(game_name))


def _factory(game_name: str, name: str):
    """What makes the player ``name``: a benchmark-only player of the game's plug-in, else a
    level as ``get_bot`` makes it."""
    extra = extra_players(game_name)
    if name in extra:
        return extra[name]
    if name not in ("random", *LEVELS):
        raise ValueError(f"unknown player {name!r}: one of {', '.join(player_names(game_name))}")
    return functools.partial(get_bot, game_name, name)


def option_names(game_name: str, name: str) -> tuple[str, ...]:
    """The options a player takes by name (its factory's, or the class its factory makes):
    what a spec may set. ``**options`` takes the harness's generic ones and names none."""
    factory = _factory(game_name, name)
    if not isinstance(factory, type):
        # ``get_bot`` or a factory that passes everything on (``def _hard(**options)``): the
        # class of what it makes.
        factory = type(factory())
    return _named_parameters(factory)


def _named_parameters(func) -> tuple[str, ...]:
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(p.name for p in inspect.signature(func).parameters.values() if p.kind in kinds)


def check_spec(game_name: str, spec: str) -> None:
    """Refuse (ValueError) a spec that is malformed, names no player of the game, or sets an
    option its player does not take (a typo such as ``hard:exposure=false`` would otherwise
    run the plain player under its own run key)."""
    name, own = split_spec(spec)
    known = option_names(game_name, name)
    unknown = sorted(set(own) - set(known))
    if unknown:
        takes = ", ".join(known) if known else "none"
        raise ValueError(f"{name} takes no option {', '.join(unknown)} (its options: {takes})")


def make_bot(game_name: str, spec: str, options: dict | None = None):
    """The bot a spec names, with ``options`` and then the spec's own options."""
    name, own = split_spec(spec)
    return _factory(game_name, name)(**{**(options or {}), **own})


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
    layout: str = "rotate"

    def key(self) -> str:
        fields = asdict(self)
        if fields["layout"] == "rotate":
            del fields["layout"]  # the keys of runs from before there were layouts
        else:
            fields["rng"] = "seat"  # one generator per seat (runs before had one per hand)
        return json.dumps(fields, sort_keys=True)


LAYOUTS = ("rotate", "pairs")


def seatings(layout: str, seats: int) -> list[tuple[int, ...]]:
    """The hero's seats in each hand of a deal (the villain has the others)."""
    if layout == "rotate":
        return [(seat,) for seat in range(seats)]
    if layout == "pairs":
        if seats % 2:
            raise ValueError(f"the pairs layout needs an even number of seats, not {seats}")
        return [tuple(range(0, seats, 2)), tuple(range(1, seats, 2))]
    raise ValueError(f"unknown layout {layout!r}")


_BOTS: dict[tuple[str, str, str], Any] = {}


def _bot(game_name: str, spec: str, options: dict):
    key = (game_name, spec, json.dumps(options, sort_keys=True))
    if key not in _BOTS:
        _BOTS[key] = make_bot(game_name, spec, options)
    return _BOTS[key]


def decision(bot, game, state, seat: int, legal: list[dict], rng: random.Random):
    """A bot's decision at ``seat``, ready to run: with its seat's observation built already
    (a clock around the call times the decision alone), or with the whole state for a
    benchmark-only player that sees all (``sees_all``)."""
    if getattr(bot, "sees_all", False):
        return functools.partial(bot.act_seeing_all, game, state, seat, legal, rng)
    return functools.partial(bot.act, game.observation(state, seat), legal, rng)


def play_deal(config: MatchConfig, deal: int, first_only: bool = False) -> dict:
    """One deal played once per seating of the layout; the record that goes into the results
    file, with the decision times of the hero and of the villain.

    ``first_only`` says that the hero and the villain play alike after each seat's first
    decision of a hand (they differ in Gong Zhu's exposures alone, say), which only the
    pairs layout can use: each hero seat's first decision is then also asked of the villain
    (with a copy of the seat's generator), and where every one is the same in both seatings
    both hands are the villain's own hand, which cancel: the deal is scored 0 unplayed
    (``"unplayed": true`` in its record). Its value is the same as when it is played."""
    if first_only and config.layout != "pairs":
        raise ValueError("first_only needs the pairs layout")
    game = get_game(config.game)
    hero = _bot(config.game, config.hero, config.hero_options)
    villain = _bot(config.game, config.villain, config.villain_options)
    seed = deal_seed(config.seed, deal)
    clocks: dict[str, tuple[list, list]] = {"hero": ([], []), "villain": ([], [])}
    alike = [first_only]  # every hero seat's first decision was the villain's so far

    def play(state, hero_seats, rngs, first_phase: bool):
        """Play on to the end of the hand, or with ``first_phase`` until every seat has
        decided once."""
        decided: set[int] = set()
        while not game.hand_over(state):
            if first_phase and len(decided) == config.seats:
                break
            for seat in game.to_move(state):
                legal = game.legal_actions(state, seat)
                role = "hero" if seat in hero_seats else "villain"
                bot = hero if role == "hero" else villain
                twin = None
                if first_phase and alike[0] and role == "hero" and seat not in decided:
                    copy = random.Random()
                    copy.setstate(rngs[seat].getstate())
                    twin = decision(villain, game, state, seat, legal, copy)()
                decide = decision(bot, game, state, seat, legal, rngs[seat])
                start, start_cpu = time.perf_counter(), time.process_time()
                action = decide()
                clocks[role][0].append(time.perf_counter() - start)
                clocks[role][1].append(time.process_time() - start_cpu)
                if twin is not None and twin != action:
                    alike[0] = False
                decided.add(seat)
                state = game.apply(state, seat, action)
        return state

    hands = []
    for hero_seats in seatings(config.layout, config.seats):
        if config.layout == "rotate":
            # The rotate layout's seed of a hand, as before there were layouts.
            rng = random.Random(f"{seed}:{':'.join(map(str, hero_seats))}")
            rngs = [rng] * config.seats
        else:
            rngs = [random.Random(f"{seed}:seat:{seat}") for seat in range(config.seats)]
        state = game.new_match(seed=seed, seats=config.seats)
        if first_only:
            state = play(state, hero_seats, rngs, first_phase=True)
        hands.append((hero_seats, rngs, state))
    unplayed = first_only and alike[0]
    diffs = []
    for hero_seats, rngs, state in hands:
        if unplayed:
            diffs.append(0.0)
            continue
        state = play(state, hero_seats, rngs, first_phase=False)
        scores = game.hand_result(state)["scores"]
        mine = [s for i, s in enumerate(scores) if i in hero_seats]
        others = [s for i, s in enumerate(scores) if i not in hero_seats]
        # The hero seats' scores added, less as many of the villains' mean score.
        diffs.append(sum(mine) - len(mine) * sum(others) / len(others))
    (times, cpu), (villain_times, villain_cpu) = clocks["hero"], clocks["villain"]
    record = {
        "run": config.key(),
        "deal": deal,
        "seed": seed,
        "diffs": diffs,
        "times_ms": _ms(times),
        # CPU time of the same decisions: what a decision costs on a machine shared with others.
        "cpu_ms": _ms(cpu),
        "villain_ms": _ms(villain_times),
        "villain_cpu_ms": _ms(villain_cpu),
    }
    if unplayed:
        record["unplayed"] = True
    return record


def _ms(seconds: list[float]) -> list[float]:
    return [round(t * 1000, 3) for t in seconds]


def _play_task(args: tuple[MatchConfig, int, bool]) -> dict:
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
    first_only: bool = False,
) -> list[dict]:
    """Play the deals not yet in ``results`` (appending each as it finishes); all records.
    ``first_only``: as ``play_deal``'s (a deal's record is the same either way, so a results
    file may mix both)."""
    done = load_results(results, config)
    todo = [d for d in range(deals) if d not in done]
    out = open(results, "a+") if results else None  # noqa: SIM115 - closed below
    if out and out.tell() > 0:
        out.seek(out.tell() - 1)
        if out.read(1) != "\n":
            out.write("\n")  # the last line was cut short when a run was interrupted
    try:
        for record in _records(config, todo, jobs, first_only):
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


def _records(config: MatchConfig, todo: list[int], jobs: int, first_only: bool) -> Iterator[dict]:
    if jobs <= 1 or len(todo) <= 1:
        for deal in todo:
            yield play_deal(config, deal, first_only)
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(jobs) as pool:
        yield from pool.imap_unordered(
            _play_task, [(config, d, first_only) for d in todo], chunksize=1
        )


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
    """Hero minus villains per hand, with a 95% interval over deals; decision times."""
    per_deal = [sum(r["diffs"]) / len(r["diffs"]) for r in records]
    n = len(per_deal)
    mean = statistics.fmean(per_deal) if per_deal else math.nan
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(n) if n > 1 else math.nan
    summary = {
        "deals": n,
        "hands": sum(len(r["diffs"]) for r in records),
        "mean": mean,
        "low": mean - half,
        "high": mean + half,
        "unplayed": sum(1 for r in records if r.get("unplayed")),
    }
    for prefix, wall, cpu in (
        ("", "times_ms", "cpu_ms"),
        ("villain_", "villain_ms", "villain_cpu_ms"),
    ):
        times = [t for r in records for t in r.get(wall, ())]
        cpus = [t for r in records for t in r.get(cpu, ())]
        summary.update(
            {
                f"{prefix}decisions": len(times),
                f"{prefix}median_ms": percentile(times, 50),
                f"{prefix}p95_ms": percentile(times, 95),
                f"{prefix}cpu_median_ms": percentile(cpus, 50),
                f"{prefix}cpu_p95_ms": percentile(cpus, 95),
            }
        )
    return summary


def bracket(low: float, high: float, spec: str) -> str | None:
    """A 95% interval as ``[low, high]`` in ``spec``, or None where there is none (one deal:
    its bounds are not numbers)."""
    if math.isnan(low):
        return None
    return f"[{low:{spec}}, {high:{spec}}]"


def format_summary(config: MatchConfig, summary: dict) -> str:
    if config.layout == "pairs":
        hero_seats, villain_seats = seatings(config.layout, config.seats)
        head = (
            f"botmatch {config.game}: hero {config.hero} in seats {_seats(hero_seats)}, "
            f"villain {config.villain} in seats {_seats(villain_seats)}, then swapped, "
            f"{summary['deals']} deals x 2 = {summary['hands']} hands (seed {config.seed})"
        )
        value = "hero pair - villain pair (each pair's scores added)"
    else:
        head = (
            f"botmatch {config.game}: hero {config.hero} vs villain {config.villain}, "
            f"{summary['deals']} deals x {config.seats} seats = {summary['hands']} hands "
            f"(seed {config.seed})"
        )
        value = "hero - villains"
    interval = bracket(summary["low"], summary["high"], "+.1f")
    interval = f"95% interval {interval}" if interval else "no interval from one deal"
    lines = [head, f"{value}: {summary['mean']:+.1f} points per hand, {interval}"]
    if summary.get("unplayed"):
        lines.append(
            f"{summary['unplayed']} deals scored 0 unplayed: every first decision alike "
            "(--first-decisions-only)"
        )
    for role, prefix in (("hero", ""), ("villain", "villain_")):
        if summary[f"{prefix}decisions"]:
            lines.append(
                f"{role} decision time: median {summary[f'{prefix}median_ms']:.2f} ms, "
                f"p95 {summary[f'{prefix}p95_ms']:.2f} ms ({summary[f'{prefix}decisions']} "
                f"decisions; CPU time median {summary[f'{prefix}cpu_median_ms']:.2f} ms, "
                f"p95 {summary[f'{prefix}cpu_p95_ms']:.2f} ms)"
            )
    return "\n".join(lines)


def _seats(seats: tuple[int, ...]) -> str:
    return (
        ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}" if len(seats) > 1 else str(seats[0])
    )


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
