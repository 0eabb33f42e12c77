"""Where a human action's time goes on the live side, in this process (``manage.py
liveprofile``).

A human action is what a socket's server does for one move of a person at a table with
computer players: the move's frame handled (the transaction with the bots' quick replies,
the answer's board, and the replies on their way drawn ahead with it where the person may
show them at once), then each reply left drawn as it shows at its paced time, the way
``TableConsumer._draw_next`` does (from this process's copy of the table, a read only where
the copy does not serve). The clock is the command's own: the paced times pass at once,
and nothing waits.

In the closed regime (``--regime closed``, ``loadbench``'s closed loop: no pacing) the bots'
replies are applied in the move's own transaction and shown with its answer: one board a
human action.

What it leaves out is what happens outside this process's Python: the WebSocket's framing
and compression, the event loop's hops, the layer's network. ``loadbench`` measures those
with the rest, against the bare consumer; this says how the share of the Python is split.
As in a daphne process (``cardsite/asgi.py``), what was loaded before the runs is frozen out
of the collector's full passes, for the process's life: else each pass walks it all, and
its time is charged to whichever function made the object that set it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import gc
import logging
import os
import pstats
import random
import statistics
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from unittest import mock

from django.contrib.auth import get_user_model
from django.utils import timezone

# The parts of a human action, each the inclusive time of the functions named (a part may
# hold another: the bots choose inside the move's transaction). (module, function) pairs.
PARTS = {
    "the move's transaction (lock, rules, log, save; the bots' replies in it)": [
        ("games/services/moves.py", "submit_action"),
    ],
    "  of it: the bots choosing": [
        ("games/services/moves.py", "_decide"),
        ("games/services/moves.py", "_choose"),
    ],
    # What one viewer sees of the table as shown (``look`` reads it and calls this; a move's
    # answer and the replies drawn ahead call it on the table in hand).
    "reading the table (the read model)": [("games/services/reading.py", "board")],
    "the presenter's context": [("games/views_live.py", "board_context")],
    # A board drawn whole (its template), or as the parts whose arguments changed.
    "the board's drawing (the whole template, or the parts)": [
        ("games/views_live.py", "board_html"),
        ("games/views_live.py", "_patch"),
    ],
    "the frame (leaning, the patch against the last)": [
        ("games/frames.py", "lean"),
        ("games/frames.py", "message"),
    ],
    "  of it: the notices after commit": [("games/realtime.py", "send_to_group")],
}


@dataclass
class Result:
    game: str
    level: str
    regime: str  # "human" (the bots paced, each reply drawn at its time) or "closed"
    actions: int
    cpu_ms: list[float]  # the median CPU ms per human action of each repeat
    boards: float  # boards drawn per human action
    shares: dict[str, float]  # part -> share of the profiled CPU
    profiled_ms: float  # CPU ms per human action under the profiler
    top: list[tuple[str, float]]  # the functions of most own time: name, share
    # Python function calls per human action, from the profiled run: a count, steady where
    # the machine's speed is not (a shared machine's CPU times vary by a third run to run).
    calls: float = 0.0


class _Clock:
    """``timezone.now`` for the run: moved on by hand, so paced replies show at once."""

    def __init__(self) -> None:
        self.at = datetime.now(tz=UTC)

    def now(self) -> datetime:
        return self.at

    def to(self, epoch: float) -> None:
        self.at = max(self.at, datetime.fromtimestamp(epoch, tz=UTC))


def _human_actions(game: str, level: str, n: int, profile: cProfile.Profile | None, users):
    """CPU ms of each of ``n`` human actions, and the boards each drew."""
    from games import frames, realtime, services, views_live
    from games.registry import table_game

    gspec = table_game(game)
    engine = gspec.engine
    clock = _Clock()
    # Notices after a commit are handed to an event loop, as daphne's database thread hands
    # them to its loop (``realtime.serving``), not sent and waited for here.
    loop = asyncio.new_event_loop()
    serving = threading.Thread(target=loop.run_forever, daemon=True)
    serving.start()
    realtime.serving(loop)
    user = get_user_model().objects.create_user(f"liveprofile-{uuid.uuid4().hex[:12]}")
    users.append(user)
    times, boards = [], []
    # The same deals every run (the tables' seeds drawn from a seeded generator): the same
    # moves, so two versions of the code are compared on the same work.
    deals = random.Random(f"liveprofile:{game}:{n}")
    with (
        mock.patch.object(timezone, "now", clock.now),
        mock.patch("games.services.seating._seed", lambda: deals.getrandbits(128)),
    ):
        table = services.create_table(user, game, level)
        code = str(table.code)
        page = frames.Frames()
        rendered = -1
        for _ in range(n * 50):
            if len(times) == n:
                break
            clock.at += timedelta(seconds=60)  # a person's pace: everything on its way shows
            services.run_bots(code)
            board = services.look(code, user)
            state = engine.from_json(board.table.state)
            if engine.hand_over(state):
                try:
                    services.start_next_hand(code, user, board.version)
                except services.Refused:  # the match is over: another table
                    code = str(services.create_table(user, game, level).code)
                    page, rendered = frames.Frames(), -1
                continue
            if 0 not in engine.to_move(state):
                continue
            move = engine.legal_actions(state, 0)[0]
            data = {**gspec.frame_for(move), "version": str(board.version)}
            drawn = 0
            start = time.process_time()
            if profile:
                profile.enable()
            frame = views_live.handle(code, user, "en", data, game, shown=rendered, seen=page.seen)
            while frame is not None:
                if frame.html or frame.parts is not None:
                    page.message(frame)
                    drawn += 1
                rendered = max(rendered, frame.version)
                steps = frame.ahead() if frame.ahead is not None else ()
                if steps:  # the replies on their way, drawn ahead and sent after it
                    page.ahead(steps, clock.now().timestamp())
                    drawn += len(steps)
                    frame = steps[-1][1]
                    rendered = max(rendered, frame.version)
                if frame.due is None:
                    break
                clock.to(frame.due)  # the next reply shows: drawn as the socket does
                frame = views_live.drawn(
                    code, user, "en", rendered, seen=page.seen
                ) or views_live.snapshot(code, user, "en", since=rendered, seen=page.seen)
            if profile:
                profile.disable()
            times.append((time.process_time() - start) * 1000)
            boards.append(drawn)
    realtime.serving(None)
    loop.call_soon_threadsafe(loop.stop)
    serving.join()
    loop.close()
    return times, boards


def _shares(profile: cProfile.Profile, top: int) -> tuple[dict[str, float], float, list, int]:
    stats = pstats.Stats(profile).stats  # (file, line, function) -> (cc, nc, tt, ct, callers)
    total = sum(tt for (_cc, _nc, tt, _ct, _callers) in stats.values())
    calls = sum(nc for (_cc, nc, _tt, _ct, _callers) in stats.values())
    own = sorted(((v[2], k) for k, v in stats.items()), reverse=True)[:top]
    tops = [(f"{_short(path)}:{line} {name}", tt / total) for tt, (path, line, name) in own]
    shares = {}
    for part, functions in PARTS.items():
        inclusive = sum(
            ct
            for (path, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.items()
            for module, function in functions
            if name == function and path.endswith(module)
        )
        shares[part] = inclusive / total if total else 0.0
    return shares, total, tops, calls


def _short(path: str) -> str:
    for marker, shown in (
        ("site-packages/", ""),
        ("/games/", "games/"),
        ("/cardsite/", "cardsite/"),
    ):
        if marker in path:
            return shown + path.split(marker, 1)[1]
    return path.rsplit("/", 1)[-1]


@contextlib.contextmanager
def _logs_to_nowhere():
    """The log lines are made and written as in a server (their cost counts), into nothing."""
    loggers = [logging.getLogger(), *logging.root.manager.loggerDict.values()]
    handlers = {
        h
        for lg in loggers
        for h in getattr(lg, "handlers", ())
        if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)
    }
    with open(os.devnull, "w") as nowhere:
        streams = {h: h.setStream(nowhere) for h in handlers}
        try:
            yield
        finally:
            for handler, stream in streams.items():
                handler.setStream(stream)


# The bots paced as in play (human) or not at all (closed), and how the report says it.
REGIME_WORDS = {"human": "the bots paced", "closed": "closed loop (no pacing)"}
REGIMES = tuple(REGIME_WORDS)


def run(
    game: str,
    level: str = "normal",
    actions: int = 40,
    repeat: int = 3,
    top: int = 12,
    regime: str = "human",
) -> Result:
    from games import services

    if regime not in REGIMES:
        raise ValueError(f"regime {regime!r}: one of {REGIMES}")
    users = []
    try:
        with _logs_to_nowhere(), services.pacing(regime == "human"):
            _human_actions(game, level, 5, None, users)  # warm: templates, caches, imports
            if not gc.get_freeze_count():  # once a process, for its life (as daphne's)
                gc.collect()
                gc.freeze()
            medians, boards = [], []
            for _ in range(repeat):
                times, drawn = _human_actions(game, level, actions, None, users)
                medians.append(statistics.median(times))
                boards.extend(drawn)
            profile = cProfile.Profile()
            times, _ = _human_actions(game, level, actions, profile, users)
        shares, total, tops, calls = _shares(profile, top)
        return Result(
            game,
            level,
            regime,
            actions,
            medians,
            statistics.mean(boards),
            shares,
            total * 1000 / max(1, len(times)),
            tops,
            calls / max(1, len(times)),
        )
    finally:
        from games.models import Table

        Table.objects.filter(seats__user__in=users).delete()
        for user in users:
            user.delete()


def report(result: Result) -> str:
    lines = [
        f"{result.game} at {result.level}, {REGIME_WORDS[result.regime]}: "
        f"{result.actions} human actions a run, "
        f"{result.boards:.2f} boards drawn each",
        "CPU ms per human action, the median of each run: "
        + ", ".join(f"{m:.2f}" for m in result.cpu_ms)
        + f"  -> median {statistics.median(result.cpu_ms):.2f}",
        f"function calls per human action: {result.calls:,.0f}",
        f"under the profiler: {result.profiled_ms:.2f} ms per human action, of which",
    ]
    for part, share in result.shares.items():
        ms = share * result.profiled_ms
        lines.append(f"  {share * 100:5.1f} %  {ms:5.2f} ms  {part}")
    accounted = sum(s for p, s in result.shares.items() if not p.startswith(" "))
    rest = max(0.0, 1 - accounted) * 100
    lines.append(f"  {rest:5.1f} %  {rest * result.profiled_ms / 100:5.2f} ms  the rest")
    if result.top:
        lines.append("the functions of most own time:")
        lines += [f"  {share * 100:5.1f} %  {name}" for name, share in result.top]
    return "\n".join(lines)
