"""The bot driver: one per server process, on its event loop.

A table records when its next bot move is due. The driver wakes for it (scheduled after the
commit that made it due, or found by a sweep of the database, which covers restarts and
moves made due by another process), claims the move, lets the bot think off the event loop
(Hard in a process pool: its search is CPU-bound; the others in a thread, never the one that
serves database calls), then applies it through the services, which check the version.

A pool worker is handed a ``games.bots.task.BotTask`` and ``games.bots.task.choose``: the engine
and the bots, never Django. A worker that dies (killed, out of memory) breaks the whole pool;
the driver then replaces the pool and thinks once more, so the table does not freeze.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime

from django.utils import timezone

from games import metrics, signals
from games.bots.task import BotTask, choose, leave_with_parent
from games.live import BACKGROUND, DATABASE_ERRORS, database_call

log = logging.getLogger(__name__)

SWEEP_SECONDS = 1.0
PRESENCE_SWEEP_ROUNDS = 10


class Driver:
    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.running: set[str] = set()
        self.again: set[str] = set()
        self.tasks: set[asyncio.Task] = set()
        self.sweeper: asyncio.Task | None = None
        self.pool: ProcessPoolExecutor | None = None
        self.lock = threading.Lock()

    # -- starting and scheduling (thread-safe)

    def ensure_started(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop or self.sweeper is None or self.sweeper.done():
            self.loop = loop
            self.running.clear()
            self.sweeper = loop.create_task(self._sweep(), context=contextvars.Context())

    def schedule(self, code: str, due: datetime) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return  # no driver in this process: the sweep of a serving process will find it
        delay = max(0.0, (due - timezone.now()).total_seconds())

        # Callbacks run in a fresh context: one copied from a thread inside sync_to_async
        # would make the driver's own database calls think they are nested in it.
        def arm():
            loop.call_later(delay, self.kick, code, context=contextvars.Context())

        try:
            if _in_loop(loop):
                arm()
            else:
                loop.call_soon_threadsafe(arm, context=contextvars.Context())
        except RuntimeError:
            pass  # the loop closed meanwhile

    def kick(self, code: str) -> None:
        """Advance a table now if a bot move is due (on the loop's thread)."""
        if code in self.running:
            self.again.add(code)
            return
        self.running.add(code)
        task = asyncio.get_running_loop().create_task(
            self._advance(code), context=contextvars.Context()
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def stop(self) -> None:
        """Cancel the sweep and wait for moves in flight (tests; a process shutting down)."""
        if self.sweeper is not None:
            self.sweeper.cancel()
        pending = [t for t in (self.sweeper, *self.tasks) if t is not None and not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=10)
        self.sweeper = None
        self.loop = None
        with self.lock:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    # -- work

    async def _advance(self, code: str) -> None:
        from games import services

        try:
            while True:
                self.again.discard(code)
                # One trip to the database thread: a quick bot decides and moves in it.
                result = await database_call(services.play_due_bot_move, priority=BACKGROUND)(code)
                if isinstance(result, services.BotTask):
                    action = await self._think(result)
                    result = await database_call(services.apply_bot_move, priority=BACKGROUND)(
                        result, action
                    )
                if result is None:
                    if code in self.again:
                        continue
                    return
                if result.bot_due_at is None or result.bot_due_at > timezone.now():
                    return  # the player's turn, or paced: the on-commit schedule wakes us
        except Exception:  # noqa: BLE001 - a failed move is retried by the sweep
            log.exception("bot move on table %s failed", code)
        finally:
            self.running.discard(code)

    async def _think(self, task: BotTask) -> dict:
        start = time.perf_counter()
        if task.level != "hard":
            action = await asyncio.to_thread(choose, task)
        else:
            metrics.POOL_QUEUE.inc()  # submitted: queued or thinking in a worker
            try:
                action = await self._think_in_pool(task)
            finally:
                metrics.POOL_QUEUE.dec()
        metrics.bot_decided(task.level, time.perf_counter() - start)
        return action

    async def _think_in_pool(self, task: BotTask) -> dict:
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            return await loop.run_in_executor(pool, choose, task)
        except BrokenProcessPool:
            # Once, in a fresh pool: a second failure is logged by _advance, and the claim
            # lapses so the sweep tries again later.
            log.warning(
                "bot worker died while thinking on table %s (seat %d, version %d): "
                "new worker pool, thinking again",
                task.code,
                task.seat,
                task.version,
            )
            self._drop_pool(pool)
            return await loop.run_in_executor(self._pool(), choose, task)

    def _pool(self) -> ProcessPoolExecutor:
        with self.lock:
            if self.pool is None:
                import multiprocessing

                self.pool = ProcessPoolExecutor(
                    max_workers=max(1, os.cpu_count() or 1),
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=leave_with_parent,
                )
            return self.pool

    def _drop_pool(self, broken: ProcessPoolExecutor) -> None:
        with self.lock:
            if self.pool is broken:
                self.pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def _sweep(self) -> None:
        from games import services

        rounds = 0
        while True:
            try:
                for code in await database_call(_due_tables, priority=BACKGROUND)():
                    self.kick(code)
                rounds += 1
                if rounds % PRESENCE_SWEEP_ROUNDS == 0:
                    # Sockets of a process that died never said goodbye: their people's grace
                    # starts here instead.
                    await database_call(services.sweep_presence, priority=BACKGROUND)()
            except asyncio.CancelledError:
                raise
            except DATABASE_ERRORS as e:
                # The database away (a restart): one line, and the next round tries again.
                log.warning("bot sweep: database unavailable (%s)", type(e).__name__)
            except Exception:  # noqa: BLE001
                log.exception("bot sweep failed")
            await asyncio.sleep(SWEEP_SECONDS)


def _due_tables(limit: int = 100) -> list[str]:
    """Tables with a bot move or a deadline (a turn timer, a player's grace) due now."""
    from django.db.models import Q

    from games.models import Table

    now = timezone.now()
    return [
        str(code)
        for code in Table.objects.filter(status=Table.Status.ACTIVE)
        .filter(Q(bot_due_at__lte=now) | Q(timer_due_at__lte=now))
        .values_list("code", flat=True)[:limit]
    ]


def _in_loop(loop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


_driver = Driver()


async def stop() -> None:
    await _driver.stop()


def ensure_started() -> None:
    _driver.ensure_started()


def schedule(code: str, due: datetime) -> None:
    _driver.schedule(code, due)


def _on_bot_move_due(sender, code: str, due: datetime, **kwargs) -> None:
    _driver.schedule(code, due)  # the driver of the moment (tests swap it)


signals.bot_move_due.connect(_on_bot_move_due, dispatch_uid="games.driver")


def kick(code: str) -> None:
    _driver.kick(code)
