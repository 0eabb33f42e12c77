"""``manage.py rlcardmatch``: our Dou Dizhu bots against RLCard's rule agent (rlcard_match.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.bench import harness, rlcard_match
from games.bench.rlcard_match import GAME


class Command(BaseCommand):
    help = (
        f"Play our Dou Dizhu bot against {rlcard_match.OPPONENT} on the same deals with roles "
        "swapped (landlord fixed, no bidding); print win rate and points per deal per role."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--level",
            default="normal",
            help="easy, normal, hard or perfect (benchmark-only: sees every hand), with options "
            "as botmatch takes them: hard:pool=3,recent=4",
        )
        parser.add_argument("--deals", type=int, default=200)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--jobs", type=int, default=1, help="worker processes")
        parser.add_argument("--results", default=None, help="JSON-lines file: append, resume")
        parser.add_argument("--budget", type=int, default=None, help="search budget of hard")
        parser.add_argument("--quiet", action="store_true")

    def handle(self, *args, **opts):
        try:
            harness.check_spec(GAME, opts["level"])
        except ValueError as e:
            raise CommandError(str(e)) from None
        level, own = harness.split_spec(opts["level"])
        players = [p for p in harness.player_names(GAME) if p != "random"]
        if level not in players:
            names = f"{', '.join(players[:-1])} or {players[-1]}"
            raise CommandError(f"--level is {names}, not {level!r}")
        # as botmatch gives them: the level's options and --budget, then the spec's own
        options = {**harness.bot_options(GAME, level, opts["budget"]), **own}
        try:
            import rlcard  # noqa: F401
        except ImportError:
            raise CommandError("RLCard is not installed: pip install -e '.[bench]'") from None
        step = max(1, opts["deals"] // 20)

        def progress(done, total):
            if not opts["quiet"] and (done % step == 0 or done == total):
                self.stderr.write(f"  {done}/{total} deals")

        records = rlcard_match.run(
            level,
            opts["deals"],
            seed=opts["seed"],
            options=options,
            jobs=opts["jobs"],
            results=opts["results"],
            progress=progress,
        )
        summary = rlcard_match.summarize(records)
        self.stdout.write(rlcard_match.format_summary(opts["level"], summary))
