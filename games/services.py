"""The one write path for tables.

Every change to a table goes through here, in one transaction: lock the row, check the
version the player saw, apply through the engine, log, save, and after commit tell the
table's group "changed, version N". Bots are driven from here too: the table records when
its next bot move is due; ``play_due_bot_move`` and ``apply_bot_move`` make advancing
idempotent (the version guards the move, a short claim stops two processes from thinking
about the same one), so two tabs, two processes or a restart never move twice or stall.
"""

from __future__ import annotations

import logging
import random
import secrets
import uuid
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from games import realtime, signals
from games.bots.task import BotTask
from games.bots.task import choose as choose_bot_action
from games.engine import IllegalAction
from games.models import ActionLog, Hand, Seat, Table
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
    try:
        return _with_seats(Table.objects).get(code=parse_code(code))
    except Table.DoesNotExist as e:
        raise Refused("no_such_table") from e


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
    return table_game(table.game).engine.from_json(table.state)


def view_for(table: Table, seat: int | None, state=None) -> dict:
    """What ``seat`` may see (the public view for a spectator), with the table's version."""
    game = table_game(table.game).engine
    state = load_state(table) if state is None else state
    view = game.observation(state, seat) if seat is not None else game.public_view(state)
    view["version"] = table.version
    return view


def hint_for(table: Table, seat: int) -> dict | None:
    """Normal's choice for ``seat`` (the player's Hint); never applied."""
    import importlib

    game = table_game(table.game).engine
    state = load_state(table)
    if seat not in game.to_move(state):
        return None
    bots = importlib.import_module(f"games.bots.{table.game}")
    return bots.hint(game.observation(state, seat), game.legal_actions(state, seat))


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
        code, version, due = str(table.code), table.version, table.bot_due_at
        layer = get_channel_layer()
        if layer is not None:
            try:
                async_to_sync(layer.group_send)(
                    realtime.table_group(code), {"type": "table.changed", "version": version}
                )
            except Exception as e:  # noqa: BLE001 - healed by the next notice or the resync
                # Expected while the channel layer is away (a Redis restart): one line, no trace.
                log.warning("could not notify table %s (version %d): %r", code, version, e)
        if due is not None:
            signals.bot_move_due.send(sender=Table, code=code, due=due)

    transaction.on_commit(send)


def _bot_delay(table: Table, before_public: dict | None, after_public: dict) -> float:
    if not settings.GAME_PACING or table.hurry:
        return 0.0
    return table_game(table.game).pause_after(before_public or {}, after_public)


def _schedule_bots(table: Table, state, before_public: dict | None = None) -> None:
    """Record when the next bot move is due (or that none is)."""
    game = table_game(table.game).engine
    movers = [] if game.hand_over(state) else game.to_move(state)
    bots = {s.index for s in table.seats.all() if s.is_bot}
    if any(m in bots for m in movers):
        delay = _bot_delay(table, before_public, game.public_view(state))
        table.bot_due_at = timezone.now() + timedelta(seconds=delay)
    else:
        table.bot_due_at = None
        table.hurry = False  # the player is to move (or the hand is over): pacing resumes
    table.bot_claimed_until = None


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
            if seats[seat].is_bot or len(legal) == 1:
                action = (
                    legal[0]
                    if len(legal) == 1
                    else _choose(table, seat, seats[seat].bot_level, state)
                )
                state = _log_and_apply(table, state, seat, action)
    table.state = game.to_json(state)
    return hand


def _choose(table: Table, seat: int, level: str, state) -> dict:
    """A bot's choice computed inline (used for the quick simultaneous decisions at a deal)."""
    from games.bots import get_bot

    game = table_game(table.game).engine
    rng = random.Random(f"{table.seed}:{table.version}:{seat}")
    return get_bot(table.game, level).act(
        game.observation(state, seat), game.legal_actions(state, seat), rng
    )


def _log_and_apply(table: Table, state, seat: int, action: dict):
    game = table_game(table.game).engine
    state = game.apply(state, seat, action)
    table.version += 1
    ActionLog.objects.create(
        table=table, hand_id=table.current_hand_id, seq=table.version, seat=seat, action=action
    )
    return state


def _finish_hand_if_over(table: Table, state) -> None:
    game = table_game(table.game).engine
    if not game.hand_over(state):
        return
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
    if game.match_over(state):
        table.status = Table.Status.FINISHED
        table.finished_at = timezone.now()


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
    try:
        info = table_game(game_name).info
    except KeyError as e:
        raise Refused("bad_options") from e
    if level not in LEVELS:
        raise Refused("bad_level")
    seats = seats or info.default_seats
    if seats not in info.seat_counts:
        raise Refused("bad_seats")
    opts = {**info.default_options, **(options or {})}
    if set(opts) != set(info.default_options):
        raise Refused("bad_options")
    seed = _seed()
    game = table_game(game_name).engine
    try:
        state = game.new_match(seed=seed, seats=seats, options=opts or None)
    except (ValueError, TypeError) as e:
        raise Refused("bad_options") from e
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
            Seat.objects.create(table=table, index=i, bot_level=level)
        _start_hand(table, state)
        state = load_state(table)
        _schedule_bots(table, state)
        table.save()
        _notify(table)
        if replaces:
            _end_session(replaces, user)
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
        return _with_seats(Table.objects.select_for_update()).get(code=parse_code(code))
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


