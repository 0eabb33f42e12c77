"""The table as its viewers see it: read (or this process's copy of a commit), as shown now,
with each seat's view of it. To render, never to change: writers lock (``unit._locked``).

``board`` / ``look`` are the live side's read model: everything one viewer's board is drawn
from, read once (``Board``); the pages and sockets render it and ask nothing more."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Seat, Table
from games.registry import table_game
from games.services.pacing import _reveal_until, as_shown
from games.services.store import (
    Refused,
    _by_code,
    _kept,
    keep_state,
    kept_state,
    parse_code,
)
from games.summary import _seat_name, summarize
from games.tables.base import TableSummary


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
    for seat in table.seat_list:
        if seat.user_id == user.pk:
            return seat.index
    return None


def load_state(table: Table):
    if not table.seed:
        raise Refused("not_started")  # a table for people before its match
    state = kept_state(table.state)
    if state is None:
        state = table_game(table.game).engine.from_json(table.state)
        keep_state(table.state, state)
    return state


def view_for(table: Table, seat: int | None, state=None) -> dict:
    """What ``seat`` may see (the public view for a spectator), with the table's version."""
    game = table_game(table.game).engine
    state = load_state(table) if state is None else state
    view = game.observation(state, seat) if seat is not None else game.public_view(state)
    view["version"] = table.version
    return view


def seat_view(code, user) -> tuple[Table, dict] | None:
    """The table as shown and what the seat ``user`` plays there sees of it; None for anyone
    without a seat, and before the deal. Refused for no such table."""
    table = get_table(code)
    seat = seat_of(table, user)
    if seat is None or not table.seed:
        return None
    return table, view_for(table, seat)


def _stale_before(now) -> object:
    return now - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)


def presence_of(table: Table) -> tuple[dict[int, str], int]:
    """Each person's seat ("connected", "reconnecting" within their grace, or "away") and how
    many watch, from one query."""
    now = timezone.now()
    rows = list(
        table.presences.filter(seen_at__gte=_stale_before(now)).values_list("seat", flat=True)
    )
    present = {r for r in rows if r is not None}
    out = {}
    for seat in table.seat_list:
        if seat.kind != Seat.Kind.PERSON or seat.user_id is None:
            continue
        if seat.index in present:
            out[seat.index] = "connected"
        elif seat.away_due_at is not None and seat.away_due_at > now:
            out[seat.index] = "reconnecting"
        else:
            out[seat.index] = "away"
    return out, rows.count(None)


# -- the read model


@dataclass(frozen=True)
class Board:
    """What one viewer sees of a table now, read once: the live side and the table page
    render it and ask the services nothing more.

    ``table`` is the table as shown (``as_shown``: its version, and ``next_shown_at`` when a
    move on its way shows next), never to change. Before a shared table's match (no deal
    yet) ``view`` is None and ``kept_for`` names the seats kept for a person; once a hand is
    over, ``review_number`` is the hand its player may have reviewed, ``same_deal`` the scores
    of a deal played again; ``successor`` is the match of people that followed this one."""

    table: Table
    summary: TableSummary | None
    seat: int | None  # the viewer's seat; None for anyone else
    may_watch: bool  # False: nothing else is read (the viewer may not see this table)
    unchanged: bool = False  # no newer than the version the viewer has: nothing else is read
    view: dict | None = None  # the seat's observation, or the public view
    over: bool = False
    to_move: tuple[int, ...] = ()
    review_number: int | None = None
    same_deal: dict | None = None
    successor: dict | None = None
    kept_for: dict[int, str] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def due(self) -> float | None:
        """When the next move on its way shows (seconds since the epoch), if one is."""
        return getattr(self.table, "next_shown_at", None)


