"""``manage.py botmatch <game>``: bot-only hands, hero against villains (games/bench/harness.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.bench import harness
from games.engine import game_names, get_game


class Command(BaseCommand):
    help = (
        "Play bot-only hands, each deal once per seating of the layout (by default the hero in "
        "every seat); print the hero's mean score per hand minus the villains' with a 95% "
        "interval, and the decision times."
    )

    def add_arguments(self, parser):
        parser.add_argument("game")
        players = (
            "random, easy, normal, hard or a benchmark-only player that the game's bench "
            "plug-in names; options may follow a colon (hard:exposures=false,samples=40)"
        )
        parser.add_argument("--hero", default="normal", help=players)
        parser.add_argument("--villain", default="easy", help=players)
        parser.add_argument(
            "--hands", type=int, default=100, help="number of deals N (N x K hands)"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--seats", type=int, default=None, help="K (default: the game's first)")
        parser.add_argument("--jobs", type=int, default=1, help="worker processes")
        parser.add_argument("--results", default=None, help="JSON-lines file: append, resume")
        parser.add_argument("--budget", type=int, default=None, help="search budget of hard")
        parser.add_argument(
            "--layout",
            choices=harness.LAYOUTS,
            default="rotate",
            help="rotate: the hero in each seat in turn, the villain in the others; pairs: the "
            "hero in the even seats and the villain in the odd ones, then swapped",
        )
        parser.add_argument(
            "--first-decisions-only",
            action="store_true",
            help="the hero and the villain play alike after each seat's first decision of a "
            "hand (Gong Zhu's exposures): with the pairs layout, a deal where every first "
            "decision is the same in both seatings is scored 0 without being played",
        )
        parser.add_argument("--quiet", action="store_true", help="no progress lines")

    def handle(self, *args, **opts):
        name = opts["game"]
        if name not in game_names():
            raise CommandError(f"unknown game {name!r}")
        for role in ("hero", "villain"):
            try:
                harness.check_spec(name, opts[role])
            except ValueError as e:
                raise CommandError(f"{role} {opts[role]!r}: {e}") from None
        game = get_game(name)
        seats = opts["seats"] or game.seat_counts[0]
        if seats not in game.seat_counts:
            raise CommandError(f"{name} is played by {game.seat_counts} seats, not {seats}")
        try:
            harness.seatings(opts["layout"], seats)
        except ValueError as e:
            raise CommandError(str(e)) from None
        if opts["first_decisions_only"] and opts["layout"] != "pairs":
            raise CommandError("--first-decisions-only needs --layout pairs")
        config = harness.MatchConfig(
            game=name,
            hero=opts["hero"],
            villain=opts["villain"],
            seats=seats,
            seed=opts["seed"],
            hero_options=harness.bot_options(name, opts["hero"], opts["budget"]),
            villain_options=harness.bot_options(name, opts["villain"], opts["budget"]),
            layout=opts["layout"],
        )
        step = max(1, opts["hands"] // 20)

        def progress(done, total):
            if not opts["quiet"] and (done % step == 0 or done == total):
                self.stderr.write(f"  {done}/{total} deals")

        records = harness.run_match(
            config,
            opts["hands"],
            jobs=opts["jobs"],
            results=opts["results"],
            progress=progress,
            first_only=opts["first_decisions_only"],
        )
        self.stdout.write(harness.format_summary(config, harness.summarize(records)))
