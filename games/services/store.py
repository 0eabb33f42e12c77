"""Reading a table and its seats, and writing a move's rows, as cheaply as a move allows.

The reads every move makes and the rows it writes, compiled by Django once per process; and
this process's caches: the people seated at tables (``_people``) and the tables it last
committed (``committed_table`` reads them). Here too the refusal every command raises. Nothing
here decides anything: the commands are in ``moves``, ``seating`` and ``presence``.
"""

from __future__ import annotations

import copy
import functools
import threading
import time
import uuid
from collections import OrderedDict
from functools import partial
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.models import Prefetch
from django.db.models.base import ModelState
from django.db.models.sql import InsertQuery
from django.utils import timezone

from games.models import ActionLog, Seat, Table


class Refused(Exception):
    """An action the site refuses; ``code`` and ``params`` become a translated sentence.

    ``version`` and ``seat``: the version the table showed and the player's seat, when the
    command had read them before it refused (a refused move: the live side then answers a page
    that has that version without reading the table again)."""

    def __init__(self, code: str, params: dict | None = None):
        self.code = code
        self.params = params or {}
        self.version: int | None = None
        self.seat: int | None = None
        super().__init__(code)


def _with_seats(queryset):
    # Seats, their players and profiles in one query: the view and the checks all read them.
    return queryset.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))
    )


def _one_with_seats(queryset, **lookup) -> Table:
    """One table and its seats (their players and profiles too), as
    ``_with_seats(queryset).get(**lookup)`` gives it: the seats in their order, each knowing
    its table, ``table.seats.all()`` served without a query. Without the prefetch machinery,
    which cost more than both queries together on every move (the table is read, and locked,
    once per move)."""
    table = queryset.get(**lookup)
    _read_seats(table)
    return table


# The reads every move makes, compiled by Django once per process: compiling a query cost
# Django more than running it (the seats with their players and profiles, a join, was a
# sixth of a move's CPU time). Their rows become models as Django's own queries make them
# (each column's conversions, ``Model.from_db``), with what ``raw`` worked out again on every
# read (which column is which field, the conversions) worked out once: that was a tenth of
# a server's CPU time in the closed-loop benchmark.
_COMPILED = {
    "seats": lambda: Seat.objects.filter(table_id=0).order_by("index"),
    "table": lambda: Table.objects.filter(code=uuid.UUID(int=0)),
    "locked table": lambda: Table.objects.select_for_update().filter(code=uuid.UUID(int=0)),
}


def _db():
    """This thread's connection itself, for the reads and writes below, which hand it to each
    column's conversion: the ``connection`` proxy looks it up again at every attribute read
    (2 % of the closed-loop benchmark's CPU)."""
    return connections[DEFAULT_DB_ALIAS]


@functools.cache
def _reader(name: str) -> tuple:
    """A read's model, SQL, the fields its columns fill (their attribute names, in order) and
    the conversions of the columns that have any."""
    queryset = _COMPILED[name]()
    compiler = queryset.query.get_compiler(connection=connection)
    sql, _params = compiler.as_sql()
    columns = [column for column, _sql, _alias in compiler.select]
    converters = tuple(
        (index, tuple(convs), column)
        for index, (convs, column) in compiler.get_converters(columns).items()
    )
    return queryset.model, sql, [column.target.attname for column in columns], converters


def _read(name: str, params: list) -> list:
    model, sql, names, converters = _reader(name)
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    out = []
    for row in rows:
        if converters:
            row = list(row)
            for index, convs, column in converters:
                value = row[index]
                for convert in convs:
                    value = convert(value, column, db)
                row[index] = value
        out.append(model.from_db(db.alias, names, row))
    return out


def _by_code(code, *, lock: bool) -> Table:
    """The table and its seats. Locked (a writer's read): as this process last wrote a move to
    it, when its row's revision says nobody wrote it since (``_as_written``), else read."""
    value = Table._meta.get_field("code").get_db_prep_value(code, _db())
    table = _as_written(code, value) if lock else None
    if table is None:
        tables = _read("locked table" if lock else "table", [value])
        if not tables:
            raise Table.DoesNotExist
        table = tables[0]
        _read_seats(table)
        if not lock:
            return table
        table._locked_as = _writable(table)
    # The table as locked is the transaction's (``_save_row`` keeps it as written): the table
    # a command returns holds its columns and seats alone.
    transaction.on_commit(partial(table.__dict__.pop, "_locked_as", None))
    return table


