"""The one write path for tables.

Every change to a table goes through here, in one transaction: lock the row, check the
version the player saw, apply through the engine, log, save, and after commit tell the
table's group "changed, version N". Bots are driven from here too: the table records when
its next bot move is due; ``play_due_bot_move`` and ``apply_bot_move`` make advancing
idempotent (the version guards the move, a short claim stops two processes from thinking
about the same one), so two tabs, two processes or a restart never move twice or stall.

Paced, a bot's move due at its time brings the quick bots' moves after it along, in its
transaction; each is shown at its own paced time. Until then every reader sees the table as
shown (``as_shown``: the reveal's last state whose time has come), and each socket draws
the next one when it is due (``consumers.TableConsumer._draw_at``).
"""

from __future__ import annotations

import copy
import functools
import logging
import random
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from datetime import UTC, datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import Prefetch
from django.db.models.sql import InsertQuery
from django.utils import timezone

from cardsite import ratelimit
from games import metrics, ratings, realtime, signals
from games.bots.task import BotTask
from games.bots.task import choose as choose_bot_action
from games.engine import IllegalAction
from games.models import ActionLog, Hand, Presence, Seat, Table
from games.registry import table_game

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "hard")
CLAIM_SECONDS = 30


class Refused(Exception):
    """An action the site refuses; ``code`` and ``params`` become a translated sentence."""

    def __init__(self, code: str, params: dict | None = None):
        self.code = code
        self.params = params or {}
        super().__init__(code)


# ---------------------------------------------------------------- reading


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
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    out = []
    for row in rows:
        if converters:
            row = list(row)
            for index, convs, column in converters:
                value = row[index]
                for convert in convs:
                    value = convert(value, column, connection)
                row[index] = value
        out.append(model.from_db(connection.alias, names, row))
    return out


def _by_code(code, *, lock: bool) -> Table:
    value = Table._meta.get_field("code").get_db_prep_value(code, connection)
    tables = _read("locked table" if lock else "table", [value])
    if not tables:
        raise Table.DoesNotExist
    _read_seats(tables[0])
    return tables[0]


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


def _attach_seats(table: Table, seats) -> None:
    """``table.seats.all()`` is ``seats`` from now on, as a prefetch leaves it."""
    seats = list(seats)
    for seat in seats:
        seat.table = table
    cached = table.seats.all()
    cached._result_cache = seats
    cached._prefetch_done = True
    table._prefetched_objects_cache = {"seats": cached}


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


def get_table(code) -> Table:
    """The table as its viewers see it now (``as_shown``), to read and never to change."""
    try:
        return as_shown(_by_code(parse_code(code), lock=False))
    except Table.DoesNotExist as e:
        raise Refused("no_such_table") from e


def _copy(table: Table) -> Table:
    # A shallow copy (a deep one cost a millisecond a commit): the table's columns, sharing
    # what nothing changes after a commit: the state (every write assigns a new one,
    # engine.to_json, and nothing changes one in place) and the seats (every transaction
    # reads its own). Attached as a list: a queryset's copy would drop them.
    kept = copy.copy(table)
    _attach_seats(kept, table.seats.all())
    return kept


def _reveal_until(table: Table, now: float) -> float | None:
    """When the last of the moves still being shown shows (seconds since the epoch), or None
    when nothing is on the way."""
    reveal = table.reveal
    if not reveal or reveal["until"] <= now:
        return None
    return reveal["until"]


def as_shown(table: Table) -> Table:
    """``table`` as every view shows it now: while bots' replies that were applied together
    are still being shown (``Table.reveal``), a copy at the last of them whose time has come,
    with ``next_shown_at`` (seconds since the epoch) when the next one shows. Anyone reading
    sees no move before its paced time: the player who moved, the others at the table, a
    spectator, a reload. Only writers (under the table's lock) see the table as it is."""
    now = timezone.now().timestamp()
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


# The tables this process last committed, newest last, as they committed: the frames that
# follow a write (each socket of the table renders its own) read them from here instead of
# reading the table back. A copy per commit, never handed to a writer (writers lock and read).
_COMMITTED: OrderedDict[str, Table] = OrderedDict()
_COMMITTED_LOCK = threading.Lock()
COMMITTED_KEPT = 512


def _remember_committed(table: Table) -> None:
    kept = _copy(table)  # the table's columns as they committed
    code = str(table.code)
    with _COMMITTED_LOCK:
        _COMMITTED[code] = kept
        _COMMITTED.move_to_end(code)
        while len(_COMMITTED) > COMMITTED_KEPT:
            _COMMITTED.popitem(last=False)


def _kept(code) -> Table | None:
    with _COMMITTED_LOCK:
        return _COMMITTED.get(str(code))


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


def hint_for(table: Table, seat: int, n: int = 0) -> dict | None:
    """A suggestion for ``seat`` (the player's Hint); never applied. The first press gets
    Normal's choice, each further press (``n``) the next legal action, round and round."""
    import importlib

    game = table_game(table.game).engine
    state = load_state(table)
    if seat not in game.to_move(state):
        return None
    bots = importlib.import_module(f"games.bots.{table.game}")
    legal = game.legal_actions(state, seat)
    first = bots.hint(game.observation(state, seat), legal)
    if not n:
        return first
    order = [first] + [a for a in legal if a != first]
    return order[n % len(order)]


# ---------------------------------------------------------------- writing


def _seed() -> int:
    return secrets.randbits(128)


