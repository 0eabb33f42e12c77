"""``manage.py enginebench <game>``: random hands per second and legal_actions timings."""

from __future__ import annotations

import argparse

from django.core.management.base import BaseCommand, CommandError

from games.bench import harness
from games.engine import game_names


class Options(argparse.Namespace):
    """The command's options for a plug-in's ``compare``: ``args.seed`` or ``args["seed"]``."""

    def __getitem__(self, key):
        return getattr(self, key)

    def get(self, key, default=None):
        return getattr(self, key, default)


class Command(BaseCommand):
    help = (
        "Print full random hands per second (legal actions listed at every step) and the "
        "median time of one legal_actions call, medians over several runs."
    )

    def add_arguments(self, parser):
        parser.add_argument("game")
        parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
        parser.add_argument("--runs", type=int, default=3)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--positions", type=int, default=2000, help="positions per set")
        parser.add_argument("--compare", default=None, help="a comparison the game's plug-in runs")

    def handle(self, *args, **opts):
        name = opts["game"]
        if name not in game_names():
            raise CommandError(f"unknown game {name!r}")
        if opts["compare"]:
            module = harness.plugin(name)
            if not module or not hasattr(module, "compare"):
                raise CommandError(f"{name} has no comparisons")
            module.compare(opts["compare"], Options(**opts))
            return
        result = harness.engine_bench(
            name,
            seconds=opts["seconds"],
            runs=opts["runs"],
            seed=opts["seed"],
            positions=opts["positions"],
        )
        self.stdout.write(harness.format_engine_bench(result))
