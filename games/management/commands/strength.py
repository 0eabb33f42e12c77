"""Write the computer players' strength page's figures from the benchmarks' results files.

    manage.py strength                              # bench-results/*.jsonl -> games/strength.json
    manage.py strength results/a.jsonl results/b.jsonl --out games/strength.json
    manage.py strength --update bench-results/gdy-hard-2.jsonl  # those rows only, the rest kept

Each botmatch run in the files (a game, two levels, seats and seed) becomes one row of the
ladder: the stronger level's points per hand against the weaker, its 95% interval, the hands
played, the decision times and the command that measures it again. Each rlcardmatch run (one
of our levels against RLCard's Dou Dizhu rule agent) becomes a row against an outside program:
the share of games won, as landlord and as peasants, with intervals. The page (/strength/)
shows the file as it is: its figures are measured, never typed.
"""

from __future__ import annotations

import glob
import json
from datetime import date
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.bench import rlcard_match
from games.bench.harness import records_by_run, summarize

DEFAULT_OUT = Path(settings.BASE_DIR) / "games" / "strength.json"
LADDER = ("random", "easy", "normal", "hard")


def _step(level: str) -> int:
    """A level's place on the ladder, for the rows' order (unknown levels last)."""
    return LADDER.index(level) if level in LADDER else len(LADDER)


def rows_from(paths: list[str]) -> list[dict]:
    runs = records_by_run(paths, needs=("diffs",))
    rows = []
    for key, by_deal in runs.items():
        config = json.loads(key)
        if config.get("layout", "rotate") != "rotate":
            continue  # the ladder's figures are hero against three villains
        figures = summarize(list(by_deal.values()))
        if figures["deals"] < 2:
            continue
        rows.append(
            {
                "game": config["game"],
                "hero": config["hero"],
                "villain": config["villain"],
                "seats": config["seats"],
                "deals": figures["deals"],
                "hands": figures["hands"],
                "mean": _tenths(figures["mean"]),
                "low": _tenths(figures["low"]),
                "high": _tenths(figures["high"]),
                "p95_ms": round(figures["p95_ms"], 2),
                "command": (
                    f"manage.py botmatch {config['game']} --hero {config['hero']} "
                    f"--villain {config['villain']} --seats {config['seats']} "
                    f"--seed {config['seed']} --hands {figures['deals']}"
                ),
            }
        )
    return sorted(rows, key=lambda r: (r["game"], r["seats"], _step(r["hero"])))


def outside_from(paths: list[str]) -> list[dict]:
    """One row per rlcardmatch run: our level against RLCard's Dou Dizhu rule agent."""
    runs = records_by_run(paths, needs=("landlord", "peasants"))
    rows = []
    for key, by_deal in runs.items():
        config = json.loads(key)
        if len(by_deal) < 2:
            continue
        figures = rlcard_match.summarize(list(by_deal.values()))
        budget = config.get("options", {}).get("budget")
        rows.append(
            {
                "game": rlcard_match.GAME,
                "level": config["level"],
                "opponent": rlcard_match.OPPONENT,
                "deals": figures["deals"],
                "games": 2 * figures["deals"],
                **_percent("won", figures["overall_win"]),
                **_percent("landlord", figures["landlord"]["win"]),
                **_percent("peasants", figures["peasants"]["win"]),
                "command": (
                    f"manage.py rlcardmatch --level {config['level']} --seed {config['seed']} "
                    f"--deals {figures['deals']}" + (f" --budget {budget}" if budget else "")
                ),
            }
        )
    return sorted(rows, key=lambda r: _step(r["level"]))


def _updated(old: dict, rows: list[dict], outside: list[dict]) -> tuple[list, list]:
    """The file's rows with those measured again replaced (a ladder row is its game, its two
    levels and its seats; a row against an outside program is its level)."""

    def ladder_key(row: dict) -> tuple:
        return (row["game"], row["hero"], row["villain"], row["seats"])

    new = {ladder_key(r) for r in rows}
    kept = [r for r in old.get("rows", []) if ladder_key(r) not in new]
    ladder = sorted([*kept, *rows], key=lambda r: (r["game"], r["seats"], _step(r["hero"])))
    levels = {r["level"] for r in outside}
    others = [r for r in old.get("outside", []) if r["level"] not in levels]
    return ladder, sorted([*others, *outside], key=lambda r: _step(r["level"]))


def _percent(name: str, interval: tuple) -> dict:
    mean, low, high = interval
    return {
        name: _tenths(100 * mean),
        f"{name}_low": _tenths(100 * max(0.0, low)),
        f"{name}_high": _tenths(100 * min(1.0, high)),
    }


def _tenths(value: float) -> float:
    return round(value, 1) + 0.0  # never "-0.0"


class Command(BaseCommand):
    help = (
        "Write the strength page's figures (games/strength.json) from botmatch and "
        "rlcardmatch results."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "files", nargs="*", help="results files (default bench-results/*.jsonl)"
        )
        parser.add_argument("--out", default=str(DEFAULT_OUT))
        parser.add_argument(
            "--update",
            action="store_true",
            help="replace only the rows these files measure again, keeping the file's others",
        )

    def handle(self, *args, **opts):
        paths = opts["files"] or sorted(
            glob.glob(str(Path(settings.BASE_DIR) / "bench-results" / "*.jsonl"))
        )
        if not paths:
            raise CommandError("no results files: run botmatch with --results first")
        rows = rows_from(paths)
        outside = outside_from(paths)
        if opts["update"] and Path(opts["out"]).exists():
            rows, outside = _updated(json.loads(Path(opts["out"]).read_text()), rows, outside)
        data = {"measured": date.today().isoformat(), "rows": rows, "outside": outside}
        Path(opts["out"]).write_text(json.dumps(data, indent=1) + "\n")
        self.stdout.write(
            f"{len(rows)} row(s) of the ladder and {len(outside)} against outside programs "
            f"from {len(paths)} file(s) -> {opts['out']}"
        )
