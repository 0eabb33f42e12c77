"""Who is at a table: sockets opened and closed, heartbeats and the sweep of dead ones, each
person's presence; the deadlines that put a person on auto-play (a turn timer run out, a
grace ended) and taking the seat back; quick reactions."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from cardsite import ratelimit
from games import realtime, signals
from games.models import Presence, Seat, Table
from games.registry import table_game
from games.services.pacing import _schedule_bots, _update_timer_due
from games.services.reading import _stale_before, get_table, load_state, seat_of
from games.services.store import Refused, _one_with_seats, _save_row, _seat
from games.services.unit import Unit, _locked, _locked_seat, _send_on_commit

log = logging.getLogger(__name__)


def _grace() -> timedelta:
    return timedelta(seconds=settings.AWAY_GRACE_SECONDS)


def _present_seats(table: Table, now) -> set[int]:
    return set(
        table.presences.filter(seen_at__gte=_stale_before(now), seat__isnull=False).values_list(
            "seat", flat=True
        )
    )


def _expire_deadlines(unit: Unit, table: Table, now) -> None:
    """On a locked table: a turn timer that ran out, or a grace that ended, puts the person
    on auto-play. Checked again here under the lock, so it acts exactly once."""
    game = table_game(table.game).engine
    state = load_state(table) if table.is_active else None
    expired = []
    if table.turn_due_at is not None and table.turn_due_at <= now:
        table.turn_due_at = None
        if state is not None and not game.hand_over(state):
            expired += [_seat(table, m) for m in game.to_move(state)]
    present = None
    for seat in table.seat_list:
        if seat.away_due_at is not None and seat.away_due_at <= now:
            seat.away_due_at = None
            seat.save(update_fields=["away_due_at"])
            present = _present_seats(table, now) if present is None else present
            if seat.index not in present:
                expired.append(seat)
    changed = False
    for seat in expired:
        if table.is_active and seat.kind == Seat.Kind.PERSON and not seat.plays_itself:
            seat.autoplay = True
            seat.save(update_fields=["autoplay"])
            changed = True
    if changed:
        table.version += 1
        _schedule_bots(table, state)
        unit.notify(table)
    else:
        _update_timer_due(table)
    _save_row(table)


def _take_back_seat(table: Table, index: int) -> bool:
    """End auto-play for the person at ``index`` (their own action); refused if they left."""
    seat = _seat(table, index)
    if seat.left:
        raise Refused("left_match")
    if not seat.autoplay:
        return False
    seat.autoplay = False
    seat.away_due_at = None
    seat.save(update_fields=["autoplay", "away_due_at"])
    return True


def take_back(code, user) -> Table:
    """The person takes their seat back from auto-play (the button, for a person whose turn
    timer ran out while their page was open: coming back to the page takes it back by itself,
    ``socket_opened``)."""
    with transaction.atomic():
        unit = Unit()
        table, index = _locked_seat(code, user)
        if not table.is_active:
            raise Refused("match_finished")
        _took_back(unit, table, index)
    return table


def _took_back(unit: Unit, table: Table, index: int) -> bool:
    """On a locked active table: end auto-play for the person at ``index`` if it plays for
    them (their turn is theirs again, with its timer), and tell the table."""
    if not _take_back_seat(table, index):
        return False
    _schedule_bots(table, load_state(table))
    table.version += 1
    _save_row(table)
    unit.notify(table)
    return True


# The quick reactions a person may send at a table for people (their words: the pages').
REACTIONS = ("hello", "nice", "oops", "thanks", "think", "gg")

# At most this many reactions per person in this many seconds.
REACTION_LIMIT, REACTION_WINDOW = 3, 10


def react(code, user, key) -> None:
    """A quick reaction from a seated person, shown to everyone at the table for a moment.
    Not state: nothing is stored but the rate limit's count."""
    if not isinstance(key, str) or key not in REACTIONS:
        raise Refused("bad_reaction")
    table = get_table(code)
    seat = seat_of(table, user)
    if seat is None or not table.shared:
        raise Refused("not_seated")
    try:
        ratelimit.take(ratelimit.Limit.of("react", str(user.pk), REACTION_LIMIT, REACTION_WINDOW))
    except ratelimit.Exceeded as e:
        raise Refused("too_fast") from e
    # A reaction is news, not state: one lost is only logged.
    realtime.send_to_group(
        realtime.table_group(str(table.code)),
        {"type": "table.reaction", "seat": seat, "key": key},
        lambda e: log.warning("could not send a reaction at table %s: %r", table.code, e),
    )


def socket_opened(code, user, channel: str) -> None:
    """A socket of a shared table opened: its person is connected (their grace, if any,
    ends), and a person a computer played for while they were away is back in their seat, as
    on BGA: coming back to the table is enough, whether or not they notice the badge. One who
    left the match stays out of it."""
    now = timezone.now()
    with transaction.atomic():
        unit = Unit()
        table = _locked(code)
        index = seat_of(table, user)
        Presence.objects.create(
            table=table, seat=index, user=user, channel=channel[:200], seen_at=now
        )
        if index is not None:
            seat = _seat(table, index)
            back = table.is_active and not seat.left and _took_back(unit, table, index)
            if not back and seat.away_due_at is not None:  # (taken back: saved and told)
                seat.away_due_at = None
                seat.save(update_fields=["away_due_at"])
                _update_timer_due(table)
                table.save(update_fields=["timer_due_at"])
        _notify_presence(table)


def socket_closed(channel: str) -> None:
    """A socket closed: when it was its person's last, their grace begins."""
    now = timezone.now()
    with transaction.atomic():
        row = Presence.objects.filter(channel=channel[:200]).first()
        if row is None:
            return
        row.delete()
        table = _one_with_seats(Table.objects.select_for_update(), pk=row.table_id)
        if row.seat is not None and table.is_active:
            seat = _seat(table, row.seat)
            if not seat.plays_itself and row.seat not in _present_seats(table, now):
                seat.away_due_at = now + _grace()
                seat.save(update_fields=["away_due_at"])
                _update_timer_due(table)
                table.save(update_fields=["timer_due_at"])
                due = table.timer_due_at
                transaction.on_commit(
                    lambda: signals.bot_move_due.send(sender=Table, code=str(table.code), due=due)
                )
        _notify_presence(table)


def heartbeat(channel: str) -> None:
    Presence.objects.filter(channel=channel[:200]).update(seen_at=timezone.now())


def sweep_presence(limit: int = 50) -> int:
    """Sockets of a process that died never closed: their rows went stale; close them now."""
    channels = list(
        Presence.objects.filter(seen_at__lt=_stale_before(timezone.now())).values_list(
            "channel", flat=True
        )[:limit]
    )
    for channel in channels:
        socket_closed(channel)
    return len(channels)


def _notify_presence(table: Table) -> None:
    """After commit: the seats' presence changed (no new version: no move is made stale)."""
    code, version = str(table.code), table.version

    _send_on_commit(
        realtime.table_group(code),
        {"type": "table.changed", "version": version, "refresh": True},
        lambda e: log.warning("could not notify table %s of presence: %r", code, e),
    )
