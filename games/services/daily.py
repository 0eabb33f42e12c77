"""The deal of the day: one deal per game per day, the same cards and seat for everyone, played
once per account against Hard (which, given the same moves, plays the same way for everyone:
the table's seed is the deal's), unrated; the day's standings and the comparison with the
players who reached the same position, from aggregates kept as players finish
(``moves._record_daily``), never counted per view.

The day is the site's (``TIME_ZONE``): it rolls over at midnight there.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from datetime import date, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import DailyChoice, DailyDeal, DailyEntry, DailyScore, DailySeen, Table
from games.registry import table_game
from games.services.seating import one_hand_table, turned
from games.services.store import Refused
from games.services.tally import position_key
from games.services.unit import Unit

DAILY_LEVEL = "hard"
# Of the comparison's positions, those at least this many players reached.
COMPARED_FROM = 2


def today() -> date:
    """The site's day now (it rolls over at midnight in ``TIME_ZONE``)."""
    return timezone.localdate()


def _draw(game_name: str, day: date) -> random.Random:
    """The day's draw for a game: the same for everyone, and unknown before the day to anyone
    without the site's secret key (the code is public, the key is not)."""
    key = settings.SECRET_KEY.encode()
    digest = hmac.new(key, f"daily:{game_name}:{day.isoformat()}".encode(), hashlib.sha256)
    return random.Random(digest.digest())


def _one_hand_options(info) -> dict:
    """The game's default options, a match of hands played as one (the deal is one hand)."""
    options = dict(info.default_options)
    if "hands" in info.options and 1 in info.options["hands"]:
        options["hands"] = 1
    return options


def deal_of(game_name: str, day: date | None = None) -> DailyDeal:
    """The deal of ``day`` (today) for a game, drawn the first time anyone asks for it."""
    day = day or today()
    found = DailyDeal.objects.filter(game=game_name, day=day).first()
    if found is not None:
        return found
    try:
        gspec = table_game(game_name)
    except KeyError as e:
        raise Refused("no_daily") from e
    if not gspec.playable:
        raise Refused("no_daily")
    draw = _draw(game_name, day)
    seed = draw.getrandbits(128)
    info = gspec.info
    seats = draw.choice(info.seat_counts)
    seat = draw.randrange(seats)  # the player's seat in the deal as drawn
    options = _one_hand_options(info)
    engine = gspec.engine
    state = engine.new_match(seed=seed, seats=seats, options=options or None)
    # Turned so that the player's cards are seat 0's (as a deal played again is).
    deal, dealer = turned(engine.dealt(state), engine.public_view(state).get("dealer"), seat)
    try:
        with transaction.atomic():
            return DailyDeal.objects.create(
                game=game_name,
                day=day,
                seed=str(seed),
                deal=deal,
                dealer=dealer,
                options=options,
            )
    except IntegrityError:  # drawn twice at once: the first one stands (the same draw)
        return DailyDeal.objects.get(game=game_name, day=day)


def start_daily(user, game_name: str) -> Table:
    """The player's table for today's deal of a game: theirs again while it runs; a new one if
    they have not played it; refused once played, or after seeing it played (a replay)."""
    daily = deal_of(game_name)
    with transaction.atomic():
        entry = DailyEntry.objects.select_for_update().filter(daily=daily, user=user).first()
        if entry is not None:
            running = entry.table
            if entry.finished_at is None and running is not None and running.is_active:
                return running
            raise Refused("daily_played")
        if DailySeen.objects.filter(daily=daily, user=user).exists():
            raise Refused("daily_seen")
        table = one_hand_table(
            Unit(),
            user,
            game_name,
            {"deal": daily.deal, "dealer": daily.dealer},
            daily.options,
            [DAILY_LEVEL] * (len(daily.deal["hands"]) - 1),
            level=DAILY_LEVEL,
            seed=int(daily.seed),  # Hard's answers follow from it: the same for everyone
            daily=daily,
        )
        try:
            with transaction.atomic():
                DailyEntry.objects.create(daily=daily, user=user, table=table)
        except IntegrityError as e:  # the same player started it twice at once
            raise Refused("daily_played") from e
    return table


def entry_of(daily: DailyDeal, user) -> DailyEntry | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return DailyEntry.objects.filter(daily=daily, user=user).first()


def standings(daily: DailyDeal, entry: DailyEntry | None, top: int = 10) -> dict:
    """The day's standings as one player sees them: their place (ties share one), how many
    they beat, the best result, and the leading players. Reads the kept aggregates (one row
    per score reached) and the top entries by the (deal, score) index: a handful of rows
    whatever the number of players."""
    counts = list(DailyScore.objects.filter(daily=daily).values_list("score", "count"))
    total = sum(c for _s, c in counts)
    mine = None
    if entry is not None and entry.finished_at is not None and entry.score is not None:
        above = sum(c for s, c in counts if s > entry.score)
        below = sum(c for s, c in counts if s < entry.score)
        mine = {
            "score": entry.score,
            "place": above + 1,
            "beaten": below,
            "share_beaten": 100 * below // total if total else 0,
        }
    leaders = []
    for row in (
        DailyEntry.objects.filter(daily=daily, finished_at__isnull=False)
        .select_related("user__profile")
        .order_by("-score", "finished_at")[:top]
    ):
        leaders.append(
            {
                "user": row.user,
                "score": row.score,
                "place": 1 + sum(c for s, c in counts if s > row.score),
                "you": entry is not None and row.pk == entry.pk,
            }
        )
    return {
        "players": total,
        "mine": mine,
        "best": daily.best,
        "leaders": leaders,
        "spread": sorted(counts, reverse=True),
    }


def choices_at(daily: DailyDeal, moves_before: list) -> dict[str, int]:
    """What the players who made ``moves_before`` did next, by move, with their counts."""
    rows = DailyChoice.objects.filter(daily=daily, position=position_key(moves_before))
    return {r.move: r.count for r in rows}


def may_see_played(daily: DailyDeal, user) -> bool:
    """Another player's game of the deal (the best result's replay) may be seen by those who
    have played it, by those who chose to see it instead of playing it (``seen_played``), and
    by everyone once its day is over."""
    if daily.day < today():
        return True
    entry = entry_of(daily, user)
    if entry is not None:
        return entry.finished_at is not None
    return has_seen(daily, user)


def has_seen(daily: DailyDeal, user) -> bool:
    return (
        getattr(user, "is_authenticated", False)
        and DailySeen.objects.filter(daily=daily, user=user).exists()
    )


def seen_played(daily: DailyDeal, user) -> None:
    """``user`` sees the deal played before playing it: from now on they may not enter it.
    Refused while their own game of it runs."""
    if not getattr(user, "is_authenticated", False):
        raise Refused("not_seated")
    entry = entry_of(daily, user)
    if entry is None:
        DailySeen.objects.get_or_create(daily=daily, user=user)
    elif entry.finished_at is None and daily.day == today():
        raise Refused("daily_running")


def streak(user) -> int:
    """Days in a row with a deal of the day finished, up to today (or yesterday, while today's
    is still to play)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    days = set(
        DailyEntry.objects.filter(user=user, finished_at__isnull=False).values_list(
            "daily__day", flat=True
        )
    )
    day = today()
    if day not in days:
        day -= timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count
