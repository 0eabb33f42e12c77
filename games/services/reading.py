"""The table as its viewers see it: read (or this process's copy of a commit), as shown now,
with each seat's view of it. To render, never to change: writers lock (``unit._locked``)."""

from __future__ import annotations

from django.utils import timezone

from games.models import Table
from games.registry import table_game
from games.services.pacing import _reveal_until, as_shown
from games.services.store import Refused, _by_code, _kept, parse_code


def get_table(code) -> Table:
    """The table as its viewers see it now (``as_shown``), to read and never to change."""
    try:
        return as_shown(_by_code(parse_code(code), lock=False))
    except Table.DoesNotExist as e:
        raise Refused("no_such_table") from e


def showing_table(code) -> Table | None:
    """This process's copy of the table when it committed moves to be shown one by one, as
    shown now (``as_shown``; the last of them too, once it shows); None when there is none
    (no read: it never touches the database)."""
    kept = _kept(code)
    if kept is None or kept.reveal is None:
        return None
    return as_shown(kept)


def committed_table(code, version: int | None) -> Table:
    """The table as committed at ``version`` or later, as shown now (``as_shown``; its seats
    loaded), to render and never to change: this process's copy if it made that commit,
    else read (and always read for no version). A notice's version is the version its commit
    made, so a copy of that version is what the database holds; a version on its way (a
    socket drawing the next of the moves being shown) is in the copy's reveal."""
    kept = _kept(code)
    if kept is not None and version is not None:
        on_its_way = _reveal_until(kept, timezone.now().timestamp()) is not None
        if kept.version == version or (on_its_way and kept.version > version):
            return as_shown(kept)
    return get_table(code)


def game_of(code) -> str:
    """The game a table plays (one small query)."""
    try:
        return Table.objects.values_list("game", flat=True).get(code=parse_code(code))
    except Table.DoesNotExist as e:
        raise Refused("no_such_table") from e


def seat_of(table: Table, user) -> int | None:
    """The seat index ``user`` plays at this table, or None for anyone else."""
    if user is None or not user.is_authenticated:
        return None
    for seat in table.seats.all():
        if seat.user_id == user.pk:
            return seat.index
    return None


def load_state(table: Table):
    if not table.seed:
        raise Refused("not_started")  # a table for people before its match
    return table_game(table.game).engine.from_json(table.state)


def view_for(table: Table, seat: int | None, state=None) -> dict:
    """What ``seat`` may see (the public view for a spectator), with the table's version."""
    game = table_game(table.game).engine
    state = load_state(table) if state is None else state
    view = game.observation(state, seat) if seat is not None else game.public_view(state)
    view["version"] = table.version
    return view
