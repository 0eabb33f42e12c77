"""Write the computer players' strength page's figures from botmatch's results files.

    manage.py strength                              # bench-results/*.jsonl -> games/strength.json
    manage.py strength results/a.jsonl results/b.jsonl --out games/strength.json

Each run in the files (a game, two levels, seats and seed) becomes one row: the stronger
level's points per hand against the weaker, its 95% interval, the hands played, the decision
times and the command that measures it again. The page (/strength/) shows the file as it is:
its figures are measured, never typed.
"""

from __future__ import annotations

import glob
import json
from datetime import date
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.bench.harness import summarize

DEFAULT_OUT = Path(settings.BASE_DIR) / "games" / "strength.json"


def rows_from(paths: list[str]) -> list[dict]:
    runs: dict[str, list[dict]] = {}
    for path in paths:
        with open(path) as lines:
            for line in lines:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by an interrupted run
                if isinstance(record, dict) and "run" in record and "diffs" in record:
                    runs.setdefault(record["run"], {})[record["deal"]] = record
    rows = []
    for key, by_deal in runs.items():
        config = json.loads(key)
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
    ladder = ["random", "easy", "normal", "hard"]
    return sorted(
        rows,
        key=lambda r: (
            r["game"],
            r["seats"],
            ladder.index(r["hero"]) if r["hero"] in ladder else 9,
        ),
    )


def _tenths(value: float) -> float:
    return round(value, 1) + 0.0  # never "-0.0"


class Command(BaseCommand):
    help = "Write the strength page's figures (games/strength.json) from botmatch results."

    def add_arguments(self, parser):
        parser.add_argument(
            "files", nargs="*", help="results files (default bench-results/*.jsonl)"
        )
        parser.add_argument("--out", default=str(DEFAULT_OUT))

    def handle(self, *args, **opts):
        paths = opts["files"] or sorted(
            glob.glob(str(Path(settings.BASE_DIR) / "bench-results" / "*.jsonl"))
        )
        if not paths:
            raise CommandError("no results files: run botmatch with --results first")
        rows = rows_from(paths)
        data = {"measured": date.today().isoformat(), "rows": rows}
        Path(opts["out"]).write_text(json.dumps(data, indent=1) + "\n")
        self.stdout.write(f"{len(rows)} row(s) from {len(paths)} file(s) -> {opts['out']}")
