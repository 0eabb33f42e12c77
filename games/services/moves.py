"""Moves: a player's move, applied and logged under the table's lock, and the bots'.

The table records when its next bot move is due; ``play_due_bot_move`` and
``apply_bot_move`` make advancing idempotent (the version guards the move, a short claim
stops two processes from thinking about the same one), so two tabs, two processes or a
restart never move twice or stall. Paced, a bot's move due at its time brings the quick
bots' moves after it along, in its transaction; each is shown at its own paced time
(``pacing``). Here too dealing and ending a hand, the player's hint, difficulty and
fast-forward.
"""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone

from games import lessons, metrics, ratings
from games.bots.task import BotTask
from games.bots.task import choose as choose_bot_action
from games.engine import IllegalAction
from games.models import Hand, LessonProgress, Seat, Table
from games.registry import table_game
from games.services import tally
from games.services.pacing import _paced, _reveal_until, _schedule_bots, as_shown
from games.services.presence import _expire_deadlines, _take_back_seat
from games.services.reading import load_state
from games.services.store import LogLine, Refused, _read_seats, _save_row, keep_state
from games.services.unit import Unit, _check_version, _locked, _locked_seat

LEVELS = ("easy", "normal", "hard")
CLAIM_SECONDS = 30

# Levels whose choice is quick enough to make inside the transaction that applies it; the
# others (Hard's search) think in a worker between a claim and a version-checked apply.
QUICK_LEVELS = ("easy", "normal")
MAX_BATCH = 60


def _start_hand(unit: Unit, table: Table, state) -> Hand:
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
        seats = {s.index: s for s in table.seat_list}
        for seat in movers:
            legal = game.legal_actions(state, seat)
            if seats[seat].plays_itself or len(legal) == 1:
                action = (
                    legal[0]
                    if len(legal) == 1
                    else _choose(table, seat, seats[seat].level_to_play, state)
                )
                state = _log_and_apply(unit, table, state, seat, action, by_computer=True)
    table.state = game.to_json(state)
    return hand


def _open_hand(unit: Unit, table: Table, state) -> None:
    """A hand just dealt: record it, set when the bots move, save the table and tell it.

    The seats are read again first: new ones were just created, or their levels changed for
    this hand, and the frames render the seats as this table holds them (``committed_table``).
    """
    _read_seats(table)
    _start_hand(unit, table, state)
    _schedule_bots(table, load_state(table))
    table.save()
    unit.save_log()
    unit.notify(table)


def _choose(table: Table, seat: int, level: str, state) -> dict:
    """A bot's choice computed inline (used for the quick simultaneous decisions at a deal)."""
    gspec = table_game(table.game)
    game = gspec.engine
    move = _scripted(table, seat)
    if move is not None:
        return move
    rng = random.Random(f"{table.seed}:{table.version}:{seat}")
    start = time.perf_counter()
    action = gspec.bot(level).act(
        game.observation(state, seat), game.legal_actions(state, seat), rng
    )
    metrics.bot_decided(level, time.perf_counter() - start)
    return action


def _scripted(table: Table, seat: int) -> dict | None:
    """At a lesson's table, the script's move due from ``seat`` (games.lessons)."""
    if table.lesson is None:
        return None
    lesson = table_game(table.game).lesson
    if lesson is None:
        return None
    return lessons.scripted(lesson, lessons.at(table.lesson, table.version), seat)


def _check_lesson_move(table: Table, state, seat: int, action: dict) -> None:
    """At a lesson's table, only the script's move is taken: an illegal move is refused by the
    engine's own rule (``IllegalAction``), another legal one with the step's reason why the
    lesson wants its own, and any move before the step's question is answered."""
    lesson = table_game(table.game).lesson
    if lesson is None:
        return
    index = lessons.at(table.lesson, table.version)
    if lessons.quiz_pending(lesson, table.lesson, index) is not None:
        raise Refused("lesson_quiz_first")
    game = table_game(table.game).engine
    read = game.read(state, seat, action)
    game.apply(state, seat, read)  # an illegal move raises the engine's refusal here
    want = lessons.scripted(lesson, index, seat)
    if want is not None and not lessons.same_move(read, want):
        raise Refused("lesson_other", {"game": table.game, "step": index})