def _notify(table: Table) -> None:
    """After commit: tell the table's group it changed. Private views never travel here.

    Once per transaction, with the version the table has when it commits: a transaction that
    makes several moves sends one notice.
    """
    if getattr(table, "_notice_pending", False):
        return
    table._notice_pending = True

    def send():
        table._notice_pending = False
        if table.__dict__.get("_unsaved_log"):  # a writer that never called _save_moves
            log.error("table %s committed moves it never wrote", table.code)
        code, version = str(table.code), table.version
        _remember_committed(table)
        due = min(
            (d for d in (table.bot_due_at, table.timer_due_at) if d is not None), default=None
        )
        # Lost while the channel layer is away (a Redis restart): healed by the next notice
        # or the resync, so one line and no trace.
        realtime.send_to_group(
            realtime.table_group(code),
            {"type": "table.changed", "version": version},
            lambda e: log.warning("could not notify table %s (version %d): %r", code, version, e),
        )
        if due is not None:
            signals.bot_move_due.send(sender=Table, code=code, due=due)

    transaction.on_commit(send)


def _paced(table: Table) -> bool:
    return bool(settings.GAME_PACING) and not table.hurry


def _bot_delay(table: Table, before_public: dict | None, state) -> float:
    if not _paced(table):
        return 0.0
    gspec = table_game(table.game)
    return gspec.pause_after(before_public or {}, gspec.engine.public_view(state))


def _shown_at(table: Table) -> datetime:
    """When the table as it is now shows: now, or when the last move on its way shows."""
    now = timezone.now()
    until = _reveal_until(table, now.timestamp())
    return now if until is None else datetime.fromtimestamp(until, tz=UTC)


def _schedule_bots(
    table: Table, state, before_public: dict | None = None, shown_at: datetime | None = None
) -> None:
    """Record when the next bot move is due (or that none is): its pause after the moment
    the table as it is now shows (``shown_at``, else ``_shown_at``), and a person's turn
    timer from that moment."""
    game = table_game(table.game).engine
    movers = [] if game.hand_over(state) else game.to_move(state)
    bots = {s.index for s in table.seats.all() if s.plays_itself}
    shown_at = _shown_at(table) if shown_at is None else shown_at
    _set_turn_timer(table, [m for m in movers if m not in bots], shown_at)
    if any(m in bots for m in movers):
        delay = _bot_delay(table, before_public, state)
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
    deadlines = [table.turn_due_at] + [s.away_due_at for s in table.seats.all()]
    table.timer_due_at = min((d for d in deadlines if d is not None), default=None)


def _start_hand(table: Table, state) -> Hand:
    """Record a freshly dealt hand, and let the bots make their simultaneous choices at once.

    In a phase where every seat decides at once (choosing exposures, say), the bots' choices
    and every forced choice are made in the transaction that deals the hand, so neither the
    frames nor their timing show who is still deciding.
    """
    gspec = table_game(table.game)
    game = gspec.engine
    hand = Hand.objects.create(
        table=table,
        number=table.hands.count() + 1,
        deal=game.dealt(state),
        engine_version=gspec.rules_version,
    )
    table.current_hand = hand
    movers = game.to_move(state)
    if len(movers) > 1:  # a simultaneous phase
        seats = {s.index: s for s in table.seats.all()}
        for seat in movers:
            legal = game.legal_actions(state, seat)
            if seats[seat].plays_itself or len(legal) == 1:
                action = (
                    legal[0]
                    if len(legal) == 1
                    else _choose(table, seat, seats[seat].level_to_play, state)
                )
                state = _log_and_apply(table, state, seat, action, by_computer=True)
    table.state = game.to_json(state)
    return hand


def _open_hand(table: Table, state) -> None:
    """A hand just dealt: record it, set when the bots move, save the table and tell it.

    The seats are read again first: new ones were just created, or their levels changed for
    this hand, and the frames render the seats as this table holds them (``committed_table``).
    """
    _read_seats(table)
    _start_hand(table, state)
    _schedule_bots(table, load_state(table))
    table.save()
    _save_log(table)
    _notify(table)


def _choose(table: Table, seat: int, level: str, state) -> dict:
    """A bot's choice computed inline (used for the quick simultaneous decisions at a deal)."""
    from games.bots import get_bot

    game = table_game(table.game).engine
    rng = random.Random(f"{table.seed}:{table.version}:{seat}")
    start = time.perf_counter()
    action = get_bot(table.game, level).act(
        game.observation(state, seat), game.legal_actions(state, seat), rng
    )
    metrics.bot_decided(level, time.perf_counter() - start)
    return action


def _decide(task: BotTask) -> dict:
    """A quick bot's choice, made here in the transaction that applies it (timed)."""
    start = time.perf_counter()
    action = choose_bot_action(task)
    metrics.bot_decided(task.level, time.perf_counter() - start)
    return action


def _log_and_apply(table: Table, state, seat: int, action: dict, by_computer: bool = False):
    game = table_game(table.game).engine
    # Logged as the engine reads it, whoever made it: a person's selection gets the combo it
    # was read as, as a bot's listed action has it (every reader of the log sees one shape).
    action = game.read(state, seat, action)
    state = game.apply(state, seat, action)
    table.version += 1
    # Written with the table's row, once per transaction (``_save_moves``).
    table.__dict__.setdefault("_unsaved_log", []).append(
        ActionLog(
            table=table,
            hand_id=table.current_hand_id,
            seq=table.version,
            seat=seat,
            action=action,
            by_computer=by_computer,
        )
    )
    # Counted once it is committed (a refused or rolled-back move never is).
    transaction.on_commit(partial(metrics.applied, table.game))
    return state