def _read_seats(table: Table) -> None:
    seats = _read("seats", [table.pk])
    people = _people({seat.user_id for seat in seats if seat.user_id is not None})
    for seat in seats:
        if seat.user_id in people:
            seat.user = people[seat.user_id]
    _attach_seats(table, seats)


# The people seated at tables with their profiles, as this process last read them: a
# table's reads take them from here for a few seconds instead of joining them in every time.
# A change saved in this process forgets its person at once (``forget_person``); one saved
# by another process shows here within PEOPLE_SECONDS. Only ever read, never changed.
_PEOPLE: OrderedDict[int, tuple[float, object]] = OrderedDict()
_PEOPLE_LOCK = threading.Lock()
PEOPLE_SECONDS = 5.0
PEOPLE_KEPT = 2048


def _people(ids: set[int]) -> dict[int, object]:
    found: dict[int, object] = {}
    if not ids:
        return found
    now = time.monotonic()
    with _PEOPLE_LOCK:
        for pk in ids:
            hit = _PEOPLE.get(pk)
            if hit is not None and now - hit[0] < PEOPLE_SECONDS:
                found[pk] = hit[1]
    missing = ids - found.keys()
    if missing:
        read = get_user_model().objects.select_related("profile").filter(pk__in=missing)
        fresh = {user.pk: user for user in read}
        found.update(fresh)
        with _PEOPLE_LOCK:
            for pk, user in fresh.items():
                _PEOPLE[pk] = (now, user)
                _PEOPLE.move_to_end(pk)
            while len(_PEOPLE) > PEOPLE_KEPT:
                _PEOPLE.popitem(last=False)
    return found


def forget_person(user_id) -> None:
    """A person or profile saved or deleted in this process: read them again next time
    (connected in ``GamesConfig.ready``)."""
    with _PEOPLE_LOCK:
        _PEOPLE.pop(user_id, None)


def _attach_seats(table: Table, seats, like=None) -> None:
    """``table.seats.all()`` is ``seats`` from now on, as a prefetch leaves it. ``like``: the
    seats' queryset another copy of this table has attached, copied for this one (the
    manager builds and filters a new one: a third of a locked read served from a copy)."""
    seats = list(seats)
    for seat in seats:
        seat.table = table
    if like is None:
        cached = table.seats.all()
    else:
        cached = copy.copy(like)  # its query shared: a queryset's filters copy it
        cached._hints = {**like._hints, "instance": table}
        cached._known_related_objects = {
            field: {table.pk: table} for field in like._known_related_objects
        }
    cached._result_cache = seats
    cached._prefetch_done = True
    table._prefetched_objects_cache = {"seats": cached}


def _seat(table: Table, index: int) -> Seat:
    return next(s for s in table.seat_list if s.index == index)


def parse_code(code) -> uuid.UUID:
    """The table code named by ``code`` (from a URL, a form or a socket), or no such table.

    Every lookup by code goes through here: handed anything but a UUID, the UUIDField
    raises a ValidationError (or worse), a crash instead of the "no such table" refusal.
    """
    if isinstance(code, uuid.UUID):
        return code
    if isinstance(code, str):
        try:
            return uuid.UUID(code)
        except ValueError:
            pass
    raise Refused("no_such_table")


def _copy(table: Table) -> Table:
    # A shallow copy (a deep one cost a millisecond a commit): the table's columns, sharing
    # what nothing changes after a commit: the state (every write assigns a new one,
    # engine.to_json, and nothing changes one in place) and the seats (every transaction
    # reads its own). Attached as a list: a queryset's copy would drop them.
    kept = copy.copy(table)
    _attach_seats(kept, table.seat_list)
    return kept