def look(
    code, user, committed: int | None = None, *, since: int = -1, kept_only: bool = False
) -> Board | None:
    """The board ``user`` sees at table ``code`` now: read (or, for ``committed``, this
    process's copy of that commit, ``committed_table``); refused for no such table.

    ``since``: the version the viewer has; a table no newer is answered ``unchanged``, with
    nothing else read. ``kept_only``: from this process's copy of moves on their way
    (``showing_table``) and never the database; None when there is none (a part of the board
    the copy lacks raises ``SynchronousOnlyOperation`` in an event loop's thread)."""
    if kept_only:
        table = showing_table(code)
        if table is None:
            return None
    else:
        table = committed_table(code, committed)
    if table.version <= since:
        return Board(table, None, None, may_watch=False, unchanged=True)
    return board(table, user)


def board(table: Table, user, at: float | None = None, summary=None) -> Board:
    """The board ``user`` sees of ``table`` (read, or a writer's just after a move), as shown
    now (or at ``at``, seconds since the epoch: ``as_shown``). ``summary``: this table's,
    made for another of its moves on their way (they change its state and version, which
    the summary does not read: the seats, their people and presence, the match's settings
    and status)."""
    table = as_shown(table, at)
    seat = seat_of(table, user)
    if summary is None:
        summary = summarize(table, *presence_of(table)) if table.shared else summarize(table)
    if not (table.spectators or seat is not None):
        return Board(table, summary, seat, may_watch=False)
    if not table.seed:  # waiting for people, or closed before its match began
        return Board(table, summary, seat, may_watch=True, kept_for=kept_for(table))
    state = load_state(table)
    game = table_game(table.game).engine
    over = game.hand_over(state)
    return Board(
        table,
        summary,
        seat,
        may_watch=True,
        view=view_for(table, seat, state),
        over=over,
        to_move=tuple(game.to_move(state)),
        review_number=(
            table.current_hand.number
            if over and seat is not None and table.current_hand_id
            else None
        ),
        same_deal=_same_deal(table, summary) if over and table.start else None,
        successor=_successor(table, user) if table.shared and table.successor_id else None,
    )


def _same_deal(table: Table, summary: TableSummary) -> dict | None:
    """A deal played again, once its hand is over: each seat's score then and now, and who
    held its cards the first time (the seat's player then, not the one now)."""
    first = table.replay_of
    now = table.hands.filter(ended_at__isnull=False).first()
    if first is None or now is None or not first.scores or not now.scores:
        return None
    n = len(now.scores)
    names = summary.names()
    then = summarize(first.table).names()
    return {
        "rows": [
            {
                "name": names[i]["name"],
                "first_name": then[(i + table.replay_seat) % n]["name"],
                "first": first.scores[(i + table.replay_seat) % n],
                "now": now.scores[i],
                "you": i == 0,
            }
            for i in range(n)
        ],
        "source": first.table.code,
        "number": first.number,
    }


def _successor(table: Table, user) -> dict | None:
    """After a match of people, the new match its players were asked to: where this viewer
    stands in it (seated, invited, or neither)."""
    nxt = table.successor
    if nxt is None:
        return None
    seats = list(nxt.seat_list)
    host = next((s for s in seats if s.user_id is not None and s.user_id == nxt.owner_id), None)
    return {
        "code": nxt.code,
        "invite": nxt.invite,
        "waiting": nxt.status == nxt.Status.WAITING,
        "seated": any(s.user_id == user.pk for s in seats),
        "invited": any(s.reserved_for_id == user.pk for s in seats),
        "host": _seat_name(host, True, True) if host is not None else "",
    }


def kept_for(table: Table) -> dict[int, str]:
    """The seats kept for a person of the last match ("Play again"), each with the name the
    seat will read once they sit down (one query, none when no seat is kept)."""
    kept = {s.index: s.reserved_for_id for s in table.seat_list if s.is_open and s.reserved_for_id}
    if not kept:
        return {}
    people = get_user_model().objects.select_related("profile").in_bulk(set(kept.values()))
    return {
        index: _seat_name(Seat(index=index, user=people[pk]), True, True)
        for index, pk in kept.items()
        if pk in people
    }