def submit_action(code, user, action: dict, version) -> Table:
    """A player's move. Refused (and nothing changes) if stale, out of turn or illegal."""
    with transaction.atomic():
        table, seat = _locked_seat(code, user)
        if not table.is_active:
            raise Refused("match_finished")
        if not isinstance(version, int) or version != table.version:
            raise Refused("stale", {"version": table.version})
        state = load_state(table)
        if table_game(table.game).engine.hand_over(state):
            raise Refused("hand_over")
        try:
            state = _apply_move(table, state, seat, action)
        except IllegalAction as e:
            raise Refused(e.code, e.params) from e
        _play_unpaced_bots(table, state)
    return table


def start_next_hand(code, user, version) -> Table:
    with transaction.atomic():
        table, _seat = _locked_seat(code, user)
        if not isinstance(version, int) or version != table.version:
            raise Refused("stale", {"version": table.version})
        game = table_game(table.game).engine
        state = load_state(table)
        if not table.is_active or game.match_over(state):
            raise Refused("match_finished")
        if not game.hand_over(state):
            raise Refused("hand_not_over")
        # A difficulty chosen during the hand applies from this one.
        table.seats.filter(user__isnull=True).update(bot_level=table.level)
        state = game.next_hand(state)
        table.version += 1
        table.state = game.to_json(state)
        _start_hand(table, state)
        state = load_state(table)
        _schedule_bots(table, state)
        table.save()
        _notify(table)
    return table


def set_level(code, user, level: str) -> Table:
    """Difficulty for the following hands (the current hand keeps its opponents)."""
    if level not in LEVELS:
        raise Refused("bad_level")
    with transaction.atomic():
        table, _seat = _locked_seat(code, user)
        table.level = level
        table.version += 1
        table.save(update_fields=["level", "version", "updated_at"])
        _notify(table)
    return table


def fast_forward(code, user) -> Table:
    """Play the bots' pending moves at once, until the player is to move again."""
    with transaction.atomic():
        table, _seat = _locked_seat(code, user)
        if table.bot_due_at is None:
            return table
        table.hurry = True
        table.bot_due_at = timezone.now()
        table.save(update_fields=["hurry", "bot_due_at", "updated_at"])
        _notify(table)
    return table


def resign(code, user) -> Table:
    with transaction.atomic():
        table, _seat = _locked_seat(code, user)
        if not table.is_active:
            raise Refused("match_finished")
        table.status = Table.Status.RESIGNED
        table.finished_at = timezone.now()
        table.bot_due_at = None
        table.version += 1
        table.save()
        _notify(table)
    return table


# ---------------------------------------------------------------- bots


# Levels whose choice is quick enough to make inside the transaction that applies it; the
# others (Hard's search) think in a worker between a claim and a version-checked apply.
QUICK_LEVELS = ("easy", "normal")
MAX_BATCH = 60


def _bot_task(table: Table, state) -> BotTask | None:
    """The move a bot owes at this table now, with all it may see, or None."""
    game = table_game(table.game).engine
    bots = {s.index: s.bot_level for s in table.seats.all() if s.is_bot}
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


def _apply_move(table: Table, state, seat: int, action: dict):
    """Apply, log and save one move on a locked table; notify after commit. The new state."""
    game = table_game(table.game).engine
    before = game.public_view(state)
    state = _log_and_apply(table, state, seat, action)
    table.state = game.to_json(state)
    _finish_hand_if_over(table, state)
    _schedule_bots(table, state, before)
    table.save(update_fields=TABLE_MOVE_FIELDS)
    _notify(table)
    return state


# The columns one move changes.
TABLE_MOVE_FIELDS = [
    "state",
    "version",
    "status",
    "finished_at",
    "bot_due_at",
    "bot_claimed_until",
    "hurry",
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
        if not table.is_active or table.bot_due_at is None:
            return None
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
        state = _apply_move(table, state, task.seat, choose_bot_action(task))
        _play_unpaced_bots(table, state)
        return table


def _play_unpaced_bots(table: Table, state) -> None:
    """Quick bots whose moves are due at once (no pacing: tests, fast-forward, the closed-loop
    benchmark) play on in the current transaction until someone else is to move: one commit,
    one notice, one frame for the lot."""
    for _ in range(MAX_BATCH):
        if table.bot_due_at is None or table.bot_due_at > timezone.now():
            return
        task = _bot_task(table, state)
        if task is None or task.level not in QUICK_LEVELS:
            return
        state = _apply_move(table, state, task.seat, choose_bot_action(task))


def apply_bot_move(task: BotTask, action: dict) -> Table | None:
    """Apply a bot's chosen move if the table is still where the bot saw it."""
    with transaction.atomic():
        table = _locked(task.code)
        if table.version != task.version or not table.is_active:
            return None  # someone moved meanwhile; the claim lapses with the version
        _apply_move(table, load_state(table), task.seat, action)
    return table


def run_bots(code, limit: int = 1000) -> int:
    """Synchronously play every bot move that is due now or later (tests, commands)."""
    moved = 0
    while moved < limit:
        result = play_due_bot_move(code, force=True)
        if isinstance(result, BotTask):
            result = apply_bot_move(result, choose_bot_action(result))
        if result is None:
            return moved
        moved += 1
    return moved