def _lesson_finished(table: Table) -> None:
    """A lesson's hand is over: its learner has finished the game's lesson."""
    learner = next(s for s in table.seat_list if s.index == lessons.LEARNER)
    if learner.user_id is not None:
        LessonProgress.objects.filter(user_id=learner.user_id, game=table.game).update(
            finished_at=timezone.now(), table=table
        )


def _decide(task: BotTask) -> dict:
    """A quick bot's choice, made here in the transaction that applies it (timed)."""
    start = time.perf_counter()
    action = choose_bot_action(task)
    metrics.bot_decided(task.level, time.perf_counter() - start)
    return action


def _log_and_apply(
    unit: Unit,
    table: Table,
    state,
    seat: int,
    action: dict,
    by_computer: bool = False,
    applied=None,
):
    """``applied``: the state after ``action`` (already read), when the caller has it."""
    if applied is None:
        game = table_game(table.game).engine
        # Logged as the engine reads it, whoever made it: a person's selection gets the combo
        # it was read as, as a bot's listed action has it (every reader of the log sees one
        # shape).
        action = game.read(state, seat, action)
        applied = game.apply(state, seat, action)
    state = applied
    table.version += 1
    # Written with the table's row, once per transaction (``_save_moves``).
    unit.log.append(
        LogLine(table.pk, table.current_hand_id, table.version, seat, action, by_computer)
    )
    # Counted once it is committed (a refused or rolled-back move never is).
    transaction.on_commit(partial(metrics.applied, table.game))
    return state


def _finish_hand_if_over(unit: Unit, table: Table, state) -> None:
    game = table_game(table.game).engine
    if not game.hand_over(state):
        return
    unit.save_log()  # what ends a hand reads the hand's moves as written
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
    if table.lesson is not None:
        _lesson_finished(table)
    if table.daily_id is not None:
        tally.record_daily(table, hand)


def submit_action(code, user, action: dict, version) -> Table:
    """A player's move. Refused (and nothing changes) if stale, out of turn or illegal."""
    with transaction.atomic():
        unit = Unit()
        table, seat = _locked_seat(code, user)
        shown = as_shown(table)
        try:
            if not table.is_active:
                raise Refused("match_finished")
            if _check_version(table, version) is not table:
                raise Refused("not_your_turn")  # the bots' replies are still showing
            state = load_state(table)
            if table_game(table.game).engine.hand_over(state):
                raise Refused("hand_over")
            _take_back_seat(table, seat)  # acting takes the seat back from auto-play
            try:
                if table.lesson is not None:
                    _check_lesson_move(table, state, seat, action)
                state = _apply_move(unit, table, state, seat, action)
            except IllegalAction as e:
                # At a lesson's table the rule comes with a pointer to the lesson's move.
                params = {**e.params, "lesson": True} if table.lesson is not None else e.params
                raise Refused(e.code, params) from e
        except Refused as e:
            # What the table showed when refused (nothing changed): the live side answers
            # a page that has this version without reading the table again.
            e.version, e.seat = shown.version, seat
            raise
        # The quick bots' replies in the same transaction, paced or not (paced, each shows at
        # its time): one transaction, one notice and one trip to the database thread per
        # person's move instead of two (the boards as before, one per move shown). Their
        # thinking delays the person's answer by a few milliseconds (Normal's, measured with
        # loadbench --regime human: latency p95 about 2 ms more, CPU per human action 5-20 %
        # less); the slow levels think in the driver's workers as before.
        _play_quick_bots(unit, table, state)
        _save_moves(unit, table)
    return table


def start_next_hand(code, user, version) -> Table:
    with transaction.atomic():
        unit = Unit()
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
        _open_hand(unit, table, state)
    return table


