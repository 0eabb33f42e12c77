"""``manage.py liveprofile``: where a human action's CPU goes, in this process."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.bench import live_profile
from games.engine import game_names


class Command(BaseCommand):
    help = (
        "Play human actions at tables with computer players in this process (the move's "
        "frame handled, then each paced reply drawn as a socket draws it; or, closed, the "
        "replies unpaced in its transaction) and print the CPU "
        "per human action (medians of several runs) and, from a profiled run, the share of "
        "each part: the transaction, the bots, the read, the context, the template, the "
        "frame. Creates its own users and tables in the configured database and removes them."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", action="append", help="a game (repeatable; all if none)")
        parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
        parser.add_argument("--actions", type=int, default=40, help="human actions per run")
        parser.add_argument("--repeat", type=int, default=3, help="runs; medians are reported")
        parser.add_argument("--top", type=int, default=12, help="functions of most own time")
        parser.add_argument(
            "--regime",
            default="human",
            choices=live_profile.REGIMES,
            help="human: the bots' replies paced, each drawn at its time; closed: no pacing, "
            "the replies in the move's transaction and its one board (loadbench's closed loop)",
        )

    def handle(self, *args, **opts):
        games = opts["game"] or game_names()
        for game in games:
            if game not in game_names(unlisted=True):
                raise CommandError(f"unknown game {game!r}")
        if not 1 <= opts["actions"] <= 500 or not 1 <= opts["repeat"] <= 20:
            raise CommandError("--actions 1-500, --repeat 1-20")
        for game in games:
            result = live_profile.run(
                game, opts["level"], opts["actions"], opts["repeat"], opts["top"], opts["regime"]
            )
            self.stdout.write(live_profile.report(result) + "\n")