def _finish_hand_if_over(table: Table, state) -> None:
    game = table_game(table.game).engine
    if not game.hand_over(state):
        return
    _save_log(table)  # what ends a hand reads the hand's moves as written
    # Once per hand: only the columns the result needs (the deal is large and never changes).
    hand = Hand.objects.only("id", "ended_at").get(pk=table.current_hand_id)
    if hand.ended_at:
        return
    result = game.hand_result(state)
    hand.ended_at = timezone.now()
    hand.scores = result["scores"]
    hand.breakdown = result["breakdown"]
    hand.totals = game.totals(state)
    hand.save(update_fields=["ended_at", "scores", "breakdown", "totals"])
    if game.match_over(state) or table.start:  # a deal played again is one hand
        table.status = Table.Status.FINISHED
        table.finished_at = timezone.now()
        ratings.rate(table, hand.totals)


def _validated(game_name: str, options: dict | None, seats: int | None):
    """The game's info, the seat count and the whole options of a new table, or refused."""
    try:
        info = table_game(game_name).info
    except KeyError as e:
        raise Refused("bad_options") from e
    seats = seats or info.default_seats
    if seats not in info.seat_counts:
        raise Refused("bad_seats")
    opts = {**info.default_options, **(options or {})}
    if set(opts) != set(info.default_options):
        raise Refused("bad_options")
    return info, seats, opts


def _new_match(game_name: str, seats: int, opts: dict):
    seed = _seed()
    try:
        state = table_game(game_name).engine.new_match(seed=seed, seats=seats, options=opts or None)
    except (ValueError, TypeError) as e:
        raise Refused("bad_options") from e
    return seed, state


def create_table(
    user,
    game_name: str,
    level: str = "normal",
    options: dict | None = None,
    seats: int | None = None,
    replaces=None,
) -> Table:
    """A new table with ``user`` in seat 0 and bots elsewhere, dealt and recorded.

    ``replaces``: the code of the player's session this one succeeds (new settings make new
    totals); that session ends and stays in the history.
    """
    _info, seats, opts = _validated(game_name, options, seats)
    if level not in LEVELS:
        raise Refused("bad_level")
    seed, state = _new_match(game_name, seats, opts)
    game = table_game(game_name).engine
    with transaction.atomic():
        table = Table.objects.create(
            game=game_name,
            options=opts,
            seed=str(seed),
            state=game.to_json(state),
            owner=user,
            level=level,
        )
        Seat.objects.create(table=table, index=0, user=user)
        for i in range(1, seats):
            Seat.objects.create(table=table, index=i, kind=Seat.Kind.BOT, bot_level=level)
        _open_hand(table, state)
        if replaces:
            _end_session(replaces, user)
    return table


def create_same_deal_table(user, source: Table, again: dict, seat: int) -> Table:
    """A one-hand table with a finished hand's deal (``history.deal_of_hand``), the player in
    seat 0 with the cards they held in seat ``seat``, the computer players at their levels
    (a person's seat at Normal). Unrated: the player has seen every hand of that deal."""
    game = table_game(source.game).engine
    seats = sorted(source.seats.all(), key=lambda s: s.index)
    n = len(seats)
    deal = {k: (v[seat:] + v[:seat] if k == "hands" else v) for k, v in again["deal"].items()}
    dealer = None if again["dealer"] is None else (again["dealer"] - seat) % n
    seed = _seed()
    try:
        state = game.new_match_from_deal(deal, dealer, source.options or None, seed=seed)
    except (ValueError, TypeError) as e:
        raise Refused("bad_options") from e
    levels = [(s.bot_level or source.level) if s.is_bot else "normal" for s in seats]
    with transaction.atomic():
        table = Table.objects.create(
            game=source.game,
            options=source.options,
            seed=str(seed),
            state=game.to_json(state),
            owner=user,
            level=source.level,
            replay_of=again["hand"],
            replay_seat=seat,
            start={"deal": deal, "dealer": dealer},
        )
        Seat.objects.create(table=table, index=0, user=user)
        for i in range(1, n):
            Seat.objects.create(
                table=table, index=i, kind=Seat.Kind.BOT, bot_level=levels[(i + seat) % n]
            )
        _open_hand(table, state)
    return table


def _end_session(code, user) -> None:
    try:
        old = Table.objects.select_for_update().get(code=parse_code(code))
    except (Refused, Table.DoesNotExist):
        return  # no such session (a stale or forged form): there is nothing to end
    if seat_of(old, user) is None or not old.is_active:
        return
    old.status = Table.Status.FINISHED
    old.finished_at = timezone.now()
    old.bot_due_at = None
    old.version += 1
    old.save()
    _notify(old)


def _locked(code) -> Table:
    try:
        return _by_code(parse_code(code), lock=True)
    except Table.DoesNotExist as e:
        raise Refused("no_such_table") from e


def _locked_seat(code, user) -> tuple[Table, int]:
    """The table locked for this transaction and the seat ``user`` plays at it; refused for
    anyone without a seat. Every player's command starts here."""
    table = _locked(code)
    seat = seat_of(table, user)
    if seat is None:
        raise Refused("not_seated")
    return table, seat