def set_level(code, user, level: str) -> Table:
    """Difficulty for the following hands (the current hand keeps its opponents)."""
    if level not in LEVELS:
        raise Refused("bad_level")
    with transaction.atomic():
        unit = Unit()
        table, _seat = _locked_seat(code, user)
        if table.lesson is not None:
            raise Refused("no_level_in_lesson")
        if table.daily_id is not None:
            raise Refused("no_level_in_daily")
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
        unit.notify(table)
    return table


def fast_forward(code, user) -> Table:
    """Play the bots' pending moves at once, until the player is to move again."""
    with transaction.atomic():
        unit = Unit()
        table, seat = _locked_seat(code, user)
        showing = _reveal_until(table, timezone.now().timestamp()) is not None
        if table.bot_due_at is None and not showing:
            return table
        if not may_hurry(table, seat):
            raise Refused("others_waiting")
        table.reveal = None  # the moves on their way show at once
        if table.bot_due_at is not None:
            table.hurry = True
            table.bot_due_at = timezone.now()
        else:
            _schedule_bots(table, load_state(table))  # a person's turn shows now: its timer too
        table.save(update_fields=[*FAST_FORWARD_FIELDS, "updated_at"])
        unit.notify(table)
    return table


FAST_FORWARD_FIELDS = ["hurry", "bot_due_at", "reveal", "turn_due_at", "timer_due_at"]


def may_hurry(table: Table, seat: int | None) -> bool:
    """Whether the person at ``seat`` may show the moves on their way at once (``fast_forward``):
    nobody else at the table waits for them. Their page is then sent those moves ahead, each
    to show at its time (``games.views_live``): it holds nothing they could not see now."""
    return seat is not None and not _others_waiting(table, seat)


def _others_waiting(table: Table, index: int) -> bool:
    """Another person (not on auto-play) sits at the table: the bots keep their pace."""
    return any(
        s.index != index and s.kind == Seat.Kind.PERSON and not s.plays_itself
        for s in table.seat_list
    )


def hint_for(table: Table, seat: int, n: int = 0) -> dict | None:
    """A suggestion for ``seat`` (the player's Hint); never applied. The first press gets
    Normal's choice, each further press (``n``) the next legal action, round and round."""
    if table.daily_id is not None:
        raise Refused("no_hint_in_daily")
    gspec = table_game(table.game)
    game = gspec.engine
    state = load_state(table)
    if seat not in game.to_move(state):
        return None
    legal = game.legal_actions(state, seat)
    first = _scripted(table, seat) or gspec.hint(game.observation(state, seat), legal)
    if not n:
        return first
    order = [first] + [a for a in legal if a != first]
    return order[n % len(order)]


def _bot_task(table: Table, state, unit: Unit | None = None) -> BotTask | None:
    """The move a bot owes at this table now, with all it may see, or None. ``unit``: the
    command's, whose pause may have worked out this bot's observation already."""
    game = table_game(table.game).engine
    bots = {s.index: s.level_to_play for s in table.seat_list if s.plays_itself}
    movers = [] if game.hand_over(state) else [m for m in game.to_move(state) if m in bots]
    if not movers:
        return None
    seat = movers[0]
    kept = unit.public if unit is not None else None
    if kept is not None and kept[0] is state and kept[2] == seat:
        observation = kept[1]
    else:
        observation = game.observation(state, seat)
    return BotTask(
        code=str(table.code),
        game=table.game,
        seat=seat,
        level=bots[seat],
        version=table.version,
        observation=observation,
        legal=game.legal_actions(state, seat),
        rng_seed=f"{table.seed}:{table.version}:{seat}",
        scripted=_scripted(table, seat),
    )


