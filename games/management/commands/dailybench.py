"""``manage.py dailybench``: the day's standings with many players, timed."""

from __future__ import annotations

import datetime as dt
import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import DailyDeal, DailyEntry, DailyScore
from games.registry import table_games
from games.services.daily import standings

BATCH = 5000


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = (
        "Generate a deal of the day finished by many players (accounts, entries and the kept "
        "aggregates, with scores spread like a trick game's) and time its standings: the function the page "
        "reads, and the whole standings page of one of the players (request to response), "
        "medians of several runs. Everything it writes is rolled back at the end."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=100_000)
        parser.add_argument("--repeat", type=int, default=7, help="timed runs; medians reported")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, **opts):
        players, repeat = opts["players"], opts["repeat"]
        if not 1 <= players <= 1_000_000 or not 1 <= repeat <= 50:
            raise CommandError("--players 1-1000000, --repeat 1-50")
        try:
            with transaction.atomic():
                self._run(players, repeat, random.Random(opts["seed"]))
                raise _Rollback
        except _Rollback:
            pass

    def _run(self, players: int, repeat: int, rng: random.Random) -> None:
        start = time.perf_counter()
        day = dt.date(1999, 1, 1) + dt.timedelta(days=rng.randrange(3000))
        game = next(g.name for g in table_games() if g.playable)  # any: scores are made up
        daily = DailyDeal.objects.create(
            game=game, day=day, seed="1", deal={"hands": []}, dealer=None
        )
        users = get_user_model()
        stamp = timezone.now()
        made = users.objects.bulk_create(
            [users(username=f"dailybench-{day}-{i}", password="!") for i in range(players)],
            batch_size=BATCH,
        )
        if made[0].pk is None:  # a database that does not return new keys
            made = list(users.objects.filter(username__startswith=f"dailybench-{day}-"))
        # Results like Gong Zhu's: mostly small, in tens, a few large.
        scores = [10 * round(rng.gauss(-20, 25)) for _ in range(players)]
        DailyEntry.objects.bulk_create(
            [
                DailyEntry(daily=daily, user=u, score=s, finished_at=stamp)
                for u, s in zip(made, scores, strict=True)
            ],
            batch_size=BATCH,
        )
        counts: dict[int, int] = {}
        for s in scores:
            counts[s] = counts.get(s, 0) + 1
        DailyScore.objects.bulk_create(
            [DailyScore(daily=daily, score=s, count=c) for s, c in counts.items()]
        )
        best = DailyEntry.objects.filter(daily=daily).order_by("-score", "pk").first()
        daily.players, daily.best, daily.best_entry = players, best.score, best
        daily.save()
        self.stdout.write(
            f"{players} players, {len(counts)} distinct scores, made in "
            f"{time.perf_counter() - start:.1f} s ({connection.vendor})"
        )

        someone = DailyEntry.objects.filter(daily=daily).order_by("?").first()
        read, page = [], []
        queries = []
        with connection.execute_wrapper(lambda run, sql, *a: queries.append(sql) or run(sql, *a)):
            standings(daily, someone)
        client = Client()
        client.force_login(someone.user)
        url = reverse("games:daily_day", kwargs={"game": daily.game, "day": day.isoformat()})
        for _ in range(repeat):
            t = time.perf_counter()
            result = standings(daily, someone)
            read.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            response = client.get(url)
            page.append((time.perf_counter() - t) * 1000)
            if response.status_code != 200:
                raise CommandError(f"the standings page answered {response.status_code}")
        mine = result["mine"]
        self.stdout.write(
            f"a player: place {mine['place']} of {result['players']}, better than "
            f"{mine['share_beaten']} %; best {result['best']}"
        )
        self.stdout.write(
            f"standings read ({len(queries)} queries): median {statistics.median(read):.2f} ms, "
            f"max {max(read):.2f} ms over {repeat} runs"
        )
        self.stdout.write(
            f"standings page, request to response: median {statistics.median(page):.2f} ms, "
            f"max {max(page):.2f} ms (target < 100 ms)"
        )
