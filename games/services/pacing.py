"""Pacing: a move on its way, and when the next one is due.

Paced, the bots' replies applied in one transaction are shown one by one: the table keeps
the states on the way in its reveal, and every reader sees the table as shown (``as_shown``:
the reveal's last state whose time has come), and each socket draws the next one when it is
due (``consumers.TableConsumer._draw_at``). Here too what a move leaves due: the next bot
move after its pause, a person's turn timer, the earliest deadline the driver acts on.
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Table
from games.registry import table_game
from games.services.store import _copy


def _reveal_until(table: Table, now: float) -> float | None:
    """When the last of the moves still being shown shows (seconds since the epoch), or None
    when nothing is on the way."""
    reveal = table.reveal
    if not reveal or reveal["until"] <= now:
        return None
    return reveal["until"]


def as_shown(table: Table, at: float | None = None) -> Table:
    """``table`` as every view shows it now: while bots' replies that were applied together
    are still being shown (``Table.reveal``), a copy at the last of them whose time has come,
    with ``next_shown_at`` (seconds since the epoch) when the next one shows. Anyone reading
    sees no move before its paced time: the others at the table, a spectator, a reload. Only
    writers (under the table's lock) see the table as it is; and the player who moved, at a
    table where they may show the replies at once (``may_hurry``), is sent them ahead, each
    drawn as it will show (``at``: that time, seconds since the epoch)."""
    now = timezone.now().timestamp() if at is None else at
    if _reveal_until(table, now) is None:
        return table
    steps = table.reveal["steps"]
    k = 0
    while k + 1 < len(steps) and steps[k + 1][0] <= now:
        k += 1
    shown = _copy(table)
    _at, shown.version, shown.state = steps[k]
    shown.reveal = None
    shown.next_shown_at = steps[k + 1][0] if k + 1 < len(steps) else table.reveal["until"]
    return shown


def _paced(table: Table) -> bool:
    return bool(settings.GAME_PACING) and not table.hurry


@contextlib.contextmanager
def pacing(on: bool):
    """The bots paced (``on``) or not for the moves made inside, whatever the setting
    (``GAME_PACING``) says outside: a benchmark's or a command's own hands in this process."""
    before = settings.GAME_PACING
    settings.GAME_PACING = on
    try:
        yield
    finally:
        settings.GAME_PACING = before


def _bot_delay(
    table: Table, before_public: dict | None, state, unit=None, seat: int | None = None
) -> float:
    """The pause before the next bot's move after the one that led to ``state``. ``unit``:
    the command's ``Unit``, which keeps the view worked out here for the next move; ``seat``:
    the bot to move next, whose observation serves as the view (the pause reads only what
    everyone sees in it), kept for its task (``moves._bot_task``), which needs it anyway."""
    if not _paced(table):
        return 0.0
    gspec = table_game(table.game)
    game = gspec.engine
    after = game.public_view(state) if seat is None else game.observation(state, seat)
    if unit is not None:
        unit.public = (state, after, seat)
    return gspec.pause_after(before_public, after)


def _shown_at(table: Table) -> datetime:
    """When the table as it is now shows: now, or when the last move on its way shows."""
    now = timezone.now()
    until = _reveal_until(table, now.timestamp())
    return now if until is None else datetime.fromtimestamp(until, tz=UTC)


def _schedule_bots(
    table: Table,
    state,
    before_public: dict | None = None,
    shown_at: datetime | None = None,
    unit=None,
) -> None:
    """Record when the next bot move is due (or that none is): its pause after the moment
    the table as it is now shows (``shown_at``, else ``_shown_at``), and a person's turn
    timer from that moment."""
    game = table_game(table.game).engine
    movers = [] if game.hand_over(state) else game.to_move(state)
    bots = {s.index for s in table.seat_list if s.plays_itself}
    shown_at = _shown_at(table) if shown_at is None else shown_at
    _set_turn_timer(table, [m for m in movers if m not in bots], shown_at)
    moving = [m for m in movers if m in bots]
    if moving:
        # The bot that moves next (``moves._bot_task`` takes the first): its observation is
        # kept where a command's unit goes on to make its move.
        seat = moving[0] if unit is not None else None
        delay = _bot_delay(table, before_public, state, unit, seat)
        table.bot_due_at = shown_at + timedelta(seconds=delay)
    else:
        table.bot_due_at = None
        table.hurry = False  # the player is to move (or the hand is over): pacing resumes
    table.bot_claimed_until = None
    _update_timer_due(table)


def _set_turn_timer(table: Table, persons: list[int], shown_at: datetime) -> None:
    """Start the turn timer for the persons now to move (none: no timer), from when their
    turn shows.

    In a phase where several decide at once, one person's decision does not restart the
    others' time."""
    if not table.turn_seconds or not persons or table.status != Table.Status.ACTIVE:
        table.turn_due_at = None
    elif len(persons) == 1 or table.turn_due_at is None:
        table.turn_due_at = shown_at + timedelta(seconds=table.turn_seconds)


def _update_timer_due(table: Table) -> None:
    """The earliest deadline the driver must act on: the turn timer or a player's grace."""
    deadlines = [table.turn_due_at] + [s.away_due_at for s in table.seat_list]
    table.timer_due_at = min((d for d in deadlines if d is not None), default=None)