class _Newest:
    """What this process made or read last, by key, newest last, shared between threads: beyond
    ``size`` entries the oldest goes. The store's caches (the tables last written and last
    committed, the states last decoded) are each one."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, *, touch: bool = False):
        """The value kept for ``key``, or None; ``touch``: it counts as new again."""
        with self._lock:
            value = self._items.get(key)
            if touch and value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


# The tables this process last wrote a move to, as written, newest last (``_save_row``): the
# next move's locked read asks the row for its revision alone and, when nobody wrote the table
# or its seats since (the database's triggers move the revision on at every write, migration
# 0012), takes the table from here. That read (the row with its state, the seats, their
# models) was a tenth of the closed-loop benchmark's CPU. Never handed out: each writer gets
# its own copy (``_writable``); never changed once kept.
WRITTEN_KEPT = 512
_WRITTEN = _Newest(WRITTEN_KEPT)


def _writable(table: Table) -> Table:
    """A copy of ``table`` a writer may change: its columns (the JSON values shared, as
    ``_copy`` shares them: every write assigns new ones), its own copies of the seats with
    their people as ``_people`` has them now, nothing else it had loaded."""
    out = _columns(table)
    seats = [_columns(seat) for seat in table.seat_list]
    people = _people({seat.user_id for seat in seats if seat.user_id is not None})
    for seat in seats:
        if seat.user_id in people:
            seat.user = people[seat.user_id]
    cache = table.__dict__.get("_prefetched_objects_cache") or {}
    _attach_seats(out, seats, like=cache.get("seats"))
    return out


# What a model's copy leaves out: the transaction's table as locked, the seats attached (the
# copy attaches its own), the related objects loaded (``_state`` is new).
_NOT_COPIED = ("_locked_as", "_prefetched_objects_cache", "_state")


def _columns(obj):
    """A new instance of ``obj``'s model with its columns (its attributes) and nothing it had
    loaded: as ``copy.copy`` makes it with the related objects dropped, without going through
    pickling's protocol (with it a locked read served from a copy made 605 function calls,
    with this 338)."""
    new = object.__new__(type(obj))
    new.__dict__.update({k: v for k, v in obj.__dict__.items() if k not in _NOT_COPIED})
    new._state = ModelState()
    new._state.db, new._state.adding = obj._state.db, obj._state.adding
    return new


@functools.cache
def _revision_sql() -> str:
    query = Table.objects.select_for_update().filter(code=uuid.UUID(int=0)).values_list("revision")
    return query.query.get_compiler(connection=connection).as_sql()[0]


def _as_written(code, value) -> Table | None:
    """The table locked, from this process's copy as it last wrote a move to it, if the row's
    revision is still that copy's; else None (read it)."""
    kept = _WRITTEN.get(str(code))
    if kept is None:
        return None
    with _db().cursor() as cursor:
        cursor.execute(_revision_sql(), [value])  # locks the row as the whole read does
        row = cursor.fetchone()
    if row is None or row[0] != kept.revision:
        return None
    table = _writable(kept)
    table._locked_as = kept
    return table


def _keep_written(table: Table) -> None:
    _WRITTEN.put(str(table.code), table)


# The game states this process last decoded or encoded, newest last, by their JSON form (the
# very object: a table's ``state`` as read or as written). A table's state is read again and
# again as the same object: each paced reply drawn from this process's copy, the board that
# answers a move; decoding it each time was a tenth of a Gan Deng Yan human action. A state
# read from the database is a new object and decoded anew. Shared between threads and never
# changed: an engine copies a state, never changes one (docs/ENGINE_CONTRACT.md;
# tests/games/test_read_model.py checks it of every game). Each entry holds its JSON form, so
# its ``id`` is not another object's while the entry is kept.
STATES_KEPT = 256
_STATES = _Newest(STATES_KEPT)


def kept_state(data):
    """The state this JSON form (the object) decodes to, if this process has it; else None."""
    entry = _STATES.get(id(data), touch=True)
    return entry[1] if entry is not None and entry[0] is data else None


def keep_state(data, state) -> None:
    _STATES.put(id(data), (data, state))


# The tables this process last committed, newest last, as they committed: the frames that
# follow a write (each socket of the table renders its own) read them from here instead of
# reading the table back. A copy per commit, never handed to a writer (writers lock and read).
COMMITTED_KEPT = 512
_COMMITTED = _Newest(COMMITTED_KEPT)


def _remember_committed(table: Table) -> None:
    _COMMITTED.put(str(table.code), _copy(table))  # the table's columns as they committed


def _kept(code) -> Table | None:
    return _COMMITTED.get(str(code))


class LogLine(NamedTuple):
    """A move's log line (an ``ActionLog`` row) waiting for its transaction's insert: its
    columns, without a model around them (one per move made, bots' replies included)."""

    table_id: int
    hand_id: int | None
    seq: int
    seat: int
    action: dict
    by_computer: bool


