"""``manage.py train G``: make the data and train a game's learned evaluation (issue 47).

Resumable: the data comes in chunks of games, one file each under ``--work``, made only where
missing; the same seed and command make the same files and the same weights. Training reads
every chunk asked for and writes the weights (``--out``, by default the file the bots ship
with) only at the end.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.registry import table_games


def trainers() -> dict[str, str]:
    """The games with a learned evaluation, by name: those whose plug-in has a trainer, the
    module ``games.bench.<game>_train`` (its ``make_data``, ``load``, ``train`` and the
    ``WEIGHTS`` the bots read)."""
    found = {}
    for g in table_games():
        module = f"games.bench.{g.name}_train"
        if importlib.util.find_spec(module) is not None:
            found[g.name] = module
    return found


class Command(BaseCommand):
    help = "Make the data for a game's learned evaluation (in resumable chunks) and train it."

    def add_arguments(self, parser):
        parser.add_argument("game", choices=sorted(trainers()))
        parser.add_argument("--chunks", type=int, default=300, help="chunks of 200 games")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--jobs", type=int, default=1, help="worker processes for the data")
        parser.add_argument("--work", default=".train", help="where the data's chunks are kept")
        parser.add_argument("--hidden", type=int, default=64)
        parser.add_argument("--epochs", type=int, default=8)
        parser.add_argument("--out", default=None, help="the weights (default: the shipped file)")
        parser.add_argument("--data-only", action="store_true")

    def handle(self, *args, **opts):
        trainer = importlib.import_module(trainers()[opts["game"]])
        if opts["chunks"] < 1:
            raise CommandError("--chunks is at least 1")
        work = Path(opts["work"]) / opts["game"]
        start = time.monotonic()
        paths = trainer.make_data(
            work,
            opts["seed"],
            opts["chunks"],
            jobs=opts["jobs"],
            progress=lambda p: self.stdout.write(f"data: {p}"),
        )
        self.stdout.write(f"data: {len(paths)} chunks in {time.monotonic() - start:.0f} s")
        if opts["data_only"]:
            return
        X, Y, games = trainer.load(paths)
        self.stdout.write(f"training on {len(X)} positions of {len(set(games.tolist()))} games")

        def report(r):
            self.stdout.write(
                f"epoch {r['epoch']}: held-out log-loss cheap {r['cheap']:.4f} "
                f"(a constant guess {r['cheap_constant']:.4f}), normal {r['normal']:.4f} "
                f"({r['normal_constant']:.4f})"
            )

        model, summary = trainer.train(
            X,
            Y,
            games,
            seed=opts["seed"],
            hidden=opts["hidden"],
            epochs=opts["epochs"],
            progress=report,
        )
        out = Path(opts["out"]) if opts["out"] else trainer.WEIGHTS
        data = model.to_json()
        data["trained"] = {
            "command": (
                f"manage.py train {opts['game']} --chunks {opts['chunks']} --seed {opts['seed']} "
                f"--hidden {opts['hidden']} --epochs {opts['epochs']}"
            ),
            **summary,
        }
        out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        self.stdout.write(f"weights: {out} ({out.stat().st_size // 1024} KB)")