def _check_version(table: Table, version) -> Table:
    """The table as shown now, refused as stale unless ``version`` is the version shown (the
    refusal names it, never a version still on its way)."""
    shown = as_shown(table)
    if not isinstance(version, int) or version != shown.version:
        raise Refused("stale", {"version": shown.version})
    return shown


def submit_action(code, user, action: dict, version) -> Table:
    """A player's move. Refused (and nothing changes) if stale, out of turn or illegal."""
    with transaction.atomic():
        table, seat = _locked_seat(code, user)
        if not table.is_active:
            raise Refused("match_finished")
        if _check_version(table, version) is not table:
            raise Refused("not_your_turn")  # the bots' replies are still showing
        state = load_state(table)
        if table_game(table.game).engine.hand_over(state):
            raise Refused("hand_over")
        _take_back_seat(table, seat)  # acting takes the seat back from auto-play
        try:
            state = _apply_move(table, state, seat, action)
        except IllegalAction as e:
            raise Refused(e.code, e.params) from e
        # The quick bots' replies in the same transaction, paced or not (paced, each shows at
        # its time): one transaction, one notice and one trip to the database thread per
        # person's move instead of two (the boards as before, one per move shown). Their
        # thinking delays the person's answer by a few milliseconds (Normal's, measured with
        # loadbench --regime human: latency p95 about 2 ms more, CPU per human action 5-20 %
        # less); the slow levels think in the driver's workers as before.
        _play_quick_bots(table, state)
        _save_moves(table)
    return table


def start_next_hand(code, user, version) -> Table:
    with transaction.atomic():
        table, _seat = _locked_seat(code, user)
        _check_version(table, version)
        game = table_game(table.game).engine
        state = load_state(table)
        if not table.is_active or game.match_over(state):
            raise Refused("match_finished")
        if not game.hand_over(state):
            raise Refused("hand_not_over")
        # A difficulty chosen during the hand applies from this one.
        if not table.shared:
            table.seats.filter(kind=Seat.Kind.BOT).update(bot_level=table.level)
        state = game.next_hand(state)
        table.version += 1
        table.state = game.to_json(state)
        _open_hand(table, state)
    return table


def set_level(code, user, level: str) -> Table:
    """Difficulty for the following hands (the current hand keeps its opponents)."""
    if level not in LEVELS:
        raise Refused("bad_level")
    with transaction.atomic():
        table, _seat = _locked_seat(code, user)
        if table.shared:
            # A table for people has no level: each computer seat's was chosen before the
            # match. Refused, so that it cannot bump the version and make the others' moves
            # stale (the outside review sent 40: v5 -> v44).
            raise Refused("no_level_here")
        if table.level == level:
            return table  # nothing changes: no new version, no notice
        table.level = level
        table.version += 1
        table.save(update_fields=["level", "version", "updated_at"])
        _notify(table)
    return table


def fast_forward(code, user) -> Table:
    """Play the bots' pending moves at once, until the player is to move again."""
    with transaction.atomic():
        table, seat = _locked_seat(code, user)
        showing = _reveal_until(table, timezone.now().timestamp()) is not None
        if table.bot_due_at is None and not showing:
            return table
        if _others_waiting(table, seat):
            raise Refused("others_waiting")
        table.reveal = None  # the moves on their way show at once
        if table.bot_due_at is not None:
            table.hurry = True
            table.bot_due_at = timezone.now()
        else:
            _schedule_bots(table, load_state(table))  # a person's turn shows now: its timer too
        table.save(update_fields=[*FAST_FORWARD_FIELDS, "updated_at"])
        _notify(table)
    return table


FAST_FORWARD_FIELDS = ["hurry", "bot_due_at", "reveal", "turn_due_at", "timer_due_at"]


def resign(code, user) -> Table:
    """End a match against the computer. At a table of people, leave it instead: the match
    goes on without the player."""
    if Table.objects.filter(code=parse_code(code), shared=True).exists():
        return leave_table(code, user)
    with transaction.atomic():
        table, _seat = _locked_seat(code, user)
        if not table.is_active:
            raise Refused("match_finished")
        table.status = Table.Status.RESIGNED
        table.finished_at = timezone.now()
        table.bot_due_at = None
        table.reveal = None  # the match ends here: the board as it is
        table.version += 1
        table.save()
        ratings.rate(table, _last_totals(table), resigned_by=_seat)
        _notify(table)
    return table


def _last_totals(table: Table) -> list[int]:
    """The match totals after its last finished hand (zeros before the first)."""
    hand = table.hands.filter(ended_at__isnull=False).order_by("-number").only("totals").first()
    return list(hand.totals) if hand and hand.totals else [0] * len(table.seats.all())


# ---------------------------------------------------------------- bots


# Levels whose choice is quick enough to make inside the transaction that applies it; the
# others (Hard's search) think in a worker between a claim and a version-checked apply.
QUICK_LEVELS = ("easy", "normal")
MAX_BATCH = 60


def _bot_task(table: Table, state) -> BotTask | None:
    """The move a bot owes at this table now, with all it may see, or None."""
    game = table_game(table.game).engine
    bots = {s.index: s.level_to_play for s in table.seats.all() if s.plays_itself}
    movers = [] if game.hand_over(state) else [m for m in game.to_move(state) if m in bots]
    if not movers:
        return None
    seat = movers[0]
    return BotTask(
        code=str(table.code),
        game=table.game,
        seat=seat,
        level=bots[seat],
        version=table.version,
        observation=game.observation(state, seat),
        legal=game.legal_actions(state, seat),
        rng_seed=f"{table.seed}:{table.version}:{seat}",
    )