def _apply_move(
    unit: Unit,
    table: Table,
    state,
    seat: int,
    action: dict,
    by_computer: bool = False,
    shown_at: datetime | None = None,
    applied=None,
):
    """Apply and log one move on a locked table; notify after commit. The new state.

    ``shown_at``: when the move shows (a bot's reply applied together with the move before
    it, ``_play_quick_bots``); the next pause and turn timer run from then. ``applied``: the
    state after the move (read as the engine reads it), when the caller has worked it out.

    The table's row and the move's log line are written by ``_save_moves``, once for all the
    moves of a transaction (a player's move and the bots' replies): every caller ends its
    moves with it."""
    game = table_game(table.game).engine
    before = None
    if _paced(table):  # for the bots' pause: the view of the state this move starts from
        kept = unit.public
        before = kept[1] if kept is not None and kept[0] is state else game.public_view(state)
    state = _log_and_apply(unit, table, state, seat, action, by_computer, applied)
    table.state = game.to_json(state)
    keep_state(table.state, state)  # read again as this object: the boards that follow
    _finish_hand_if_over(unit, table, state)
    _schedule_bots(table, state, before, shown_at, unit)
    unit.notify(table)
    return state


def _save_moves(unit: Unit, table: Table) -> None:
    """Write what ``_apply_move`` changed: the log lines in one insert, the table's row once."""
    unit.save_log()
    _save_row(table)


def play_due_bot_move(code, *, force: bool = False) -> Table | BotTask | None:
    """Play the table's due bot move, if any: a quick bot decides and moves in this one
    transaction (the row lock keeps every other writer out meanwhile). For a slow bot the
    move is claimed instead and returned as a task to think about in a worker.
    """
    with transaction.atomic():
        unit = Unit()
        try:
            table = _locked(code)
        except Refused:
            return None
        now = timezone.now()
        if force and _reveal_until(table, now.timestamp()) is not None:
            table.reveal = None  # every move at once (tests, commands): those on their way too
            table.save(update_fields=["reveal"])
        if table.timer_due_at is not None and table.timer_due_at <= now:
            _expire_deadlines(unit, table, now)
        if not table.is_active or table.bot_due_at is None:
            return table if unit.notifies(table) else None
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
        state = _apply_move(unit, table, state, task.seat, _decide(task), by_computer=True)
        _play_quick_bots(unit, table, state, together=not force)
        _save_moves(unit, table)
        return table


def _play_quick_bots(unit: Unit, table: Table, state, together: bool = True) -> None:
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
    bots = {s.index for s in table.seat_list if s.plays_itself}
    # Nothing earlier is still on its way: a bot's move is due no sooner than the last of
    # those shows (``_schedule_bots``), a person cannot move before, and run_bots and
    # fast-forward show them at once first. So the move just applied shows now.
    steps = []
    shown = timezone.now()
    for _ in range(MAX_BATCH):
        due = table.bot_due_at
        if due is None or (not paced and due > timezone.now()):
            break
        task = _bot_task(table, state, unit)
        if task is None or task.level not in QUICK_LEVELS:
            break
        if paced and not set(game.to_move(state)) <= bots:
            break  # a person decides at the same time: their turn is showing
        action = _decide(task)
        applied = None
        if paced:  # the move is applied once: to see whether it ends the hand, and kept
            action = game.read(state, task.seat, action)
            applied = game.apply(state, task.seat, action)
            if game.hand_over(applied):
                break
            steps.append([shown.timestamp(), table.version, table.state])
            shown = due
        state = _apply_move(
            unit, table, state, task.seat, action, True, due if paced else None, applied
        )
    # None when there is nothing to show one by one: no past states kept in the row.
    table.reveal = {"until": shown.timestamp(), "steps": steps} if steps else None


def apply_bot_move(task: BotTask, action: dict, together: bool = True) -> Table | None:
    """Apply a bot's chosen move if the table is still where the bot saw it, with the quick
    bots' moves after it (``_play_quick_bots``)."""
    with transaction.atomic():
        unit = Unit()
        table = _locked(task.code)
        if table.version != task.version or not table.is_active:
            return None  # someone moved meanwhile; the claim lapses with the version
        state = _apply_move(unit, table, load_state(table), task.seat, action, by_computer=True)
        _play_quick_bots(unit, table, state, together)
        _save_moves(unit, table)
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
