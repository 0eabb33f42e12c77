"""A command's unit of work: the table locked and checked, what the transaction has still
to write, and the notice sent once it commits.

Every command has one shape: in one transaction, lock the table and check (``_locked_seat``,
``_check_version``), then do, then notify on commit (``Unit.notify``), so that each socket
draws its board from the committed table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import partial

from django.db import transaction

from games import realtime, signals
from games.models import Table
from games.services.pacing import as_shown
from games.services.reading import seat_of
from games.services.store import (
    LogLine,
    Refused,
    _by_code,
    _insert_log,
    _remember_committed,
    parse_code,
)

log = logging.getLogger(__name__)


@dataclass
class Unit:
    """What one command's transaction holds besides the database: the log lines of its moves
    not written yet, and the tables it tells after commit.

    The command makes it inside its ``transaction.atomic()`` and hands it to each helper that
    logs a move or notifies. Passed along, not kept on the table (as ``_unsaved_log`` and a
    notice flag were) nor in a contextvar: whoever holds the unit is inside that command's
    transaction, and a command called from another (``play_again`` seating its caller through
    ``join_table``) makes a unit of its own for the table it reads, which it writes and tells
    itself, as before. A unit tells each table once (the same instance: the one the command
    locked), with the version it has when the transaction commits.
    """

    log: list[LogLine] = field(default_factory=list)
    notified: list[Table] = field(default_factory=list)
    # The last view worked out for the bots' pause, with the state it is of and the seat whose
    # observation it is (None: the public view): the next move of the transaction starts from
    # that state, so its pause reads it again instead of working it out twice, and the bot
    # that makes it sees that observation (moves._apply_move, moves._bot_task,
    # pacing._bot_delay).
    public: tuple | None = None

    def save_log(self) -> None:
        """Write the log lines of the moves made so far (``moves._save_moves``)."""
        lines, self.log = self.log, []
        _insert_log(lines)

    def notifies(self, table: Table) -> bool:
        """Whether ``table`` (this very instance) is told after commit."""
        return any(t is table for t in self.notified)

    def notify(self, table: Table) -> None:
        """After commit: tell the table's group it changed. Private views never travel here.

        Once per transaction, with the version the table has when it commits: a transaction
        that makes several moves sends one notice.
        """
        if self.notifies(table):
            return
        self.notified.append(table)
        transaction.on_commit(partial(_send_notice, self, table))


def _send_notice(unit: Unit, table: Table) -> None:
    """The notice ``Unit.notify`` registered, sent on commit: "table changed, version N"."""
    if unit.log:  # a writer that never called _save_moves
        log.error("table %s committed moves it never wrote", table.code)
    code, version = str(table.code), table.version
    _remember_committed(table)
    due = min((d for d in (table.bot_due_at, table.timer_due_at) if d is not None), default=None)
    # Lost while the channel layer is away (a Redis restart): healed by the next notice
    # or the resync, so one line and no trace.
    realtime.send_to_group(
        realtime.table_group(code),
        {"type": "table.changed", "version": version},
        lambda e: log.warning("could not notify table %s (version %d): %r", code, version, e),
    )
    if due is not None:
        signals.bot_move_due.send(sender=Table, code=code, due=due)


def _send_on_commit(group: str, message: dict, failed) -> None:
    """``realtime.send_to_group`` once the transaction commits (at once outside one)."""
    transaction.on_commit(partial(realtime.send_to_group, group, message, failed))


def _notify_lobby() -> None:
    """After commit: the lobby's list of open tables may have changed."""

    # Lost: the list is read afresh by the next one.
    _send_on_commit(
        realtime.lobby_group(),
        {"type": "lobby.tables"},
        lambda e: log.warning("could not notify the lobby: %r", e),
    )


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