def _apply_move(
    table: Table,
    state,
    seat: int,
    action: dict,
    by_computer: bool = False,
    shown_at: datetime | None = None,
):
    """Apply and log one move on a locked table; notify after commit. The new state.

    ``shown_at``: when the move shows (a bot's reply applied together with the move before
    it, ``_play_quick_bots``); the next pause and turn timer run from then.

    The table's row and the move's log line are written by ``_save_moves``, once for all the
    moves of a transaction (a player's move and the bots' replies): every caller ends its
    moves with it."""
    game = table_game(table.game).engine
    before = game.public_view(state) if _paced(table) else None  # for the bots' pause
    state = _log_and_apply(table, state, seat, action, by_computer)
    table.state = game.to_json(state)
    _finish_hand_if_over(table, state)
    _schedule_bots(table, state, before, shown_at)
    _notify(table)
    return state


def _save_log(table: Table) -> None:
    unsaved = table.__dict__.pop("_unsaved_log", None)
    if unsaved:
        fields = _log_fields()
        with connection.cursor() as cursor:
            for start in range(0, len(unsaved), LOG_LINES_PER_INSERT):
                lines = unsaved[start : start + LOG_LINES_PER_INSERT]
                values = [
                    f.get_db_prep_save(f.pre_save(line, True), connection)
                    for line in lines
                    for f in fields
                ]
                cursor.execute(_log_insert(len(lines)), values)


# SQLite allows 999 values in a statement (older builds): 100 lines of a few fields each.
LOG_LINES_PER_INSERT = 100


@functools.cache
def _log_fields() -> tuple:
    return tuple(f for f in ActionLog._meta.concrete_fields if not f.primary_key)


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


def _save_moves(table: Table) -> None:
    """Write what ``_apply_move`` changed: the log lines in one insert, the table's row once."""
    _save_log(table)
    _save_row(table)


