"""Counting uses against a limit per fixed window, atomically across threads and processes.

Logins, guest accounts and password-reset mails are limited here. A use is counted *before*
the work it limits (the password check, the new guest, the mail), by one atomic statement
that returns the new count: of N requests that arrive at once, each sees a different count,
so at most ``limit`` of them are let through. Checking a count first and recording the use
afterwards let every parallel request see the same old count and pass.

The counters live in the database (``accounts.RateCounter``), not in the cache: Django's database cache increments by reading and then
writing the value, so two processes incrementing at once both write the same number and one
use is lost. An ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` is one statement that SQLite
(3.35+, which runs it under the database's write lock) and PostgreSQL (which locks the row,
also when two transactions insert the same new key at once) apply one after another. The
database is shared by every process, whichever cache a deployment uses, so the same code is
atomic with the Redis cache as well.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.db import connection

TABLE = "cardsite_ratelimit"


class Exceeded(Exception):
    """A limit is used up; ``seconds`` until its window ends."""

    def __init__(self, seconds: int):
        super().__init__(seconds)
        self.seconds = seconds


@dataclass(frozen=True)
class Limit:
    """At most ``limit`` uses of ``name`` per ``window`` seconds."""

    name: str
    limit: int
    window: int

    @classmethod
    def of(cls, scope: str, value: str, limit: int, window: int) -> Limit:
        # Hashed: the table holds no addresses or usernames, and every name fits its column.
        digest = hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]
        return cls(f"{scope}:{digest}", limit, window)


@dataclass(frozen=True)
class Use:
    """One counted use, to give back (e.g. a successful login) within its own window."""

    name: str
    window_end: int

    def give_back(self) -> None:
        # Only the window the use was counted in: a later window's count is not ours to lower.
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {TABLE} SET hits = hits - 1 WHERE name = %s AND window_end = %s"
                " AND hits > 0",
                [self.name, self.window_end],
            )


def take(*limits: Limit) -> list[Use]:
    """Count one use against every limit, or against none of them.

    Raises ``Exceeded`` if any limit is used up; the uses already counted for this call are
    given back, so a refused request does not use up the other limits (a client blocked by its
    address does not lock other users out of their usernames).
    """
    taken: list[Use] = []
    for limit in limits:
        count, use = _hit(limit)
        if count > limit.limit:
            for earlier in (*taken, use):
                earlier.give_back()
            raise Exceeded(max(1, use.window_end - _now()))
        taken.append(use)
    return taken


def reset(limit: Limit) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE} WHERE name = %s", [limit.name])


def count(limit: Limit) -> int:
    """Uses counted in the current window."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT hits FROM {TABLE} WHERE name = %s AND window_end > %s", [limit.name, _now()]
        )
        row = cursor.fetchone()
    return row[0] if row else 0


def _hit(limit: Limit) -> tuple[int, Use]:
    now = _now()
    with connection.cursor() as cursor:
        # Insert, restart an ended window or add one, all in one statement: no other request
        # can count between our read of the count and our write of it.
        cursor.execute(
            f"INSERT INTO {TABLE} (name, hits, window_end) VALUES (%s, 1, %s)"
            " ON CONFLICT (name) DO UPDATE SET"
            f" hits = CASE WHEN {TABLE}.window_end <= %s THEN 1 ELSE {TABLE}.hits + 1 END,"
            f" window_end = CASE WHEN {TABLE}.window_end <= %s"
            f" THEN excluded.window_end ELSE {TABLE}.window_end END"
            " RETURNING hits, window_end",
            [limit.name, now + limit.window, now, now],
        )
        # fetchall: SQLite commits (and releases its write lock) only once the statement is done.
        (hits, window_end), *_ = cursor.fetchall()
        if hits == 1:
            # A window starts: forget the windows that have ended, so the table stays small.
            cursor.execute(f"DELETE FROM {TABLE} WHERE window_end <= %s", [now])
    return hits, Use(limit.name, window_end)


def _now() -> int:
    return int(time.time())
