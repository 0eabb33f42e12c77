"""Hand reviews: Hard looks at a person's own decisions in a finished hand.

A review is asked for from its page and kept with the hand (``HandReview``, one per hand and
seat). Its decisions are rebuilt from the record (``history.replay_steps``), each as what the
seat saw then (``games.bots.review.Decision``: the observation, never the hidden cards), and
weighed one by one in a worker process of its own: a single worker at the lowest CPU priority
(``SCHED_IDLE`` where the system has it, else nice 19), apart from the pool that thinks for
live Hard players, so a review never runs ahead of a live bot's move. Results come back to one
writer thread per process, which counts the progress the page shows and saves the review once
every decision is in.

A review whose process went away (a restart) stops making progress; asking for it again
after ``STALE_SECONDS`` without progress starts it again. A review that failed (the worker
died) is started again when its person asks for it again.
"""

from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from datetime import timedelta
from functools import partial

from django.db import IntegrityError, close_old_connections, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import history
from games.bots.review import Decision, lowest_priority, weigh
from games.models import Hand, HandReview, Table
from games.registry import table_game
from games.summary import summarize
from games.tables.common import Card

log = logging.getLogger(__name__)

STALE_SECONDS = 120
# A decision is shown as one Hard would have made differently from this loss on, in points.
NOTABLE = 1.0
# The costliest decisions listed first.
COSTLIEST = 3


def review_of(table: Table, number: int, seat: int, *, again: bool = False) -> HandReview | None:
    """The review of a finished hand for a seat, started if it is not there yet (or stalled,
    or ``again`` after a failure); None for a hand that is not finished."""
    hand = Hand.objects.filter(table=table, number=number, ended_at__isnull=False).first()
    if hand is None:
        return None
    try:
        with transaction.atomic():
            review, created = HandReview.objects.get_or_create(hand=hand, seat=seat)
    except IntegrityError:  # asked for twice at once: the other request started it
        return HandReview.objects.get(hand=hand, seat=seat)
    stalled = (
        review.status == HandReview.Status.QUEUED
        and review.updated_at < timezone.now() - timedelta(seconds=STALE_SECONDS)
    )
    failed_again = again and review.status == HandReview.Status.FAILED
    start = created
    if stalled or failed_again:
        # Whoever updates the row first starts it again: a second request finds it fresh.
        start = HandReview.objects.filter(pk=review.pk, updated_at=review.updated_at).update(
            status=HandReview.Status.QUEUED, done=0, updated_at=timezone.now()
        )
    if start:
        _start(review, table, number, seat)
        review.refresh_from_db()
    return review


def decisions_of(table: Table, number: int, seat: int, hand_id: int) -> list | None:
    """The person's decisions in a finished hand, each as (log seq, the position the page
    shows, the ``Decision`` Hard weighs: what the seat saw then); None when the hand cannot
    be rebuilt (the rules changed since)."""
    found: list = []
    if history.replay_steps(table, number, decisions=(seat, found)) is None:
        return None
    gspec = table_game(table.game)
    return [
        (
            seq,
            gspec.review_position(seen),
            Decision(
                table.game, seen, legal, taken, f"review:{hand_id}:{seq}", gspec.review_samples
            ),
        )
        for seq, seen, legal, taken in found
    ]


def _start(review: HandReview, table: Table, number: int, seat: int) -> None:
    tasks = decisions_of(table, number, seat, review.hand_id)
    if tasks is None:  # nothing trustworthy to weigh
        HandReview.objects.filter(pk=review.pk).update(status=HandReview.Status.FAILED)
        return
    HandReview.objects.filter(pk=review.pk).update(
        total=len(tasks), done=0, decisions=[], status=HandReview.Status.QUEUED
    )
    if not tasks:
        HandReview.objects.filter(pk=review.pk).update(status=HandReview.Status.DONE)
        return
    transaction.on_commit(partial(_queue.submit, review.pk, tasks))