def _insert_log(unsaved: list[LogLine]) -> None:
    """Insert a transaction's log lines (``Unit.save_log``), ``LOG_LINES_PER_INSERT`` a statement.

    Each column as Django's insert prepares it (``get_db_prep_save``), the lines' time once for
    them all (``created_at``: when the transaction wrote its moves): a model per line and its
    fields' ``pre_save`` cost a tenth of a human action's transaction."""
    if unsaved:
        table, hand, seq, seat, action, by_computer, created_at = _log_fields()
        db = _db()
        now = created_at.get_db_prep_save(timezone.now(), db)
        with db.cursor() as cursor:
            for start in range(0, len(unsaved), LOG_LINES_PER_INSERT):
                lines = unsaved[start : start + LOG_LINES_PER_INSERT]
                values = []
                for line in lines:
                    values += (
                        table.get_db_prep_save(line.table_id, db),
                        hand.get_db_prep_save(line.hand_id, db),
                        line.seq,
                        line.seat,
                        action.get_db_prep_save(line.action, db),
                        by_computer.get_db_prep_save(line.by_computer, db),
                        now,
                    )
                cursor.execute(_log_insert(len(lines)), values)


# SQLite allows 999 values in a statement (older builds): 100 lines of a few fields each.
LOG_LINES_PER_INSERT = 100


LOG_COLUMNS = ("table", "hand", "seq", "seat", "action", "by_computer", "created_at")


@functools.cache
def _log_fields() -> tuple:
    fields = tuple(f for f in ActionLog._meta.concrete_fields if not f.primary_key)
    if tuple(f.name for f in fields) != LOG_COLUMNS:  # _insert_log writes them in this order
        raise DatabaseError(f"ActionLog's columns changed: {[f.name for f in fields]}")
    return fields


@functools.cache
def _log_insert(lines: int) -> str:
    """The insert of ``lines`` log lines in one statement: Django's insert of one line (compiled
    once per process, like ``_reader``: ``bulk_create`` compiled it on every move) with its
    row of values repeated. One statement and one round trip for a transaction's lines (an
    ``executemany`` went through psycopg's pipeline, a tenth of a move's CPU on PostgreSQL)."""
    query = InsertQuery(ActionLog)
    query.insert_values(_log_fields(), [ActionLog(table_id=0, hand_id=0, seq=0, seat=0, action={})])
    [(sql, _params)] = query.get_compiler(connection=connection).as_sql()
    head, values, row = sql.partition(" VALUES ")
    if not values or not (row.startswith("(") and row.endswith(")") and row.count("(") == 1):
        raise DatabaseError(f"unexpected insert: {sql}")
    return f"{head} VALUES {', '.join([row] * lines)}"


def _save_row(table: Table) -> None:
    """``table.save(update_fields=TABLE_MOVE_FIELDS)`` (no signal listens to a table's save)
    with an update written once per process: ``save`` built and compiled it on every move.

    The revision is set one on from the one read: where the transaction wrote nothing else to
    the table or its seats, the row then has that revision and the columns of the table as it
    was locked with these fields changed, and that table is kept for the next move's locked
    read once the transaction commits (``_as_written``). Any other write of the table or a
    seat moved the revision on already: the database then moves it past this one, and the
    copy kept never matches."""
    sql, fields = _row_update()
    table.revision += 1
    db = _db()
    values = [f.get_db_prep_save(f.pre_save(table, False), db) for f in fields]
    with db.cursor() as cursor:
        cursor.execute(sql, [*values, table.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("the table's row was not updated")
    locked = table.__dict__.get("_locked_as")
    if locked is not None:
        written = copy.copy(locked)
        for f in fields:
            setattr(written, f.attname, getattr(table, f.attname))
        transaction.on_commit(partial(_keep_written, written))


@functools.cache
def _row_update() -> tuple[str, tuple]:
    fields = tuple(Table._meta.get_field(name) for name in [*TABLE_MOVE_FIELDS, "revision"])
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    where = quote(Table._meta.pk.column)
    return f"UPDATE {quote(Table._meta.db_table)} SET {columns} WHERE {where} = %s", fields


# The columns one move changes.
TABLE_MOVE_FIELDS = [
    "state",
    "reveal",
    "version",
    "status",
    "finished_at",
    "bot_due_at",
    "bot_claimed_until",
    "hurry",
    "turn_due_at",
    "timer_due_at",
    "updated_at",
]
