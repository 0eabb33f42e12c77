"""A table's public facts for pages and plug-ins (``TableSummary``): never its seed or state."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Table
from games.tables.base import SeatSummary, TableSummary

BOT_NAMES = {1: "Lan", 2: "Wei", 3: "Jun"}


def _seat_name(seat) -> str:
    if seat.is_bot:
        return BOT_NAMES.get(seat.index, _("Bot"))
    user = seat.user
    if user is None:
        return _("(left)")
    profile = getattr(user, "profile", None)
    if profile is not None and profile.display_name:
        return profile.display_name
    if profile is not None and profile.is_guest:
        return _("Guest")
    return user.get_username()


def summarize(table: Table) -> TableSummary:
    """Read with the seats prefetched (``services.get_table``): no further query."""
    return TableSummary(
        code=str(table.code),
        game=table.game,
        status=table.status,
        level=table.level,
        options=dict(table.options or {}),
        game_label=str(table.get_game_display()),
        status_label=str(table.get_status_display()),
        created_at=table.created_at,
        seats=tuple(
            SeatSummary(
                index=seat.index,
                name=_seat_name(seat),
                is_bot=seat.is_bot,
                level=str(seat.get_bot_level_display()) if seat.is_bot else "",
            )
            for seat in table.seats.all()
        ),
    )