class ReviewQueue:
    """One low-priority worker process, and one thread that writes what it finds."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.lock = threading.Lock()
        self.results: queue.Queue = queue.Queue()
        self.writer: threading.Thread | None = None
        self.pending = 0  # decisions submitted and not yet written
        self.idle = threading.Condition()

    def submit(self, review_id: int, tasks: list) -> None:
        job = {"id": review_id, "left": len(tasks), "out": [None] * len(tasks), "failed": False}
        pool = self._pool()
        with self.idle:
            self.pending += len(tasks)
        for i, (seq, position, decision) in enumerate(tasks):
            try:
                future = pool.submit(weigh, decision)
            except RuntimeError:  # the pool broke or shut down meanwhile
                future = Future()
                future.set_exception(RuntimeError("review worker gone"))
            future.add_done_callback(partial(self._done, job, i, seq, position))

    def _done(self, job: dict, i: int, seq: int, position: dict, future: Future) -> None:
        self.results.put((job, i, seq, position, future))

    def _pool(self) -> ProcessPoolExecutor:
        with self.lock:
            if self.pool is None or getattr(self.pool, "_broken", False):
                import multiprocessing

                self.pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=lowest_priority,
                )
            if self.writer is None or not self.writer.is_alive():
                self.writer = threading.Thread(
                    target=self._write, name="review-writer", daemon=True
                )
                self.writer.start()
            return self.pool

    def _write(self) -> None:
        while True:
            job, i, seq, position, future = self.results.get()
            try:
                _record(job, i, seq, position, future)
            except Exception:  # noqa: BLE001 - one review's trouble must not stop the others
                log.exception("saving review %s failed", job["id"])
            finally:
                close_old_connections()
                with self.idle:
                    self.pending -= 1
                    self.idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every decision submitted is written (tests, a process shutting down)."""
        with self.idle:
            return self.idle.wait_for(lambda: self.pending == 0, timeout)

    def shutdown(self) -> None:
        with self.lock:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _record(job: dict, i: int, seq: int, position: dict, future: Future) -> None:
    job["left"] -= 1
    try:
        weighed = future.result()
    except CancelledError:  # the process is stopping: start again when next asked for
        job["cancelled"] = True
        weighed = None
    except Exception:  # noqa: BLE001 - a worker that died or a decision that broke Hard
        if not job["failed"]:
            log.warning("review %s: a decision could not be weighed", job["id"], exc_info=True)
        job["failed"] = True
        weighed = None
    if weighed is not None:
        job["out"][i] = {"seq": seq, "position": position, **weighed}
    rows = HandReview.objects.filter(pk=job["id"])
    if job["left"] > 0:
        rows.update(done=F("done") + 1, updated_at=timezone.now())
        return
    if job.get("cancelled"):
        stale = timezone.now() - timedelta(seconds=STALE_SECONDS + 1)
        rows.update(status=HandReview.Status.QUEUED, updated_at=stale)
        return
    if job["failed"]:
        rows.update(status=HandReview.Status.FAILED, updated_at=timezone.now())
        return
    rows.update(
        done=F("total"),
        decisions=[d for d in job["out"] if d is not None],
        status=HandReview.Status.DONE,
        updated_at=timezone.now(),
    )


def context(table: Table, review: HandReview) -> dict:
    """The review page: progress while the worker weighs, then each decision beside Hard's."""
    summary = summarize(table)
    names = summary.names()
    gspec = table_game(table.game)
    decisions = []
    for n, d in enumerate(review.decisions, start=1):
        position = d["position"]
        differs = d["best"] != d["taken"] and d["loss"] >= NOTABLE
        decisions.append(
            {
                "number": n,
                "note": gspec.review_note(position, names),
                "hand": [Card(c) for c in position["hand"]],
                "table": [
                    {"name": names[t["seat"]]["name"], "cards": [Card(c) for c in t["cards"]]}
                    for t in position["table"]
                ],
                "taken": shown(d["taken"]),
                "best": shown(d["best"]),
                "differs": differs,
                "loss": d["loss"],
                "about": _points(d["loss"]),
            }
        )
    costly = sorted((d for d in decisions if d["differs"]), key=lambda d: -d["loss"])
    return {
        "table": summary,
        "review": review,
        "hand": review.hand,
        "rounds": gspec.plays_in_rounds,
        "running": review.status == HandReview.Status.QUEUED,
        "failed": review.status == HandReview.Status.FAILED,
        "decisions": decisions,
        "costliest": costly[:COSTLIEST],
        "differing": len(costly),
        "given_away": _points(sum(d["loss"] for d in costly)),
    }


def shown(action: dict) -> dict:
    """An action as a page shows it (a review's decision, the deal of the day's comparison):
    its cards, or its word (a pass, a bid, no exposure)."""
    if action.get("card"):
        return {"cards": [Card(action["card"])], "label": ""}
    if action.get("cards"):
        return {"cards": [Card(c) for c in action["cards"]], "label": ""}
    kind = action.get("type")
    if kind == "bid":
        value = action.get("value") or 0
        return {"cards": [], "label": _("Bid %(n)s") % {"n": value} if value else _("No bid")}
    if kind == "expose":
        return {"cards": [], "label": _("Expose nothing")}
    return {"cards": [], "label": pgettext("seat has passed", "Pass")}


def _points(value: float) -> str:
    """A number of points as the page says it: whole from 10 on, else to one decimal."""
    return f"{value:.0f}" if value >= 10 else number_format(value, 1)


_queue = ReviewQueue()


def shutdown() -> None:
    _queue.shutdown()


def wait_idle(timeout: float) -> bool:
    return _queue.wait_idle(timeout)
