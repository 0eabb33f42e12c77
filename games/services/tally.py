"""The deal of the day's aggregates, counted as each player finishes (never per view): each
score's players, each position's choices, the deal's players and best. A position is the
digest of a player's moves before it: the deal and Hard's answers being the same for
everyone, equal moves before a decision mean the same position."""

from __future__ import annotations

import hashlib
import json

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.models import ActionLog, DailyChoice, DailyDeal, DailyEntry, DailyScore, Hand, Table


def record_daily(table: Table, hand: Hand) -> None:
    """A deal of the day finished: the player's score and moves, and the day's aggregates
    (each score's count, each position's choices, the players and the best), kept now so that
    the standings never count per view."""
    entry = DailyEntry.objects.select_for_update().filter(table=table).first()
    if entry is None or entry.finished_at is not None:
        return
    moves = list(
        ActionLog.objects.filter(hand_id=hand.pk, seat=0)
        .order_by("seq")
        .values_list("action", flat=True)
    )
    entry.score = hand.scores[0]
    entry.moves = moves
    entry.finished_at = timezone.now()
    entry.save(update_fields=["score", "moves", "finished_at"])
    _count(DailyScore, daily_id=entry.daily_id, score=entry.score)
    for i, move in enumerate(moves):
        _count(
            DailyChoice,
            daily_id=entry.daily_id,
            position=position_key(moves[:i]),
            move=move_key(move),
        )
    daily = DailyDeal.objects.select_for_update().get(pk=entry.daily_id)
    daily.players += 1
    if daily.best is None or entry.score > daily.best:
        daily.best, daily.best_entry = entry.score, entry
    daily.save(update_fields=["players", "best", "best_entry"])


def position_key(moves: list) -> str:
    """The digest of a player's moves so far at a deal of the day: players with the same
    moves before a decision faced the same position (the deal and Hard's answers are the same
    for everyone)."""
    return hashlib.sha1(move_key(moves).encode()).hexdigest()


def move_key(move) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def _count(model, **key) -> None:
    """One more of ``key`` in a counting table (its row made the first time)."""
    if model.objects.filter(**key).update(count=F("count") + 1):
        return
    try:
        with transaction.atomic():
            model.objects.create(count=1, **key)
    except IntegrityError:  # made meanwhile by another finishing player
        model.objects.filter(**key).update(count=F("count") + 1)
