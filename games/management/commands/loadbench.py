"""``manage.py loadbench``: live latency and throughput of N tables over real WebSockets.

See ``games/bench/load.py`` for what is measured and how.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.bench import load


def _counts(value: str) -> list[int]:
    try:
        return [int(v) for v in value.split(",") if v.strip()]
    except ValueError as e:
        raise CommandError(f"--tables takes numbers like 1,10,50, not {value!r}") from e


def _core(value: str) -> int | None:
    if value == "last":
        return load.default_client_core()
    if value == "none":
        return None
    try:
        return int(value)
    except ValueError as e:
        raise CommandError(
            f"--client-core takes a core's number, last or none, not {value!r}"
        ) from e


class Command(BaseCommand):
    help = (
        "Drive N concurrent tables over WebSockets against daphne on 127.0.0.1 (started here, "
        "or --url) and print the latency from a human's action to that player's updated board "
        "(median, p95, p99) and the actions per second, beside a bare consumer measured in the "
        "same run. Creates its own users and tables in the configured database and removes "
        "them afterwards."
    )

    def add_arguments(self, parser):
        games = list(load.policies())  # the playable games, in the registry's order
        parser.add_argument("--game", default=games[0], choices=games)
        parser.add_argument(
            "--tables", default="1,10,50", help=f"table counts, at most {load.MAX_TABLES}"
        )
        parser.add_argument(
            "--seconds",
            type=float,
            default=10.0,
            help=f"length of one measurement, at most {load.MAX_SECONDS:.0f}",
        )
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            help="daphne processes to start (several need REDIS_URL)",
        )
        parser.add_argument(
            "--regime",
            choices=["human", "together", "closed", "both", "all"],
            default="both",
            help="both: human and closed; all: human, together and closed",
        )
        parser.add_argument("--level", choices=["easy", "normal", "hard"], default="normal")
        parser.add_argument("--repeat", type=int, default=1, help="runs; medians are reported")
        parser.add_argument(
            "--url",
            action="append",
            default=[],
            help="a running daphne (http://127.0.0.1:PORT) on this database instead of "
            "starting processes; repeat for several. Its GAME_PACING is its own; the bare "
            "consumer needs LOADBENCH_BARE=1 in its environment.",
        )
        parser.add_argument(
            "--think", type=float, default=load.HUMAN_THINK, help="human pace: seconds per turn"
        )
        parser.add_argument("--no-bare", action="store_true", help="skip the bare consumer")
        parser.add_argument(
            "--reads",
            action="store_true",
            help="before each play, ask what the selection is as a play (a read request, as a "
            "player's page does while selecting; counted apart from the actions)",
        )
        parser.add_argument(
            "--reviews",
            type=int,
            default=0,
            help="play this many Gong Zhu hands as a reviewer first and ask for their reviews as "
            "each measurement starts: the low-priority review worker runs while the bots move",
        )
        parser.add_argument(
            "--flood",
            type=int,
            default=0,
            help="measure each table count twice in the same run, alone and while this many "
            "other sockets (at tables of their own) send moves the server refuses (stale or "
            f"out of turn; half at a socket's allowance of {load.FLOOD_WITHIN:g} a second, half "
            f"at {load.FLOOD_BEYOND:g}), and print the ratio with the flood / alone (FLOOD "
            f"RATIO; at most {load.MAX_FLOOD})",
        )
        parser.add_argument(
            "--client-core",
            default="last",
            help="the core the load generator keeps to (the daphne processes use every "
            "core): a core's number, last (the default; none on a one-core machine) or none",
        )
        parser.add_argument("--log-dir", type=Path, default=None, help="daphne logs go here")
        parser.add_argument(
            "--profile", type=Path, default=None, help="run daphne under cProfile into this dir"
        )

    def handle(self, *args, **opts):
        config = load.Config(
            game=opts["game"],
            tables=_counts(opts["tables"]),
            seconds=opts["seconds"],
            processes=opts["processes"],
            regimes={"both": ["human", "closed"], "all": list(load.REGIMES)}.get(
                opts["regime"], [opts["regime"]]
            ),
            level=opts["level"],
            repeat=opts["repeat"],
            urls=opts["url"],
            think=opts["think"],
            bare=not opts["no_bare"],
            reads=opts["reads"],
            reviews=opts["reviews"],
            flood=opts["flood"],
            log_dir=opts["log_dir"],
            profile_dir=opts["profile"],
            client_core=_core(opts["client_core"]),
        )
        if config.profile_dir is not None:
            config.profile_dir.mkdir(parents=True, exist_ok=True)
        try:
            load.run(config, lambda line: self.stdout.write(line))
        except ValueError as e:
            raise CommandError(str(e)) from e
