"""A move's locked read from this process's copy of the table as it last wrote it
(``services.store._as_written``), and the revision that says whether anyone wrote the table or
its seats since (the database's triggers, migration 0012).

Each test commits (``django_capture_on_commit_callbacks(execute=True)``): the copy is kept only
once the move's transaction commits.
"""

import random

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import get_game
from games.models import Seat, Table
from games.services import store
from tests.games.conftest import play_until_human

pytestmark = pytest.mark.django_db
GAME = get_game("gongzhu")


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    def run(command, *args):
        with django_capture_on_commit_callbacks(execute=True):
            return command(*args)

    return run


def _move(table, owner, commit, rng=None):
    """One move of the person in seat 0, the bots' replies with it; the table as it committed."""
    rng = rng or random.Random(3)
    play_until_human(table)
    table.refresh_from_db()
    state = GAME.from_json(table.state)
    if GAME.hand_over(state):
        commit(services.start_next_hand, table.code, owner, table.version)
        return _move(table, owner, commit, rng)
    action = rng.choice(GAME.legal_actions(state, 0))
    return commit(services.submit_action, table.code, owner, action, table.version)


def _locked(code) -> Table:
    with transaction.atomic():
        return store._by_code(code, lock=True)


def _row(table: Table) -> Table:
    return store._by_code(table.code, lock=False)


def _same(a: Table, b: Table) -> None:
    """Every column and every seat's columns alike."""
    for f in Table._meta.concrete_fields:
        assert getattr(a, f.attname) == getattr(b, f.attname), f.name
    assert len(a.seat_list) == len(b.seat_list)
    for x, y in zip(a.seat_list, b.seat_list, strict=True):
        for f in Seat._meta.concrete_fields:
            assert getattr(x, f.attname) == getattr(y, f.attname), f"seat {x.index} {f.name}"


def test_the_move_after_a_move_locks_the_row_and_reads_nothing_else(table, owner, commit):
    moved = _move(table, owner, commit)
    with CaptureQueriesContext(connection) as queries:
        again = _locked(table.code)
    reads = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1 and '"revision"' in reads[0]  # the seats not read either
    _same(again, _row(table))
    assert again.revision == moved.revision
    # The writer's own copy: changing it changes nothing kept for the next one.
    again.state = {"changed": True}
    again.seat_list[1].bot_level = "hard"
    fresh = _locked(table.code)
    assert fresh.state != {"changed": True} and fresh.seat_list[1].bot_level != "hard"
    assert fresh is not again and fresh.seat_list[1] is not again.seat_list[1]
    assert all(seat.table is fresh for seat in fresh.seats.all())
    assert fresh.seats.filter(index=1).get().table is fresh  # a query of its seats: its own


def test_a_whole_hand_of_moves_each_starts_from_the_table_as_the_database_has_it(
    table, owner, commit
):
    for _ in range(14):  # a hand's thirteen tricks and the next hand's start
        _move(table, owner, commit)
        _same(_locked(table.code), _row(table))


WRITES = {
    "the table's row updated": lambda t: Table.objects.filter(pk=t.pk).update(level="hard"),
    "the table saved whole from an older read": lambda t: _older(t).save(),
    "a seat's column updated": lambda t: Seat.objects.filter(table=t, index=2).update(
        bot_level="hard"
    ),
    "a seat saved": lambda t: _saved_seat(t),
    "raw SQL": lambda t: _raw(f"UPDATE games_table SET hurry = NOT hurry WHERE id = {t.pk}"),
    "a seat removed": lambda t: Seat.objects.filter(table=t, index=3).delete(),
    "a seat added": lambda t: Seat.objects.create(table=t, index=4, kind=Seat.Kind.BOT),
}


def _older(table: Table) -> Table:
    older = Table.objects.get(pk=table.pk)
    older.revision = 0  # read long ago
    older.options = {**older.options, "note": "saved whole"}
    return older


def _saved_seat(table: Table) -> None:
    seat = Seat.objects.get(table=table, index=1)
    seat.autoplay = not seat.autoplay
    seat.save()


def _raw(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


@pytest.mark.parametrize("write", list(WRITES))
def test_any_other_write_of_the_table_or_its_seats_is_seen_by_the_next_move(
    table, owner, commit, write
):
    moved = _move(table, owner, commit)
    before = _row(table).revision
    assert before == moved.revision
    with transaction.atomic():
        WRITES[write](table)
    after = _row(table)
    assert after.revision > before  # the database moved it on, whoever wrote
    locked = _locked(table.code)
    _same(locked, after)


def test_a_transaction_rolled_back_keeps_nothing(table, owner, commit):
    moved = _move(table, owner, commit)
    with pytest.raises(RuntimeError), transaction.atomic():
        locked = store._by_code(table.code, lock=True)
        locked.version += 1
        locked.state = {"rolled": "back"}
        store._save_row(locked)
        raise RuntimeError
    row = _row(table)
    assert (row.version, row.revision) == (moved.version, moved.revision)
    _same(_locked(table.code), row)


def test_every_write_gives_the_row_a_revision_it_never_had(table, owner, commit):
    seen = [_row(table).revision]
    for name, write in WRITES.items():
        if name not in ("a seat removed", "a seat added"):  # the game plays on without them
            _move(table, owner, commit)
            seen.append(_row(table).revision)
        with transaction.atomic():
            write(table)
        seen.append(_row(table).revision)
    assert seen == sorted(set(seen)), str(seen)
