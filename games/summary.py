"""A table's public facts for pages and plug-ins (``TableSummary``): never its seed or state."""

from __future__ import annotations

import functools

from django.utils.translation import gettext as _

from games.models import Table
from games.tables.base import SeatSummary, TableSummary

BOT_NAMES = {1: "Lan", 2: "Wei", 3: "Jun"}


def _seat_name(seat, waiting: bool, shared: bool = False) -> str:
    if seat.is_bot:
        return BOT_NAMES.get(seat.index, _("Bot"))
    user = seat.user
    if user is None:
        return _("Open seat") if waiting else _("deleted player")
    profile = getattr(user, "profile", None)
    if profile is not None and profile.display_name:
        return profile.display_name
    if profile is not None and profile.is_guest:
        if shared:  # several guests at one table: tell them apart
            return _("Guest %(tag)s") % {"tag": user.get_username()[-4:].upper()}
        return _("Guest")
    return user.get_username()


@functools.cache
def _labels(model, name: str) -> dict:
    """A field's choices as a dict, worked out once: ``get_FOO_display()`` flattened and
    hashed them on every call, a twentieth of a board's render."""
    return dict(model._meta.get_field(name).flatchoices)


def _display(obj, name: str) -> str:
    """``obj.get_<name>_display()``, translated into the active language."""
    value = getattr(obj, name)
    return str(_labels(type(obj), name).get(value, value))


def _level(seat) -> str:
    if seat.is_bot:
        return _display(seat, "bot_level")
    if seat.plays_itself:
        return str(_("auto-play"))
    return ""


def summarize(table: Table, presence: dict | None = None, watchers: int = 0) -> TableSummary:
    """Read with the seats prefetched (``services.get_table``): no further query.

    ``presence``: each person's seat's presence at a table for people (``services.presence_of``).
    """
    waiting = table.status == Table.Status.WAITING
    presence = presence or {}
    return TableSummary(
        code=str(table.code),
        game=table.game,
        status=table.status,
        level=table.level,
        options=dict(table.options or {}),
        game_label=_display(table, "game"),
        status_label=_display(table, "status"),
        created_at=table.created_at,
        seats=tuple(
            SeatSummary(
                index=seat.index,
                name=_seat_name(seat, waiting, table.shared),
                is_bot=seat.plays_itself and not waiting,
                level=_level(seat) if not waiting or seat.is_bot else "",
                person=seat.kind == seat.Kind.PERSON,
                autoplay=seat.autoplay,
                left=seat.left,
                presence=presence.get(seat.index, ""),
            )
            for seat in table.seat_list
        ),
        shared=table.shared,
        spectators=table.spectators,
        one_hand=bool(table.start),
        watchers=watchers,
        turn_seconds=table.turn_seconds,
        turn_due_at=table.turn_due_at,
    )