def _save_row(table: Table) -> None:
    """``table.save(update_fields=TABLE_MOVE_FIELDS)`` (no signal listens to a table's save)
    with an update written once per process: ``save`` built and compiled it on every move."""
    sql, fields = _row_update()
    values = [f.get_db_prep_save(f.pre_save(table, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, table.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("the table's row was not updated")


@functools.cache
def _row_update() -> tuple[str, tuple]:
    fields = tuple(Table._meta.get_field(name) for name in TABLE_MOVE_FIELDS)
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


def play_due_bot_move(code, *, force: bool = False) -> Table | BotTask | None:
    """Play the table's due bot move, if any: a quick bot decides and moves in this one
    transaction (the row lock keeps every other writer out meanwhile). For a slow bot the
    move is claimed instead and returned as a task to think about in a worker.
    """
    with transaction.atomic():
        try:
            table = _locked(code)
        except Refused:
            return None
        now = timezone.now()
        if force and table.reveal is not None:
            table.reveal = None  # every move at once (tests, commands): those on their way too
            table.save(update_fields=["reveal"])
        if table.timer_due_at is not None and table.timer_due_at <= now:
            _expire_deadlines(table, now)
        if not table.is_active or table.bot_due_at is None:
            return table if getattr(table, "_notice_pending", False) else None
        if table.bot_due_at > now and not force:
            return None
        if table.bot_claimed_until is not None and table.bot_claimed_until > now:
            return None  # another worker is thinking about this move
        state = load_state(table)
        task = _bot_task(table, state)
        if task is None:
            table.bot_due_at = None
            table.bot_claimed_until = None
            table.save(update_fields=["bot_due_at", "bot_claimed_until"])
            return None
        if task.level not in QUICK_LEVELS:
            table.bot_claimed_until = now + timedelta(seconds=CLAIM_SECONDS)
            table.save(update_fields=["bot_claimed_until"])
            return task
        state = _apply_move(table, state, task.seat, _decide(task), by_computer=True)
        _play_quick_bots(table, state, together=not force)
        _save_moves(table)
        return table


def _play_quick_bots(table: Table, state, together: bool = True) -> None:
    """The quick bots' moves after the move just applied, in the current transaction, until
    someone else is to move: one commit and one notice for the lot.

    Unpaced (fast-forward, tests, the closed-loop benchmark), every view shows them at once.
    Paced, each shows at its own time, after its pause: the table keeps the states on the
    way in its reveal (``as_shown``), and each socket draws them as their times come (one
    render and one frame each, but no transaction, read or notice). A person's turn timer
    and the next bot's pause run from when the last of them shows. A move that ends the hand
    is left to the driver at its time: the hand's end is written when it shows (its record,
    results and history). ``together=False``: paced moves are left to the driver (the
    first of them brings the others along; ``run_bots`` shows each at once).
    """
    paced = _paced(table) and together
    game = table_game(table.game).engine
    bots = {s.index for s in table.seats.all() if s.plays_itself}
    # Nothing earlier is still on its way: a bot's move is due no sooner than the last of
    # those shows (``_schedule_bots``), a person cannot move before, and run_bots and
    # fast-forward show them at once first. So the move just applied shows now.
    steps = []
    shown = timezone.now()
    for _ in range(MAX_BATCH):
        due = table.bot_due_at
        if due is None or (not paced and due > timezone.now()):
            break
        task = _bot_task(table, state)
        if task is None or task.level not in QUICK_LEVELS:
            break
        if paced and not set(game.to_move(state)) <= bots:
            break  # a person decides at the same time: their turn is showing
        action = _decide(task)
        if paced:
            if game.hand_over(game.apply(state, task.seat, action)):
                break
            steps.append([shown.timestamp(), table.version, table.state])
            shown = due
        state = _apply_move(table, state, task.seat, action, True, due if paced else None)
    # None when there is nothing to show one by one: no past states kept in the row.
    table.reveal = {"until": shown.timestamp(), "steps": steps} if steps else None


def apply_bot_move(task: BotTask, action: dict, together: bool = True) -> Table | None:
    """Apply a bot's chosen move if the table is still where the bot saw it, with the quick
    bots' moves after it (``_play_quick_bots``)."""
    with transaction.atomic():
        table = _locked(task.code)
        if table.version != task.version or not table.is_active:
            return None  # someone moved meanwhile; the claim lapses with the version
        state = _apply_move(table, load_state(table), task.seat, action, by_computer=True)
        _play_quick_bots(table, state, together)
        _save_moves(table)
    return table


def run_bots(code, limit: int = 1000) -> int:
    """Synchronously play every bot move that is due now or later (tests, commands)."""
    moved = 0
    while moved < limit:
        result = play_due_bot_move(code, force=True)
        if isinstance(result, BotTask):
            result = apply_bot_move(result, _decide(result), together=False)
        if result is None:
            return moved
        moved += 1
    return moved


# ---------------------------------------------------------------- tables for people
#
# A shared table is created waiting, with a seat plan (a person or a computer level per
# seat), joined by its invitation link or short code, and started by its host once every
# person's seat is taken. Seating, starting, leaving, timeouts and take-backs go through the
# table's lock like every move.

TURN_TIMERS = (0, 30, 60, 120)
PERSON = "person"
# The short code to read out: no 0/O or 1/I to confuse.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SHORT_CODE_LENGTH = 6


def _grace() -> timedelta:
    return timedelta(seconds=settings.AWAY_GRACE_SECONDS)


def _stale_before(now) -> object:
    return now - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)


def _short_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(SHORT_CODE_LENGTH))
        if not Table.objects.filter(short_code=code).exists():
            return code


def normal_short_code(text) -> str:
    """A short code as typed ("kx7 p2m", "KX7-P2M") in its stored spelling."""
    if not isinstance(text, str):
        return ""
    return "".join(c for c in text.upper() if c.isascii() and c.isalnum())[:SHORT_CODE_LENGTH]


def _notify_lobby() -> None:
    """After commit: the lobby's list of open tables may have changed."""

    # Lost: the list is read afresh by the next one.
    _send_on_commit(
        realtime.lobby_group(),
        {"type": "lobby.tables"},
        lambda e: log.warning("could not notify the lobby: %r", e),
    )


def _send_on_commit(group: str, message: dict, failed) -> None:
    """``realtime.send_to_group`` once the transaction commits (at once outside one)."""
    transaction.on_commit(partial(realtime.send_to_group, group, message, failed))


def _notify_presence(table: Table) -> None:
    """After commit: the seats' presence changed (no new version: no move is made stale)."""
    code, version = str(table.code), table.version

    _send_on_commit(
        realtime.table_group(code),
        {"type": "table.changed", "version": version, "refresh": True},
        lambda e: log.warning("could not notify table %s of presence: %r", code, e),
    )


def _changed(table: Table, fields=None) -> None:
    table.version += 1
    table.save(update_fields=fields)
    _notify(table)
    if table.public:
        _notify_lobby()


def _waiting_table(host, game_name, options, *, spectators, public, turn_seconds) -> Table:
    """A table for people as it waits for them: no seed or deal yet, an invitation and a
    code to read out."""
    return Table.objects.create(
        game=game_name,
        options=options,
        seed="",
        state={},
        status=Table.Status.WAITING,
        owner=host,
        shared=True,
        spectators=bool(spectators),
        public=bool(public),
        turn_seconds=turn_seconds,
        invite=secrets.token_urlsafe(18),
        short_code=_short_code(),
    )


def create_shared_table(
    host,
    game_name: str,
    plan,
    options: dict | None = None,
    *,
    spectators: bool = False,
    public: bool = False,
    turn_seconds: int = 0,
) -> Table:
    """A table for people, waiting for them: ``plan`` gives each seat, "person" or a computer
    player's level; the host takes seat 0."""
    if not isinstance(plan, (list, tuple)) or not plan:
        raise Refused("bad_seats")
    _info, seats, opts = _validated(game_name, options, len(plan))
    if plan[0] != PERSON or any(p != PERSON and p not in LEVELS for p in plan):
        raise Refused("bad_seats")
    if turn_seconds not in TURN_TIMERS:
        raise Refused("bad_timer")
    _new_match(game_name, seats, opts)  # the engine refuses options it cannot play now
    with transaction.atomic():
        table = _waiting_table(
            host, game_name, opts, spectators=spectators, public=public, turn_seconds=turn_seconds
        )
        for i, choice in enumerate(plan):
            if choice == PERSON:
                Seat.objects.create(table=table, index=i, user=host if i == 0 else None)
            else:
                Seat.objects.create(table=table, index=i, kind=Seat.Kind.BOT, bot_level=choice)
        _notify(table)
        if table.public:
            _notify_lobby()
    return table


def find_invitation(token) -> Table:
    """The shared table an invitation link names (whatever its state), or refused."""
    if not isinstance(token, str) or not 16 <= len(token) <= 32:
        raise Refused("bad_invitation")
    try:
        return _one_with_seats(Table.objects, invite=token, shared=True)
    except Table.DoesNotExist as e:
        raise Refused("bad_invitation") from e


def find_short_code(text) -> Table:
    code = normal_short_code(text)
    if len(code) != SHORT_CODE_LENGTH:
        raise Refused("bad_short_code")
    try:
        return _one_with_seats(Table.objects, short_code=code, shared=True)
    except Table.DoesNotExist as e:
        raise Refused("bad_short_code") from e


def open_tables(limit: int = 20) -> list[Table]:
    """Public tables waiting for people, with a free seat: the lobby's list."""
    tables = _with_seats(
        Table.objects.filter(public=True, status=Table.Status.WAITING).order_by("-created_at")
    )[: limit * 2]
    return [t for t in tables if any(s.is_open and not s.reserved_for_id for s in t.seats.all())][
        :limit
    ]


def join_table(code, user, index: int | None = None) -> Table:
    """Take a seat (the first free one, or ``index``). Someone already seated resumes theirs."""
    with transaction.atomic():
        table = _locked(code)
        if not table.shared:
            raise Refused("no_such_table")
        if seat_of(table, user) is not None:
            return table
        if not table.is_waiting:
            raise Refused("match_started" if table.is_active else "bad_invitation")
        free = [
            s
            for s in table.seats.all()
            if s.is_open and s.reserved_for_id in (None, getattr(user, "pk", None))
        ]
        free.sort(key=lambda s: (s.reserved_for_id is None, s.index))  # one's own seat first
        if index is not None:
            chosen = [s for s in free if s.index == index]
            if not chosen:
                raise Refused("seat_taken")
            free = chosen
        if not free:
            raise Refused("table_full")
        seat = free[0]
        seat.user = user
        seat.reserved_for = None
        seat.save(update_fields=["user", "reserved_for"])
        _changed(table)
    return table


def decline_seat(code, user) -> Table:
    """Decline a seat kept for ``user`` ("Play again"): it is open to anyone again."""
    with transaction.atomic():
        table = _locked(code)
        seat = next((s for s in table.seats.all() if s.reserved_for_id == user.pk), None)
        if seat is None or not table.is_waiting:
            raise Refused("bad_invitation")
        seat.reserved_for = None
        seat.save(update_fields=["reserved_for"])
        _changed(table)
    return table


def _seat(table: Table, index: int) -> Seat:
    return next(s for s in table.seats.all() if s.index == index)


def set_seat(code, user, index, choice: str) -> Table:
    """The host makes a free seat a computer player (a level) or opens it for a person."""
    with transaction.atomic():
        table, _mine = _locked_seat(code, user)
        if table.owner_id != user.pk:
            raise Refused("host_only")
        if not table.is_waiting:
            raise Refused("match_started")
        if not isinstance(index, int) or not 0 <= index < table.seats.count():
            raise Refused("bad_seats")
        if choice != PERSON and choice not in LEVELS:
            raise Refused("bad_level")
        seat = _seat(table, index)
        if seat.user_id is not None:
            raise Refused("seat_taken")
        if choice == PERSON:
            seat.kind, seat.bot_level = Seat.Kind.PERSON, ""
        else:
            seat.kind, seat.bot_level, seat.reserved_for = Seat.Kind.BOT, choice, None
        seat.save(update_fields=["kind", "bot_level", "reserved_for"])
        _changed(table)
    return table


def start_match(code, user) -> Table:
    """The host deals the first hand once every person's seat is taken."""
    with transaction.atomic():
        table, _mine = _locked_seat(code, user)
        if table.owner_id != user.pk:
            raise Refused("host_only")
        if not table.is_waiting:
            raise Refused("match_started")
        if any(s.is_open for s in table.seats.all()):
            raise Refused("seats_open")
        seed, state = _new_match(table.game, table.seats.count(), table.options)
        table.seed = str(seed)
        table.status = Table.Status.ACTIVE
        table.version += 1
        table.state = table_game(table.game).engine.to_json(state)
        _open_hand(table, state)
        if table.public:
            _notify_lobby()
    return table


def _still_in(seat: Seat) -> bool:
    """A person who has not left the match: playing, or away with a computer playing for
    them meanwhile (auto-play), which they end by coming back."""
    return seat.kind == Seat.Kind.PERSON and seat.user_id is not None and not seat.left


def leave_table(code, user) -> Table:
    """Leave: a free seat again before the match (the host's leaving closes the table).

    During it, a computer player takes the seat for the rest of the match, and the others go
    on, those away on auto-play too (they have not left: it is still their match). Only the
    last person still in it leaving ends it: they chose to end it, so the match is resigned
    and rated at once. The leavers come last whenever it is rated (``ratings.participants``),
    at its end or then, as a player who quits does on BGA; the last person is ranked as
    resigning the match (a session, which has no other end, by its totals)."""
    with transaction.atomic():
        table, index = _locked_seat(code, user)
        seat = _seat(table, index)
        if table.is_waiting:
            if table.owner_id == user.pk:
                table.status = Table.Status.RESIGNED
                table.finished_at = timezone.now()
            else:
                seat.user = None
                seat.save(update_fields=["user"])
        elif table.is_active and not seat.left:
            others = [s for s in table.seats.all() if s.index != index and _still_in(s)]
            if not table.shared or not others:
                table.status = Table.Status.RESIGNED  # nobody else is left to play for
                table.finished_at = timezone.now()
                table.bot_due_at = None
                table.reveal = None
                ratings.rate(table, _last_totals(table), resigned_by=index)
            else:
                seat.left = seat.autoplay = True
                seat.away_due_at = None
                seat.save(update_fields=["left", "autoplay", "away_due_at"])
                _schedule_bots(table, load_state(table))
        else:
            return table
        table.version += 1
        table.save()
        _notify(table)
        if table.public:
            _notify_lobby()
    return table


def play_again(code, user) -> Table:
    """After a match of people: a new table with the same seats, game and settings, where
    ``user`` is seated: one click each. Whoever asks first is its host and sits down at once;
    every other person of the match has their seat kept for them, and asking in turn seats
    them there (or they decline, ``decline_seat``). Asked again, the same new table."""
    with transaction.atomic():
        old, index = _locked_seat(code, user)
        if not old.shared:
            raise Refused("no_such_table")
        if old.status == Table.Status.ACTIVE or old.status == Table.Status.WAITING:
            raise Refused("match_not_over")
        if old.successor_id is not None:
            return join_table(old.successor.code, user)  # their kept seat (or theirs already)
        table = _waiting_table(
            user,
            old.game,
            old.options,
            spectators=old.spectators,
            public=old.public,
            turn_seconds=old.turn_seconds,
        )
        for seat in old.seats.all():
            if seat.is_bot:
                Seat.objects.create(
                    table=table, index=seat.index, kind=Seat.Kind.BOT, bot_level=seat.bot_level
                )
            elif seat.index == index:
                Seat.objects.create(table=table, index=seat.index, user=user)
            else:
                back = seat.user if seat.user_id is not None and not seat.left else None
                Seat.objects.create(table=table, index=seat.index, reserved_for=back)
        old.successor = table
        old.version += 1
        old.save(update_fields=["successor", "version", "updated_at"])
        _notify(old)
        _notify(table)
        if table.public:
            _notify_lobby()
    return table


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
        table, index = _locked_seat(code, user)
        if not table.is_active:
            raise Refused("match_finished")
        _took_back(table, index)
    return table


def _took_back(table: Table, index: int) -> bool:
    """On a locked active table: end auto-play for the person at ``index`` if it plays for
    them (their turn is theirs again, with its timer), and tell the table."""
    if not _take_back_seat(table, index):
        return False
    _schedule_bots(table, load_state(table))
    table.version += 1
    _save_row(table)
    _notify(table)
    return True


def _others_waiting(table: Table, index: int) -> bool:
    """Another person (not on auto-play) sits at the table: the bots keep their pace."""
    return any(
        s.index != index and s.kind == Seat.Kind.PERSON and not s.plays_itself
        for s in table.seats.all()
    )


def _present_seats(table: Table, now) -> set[int]:
    return set(
        table.presences.filter(seen_at__gte=_stale_before(now), seat__isnull=False).values_list(
            "seat", flat=True
        )
    )


def _expire_deadlines(table: Table, now) -> None:
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
    for seat in table.seats.all():
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
        _notify(table)
    else:
        _update_timer_due(table)
    _save_row(table)


# ---------------------------------------------------------------- reactions

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


# ---------------------------------------------------------------- presence


def socket_opened(code, user, channel: str) -> None:
    """A socket of a shared table opened: its person is connected (their grace, if any,
    ends), and a person a computer played for while they were away is back in their seat, as
    on BGA: coming back to the table is enough, whether or not they notice the badge. One who
    left the match stays out of it."""
    now = timezone.now()
    with transaction.atomic():
        table = _locked(code)
        index = seat_of(table, user)
        Presence.objects.create(
            table=table, seat=index, user=user, channel=channel[:200], seen_at=now
        )
        if index is not None:
            seat = _seat(table, index)
            back = table.is_active and not seat.left and _took_back(table, index)
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


def presence_of(table: Table) -> tuple[dict[int, str], int]:
    """Each person's seat ("connected", "reconnecting" within their grace, or "away") and how
    many watch, from one query."""
    now = timezone.now()
    rows = list(
        table.presences.filter(seen_at__gte=_stale_before(now)).values_list("seat", flat=True)
    )
    present = {r for r in rows if r is not None}
    out = {}
    for seat in table.seats.all():
        if seat.kind != Seat.Kind.PERSON or seat.user_id is None:
            continue
        if seat.index in present:
            out[seat.index] = "connected"
        elif seat.away_due_at is not None and seat.away_due_at > now:
            out[seat.index] = "reconnecting"
        else:
            out[seat.index] = "away"
    return out, rows.count(None)


# ---------------------------------------------------------------- accounts that go


def forget_player(user) -> None:
    """Before an account is deleted: its matches against the computer go with it; a match it
    played with other people stays theirs (the seat then reads "deleted player"), and one
    still running goes on with a computer player in the seat: the account leaves it as
    Leave does (``leave_table``), ending it only if nobody else is still in it."""
    codes = list(Table.objects.filter(seats__user=user).values_list("code", flat=True))
    for code in codes:
        table = get_table(code)
        others = [s for s in table.seats.all() if s.user_id not in (None, user.pk)]
        if not others:
            table.delete()
        elif table.is_active or table.is_waiting:
            leave_table(code, user)
