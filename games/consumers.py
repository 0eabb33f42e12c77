"""The table's live channel: thin. Resolve the seat, hand work to the services, render this
viewer's own seat in this viewer's language.

Group notices carry only "changed, version N"; each consumer renders its own view, so a
private hand never passes through the channel layer.

Through a channel-layer outage the socket stays open (``LayerOutageMixin``) and catches up
afterwards; when the database is away the viewer is told so and the page reconnects.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games import driver, frames, metrics, realtime, services, views_live
from games.live import (
    CLOSE_TRY_AGAIN,
    CLOSE_UNAUTHENTICATED,
    NORMAL,
    URGENT,
    LayerOutageMixin,
    LocalizedConsumerMixin,
    database_call,
)

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# A real frame (a move, its cards and htmx's headers) is well under 2 KB: a larger one is
# refused before it is parsed, so a megabyte of text costs a length check, not a parse.
MAX_FRAME_CHARS = 16 * 1024


# Read requests per socket: a burst of this many, then this many per second.
READS_BURST, READS_PER_SECOND = 8, 4.0
# Hints per socket: each is a bot's choice and a whole board, at a person's priority. Enough
# to step through a dozen suggestions in a row; beyond that, a refusal, not a board.
HINTS_BURST, HINTS_PER_SECOND = 12, 4.0
# Moves and the table's commands per socket: a person plays a card or two a second, a held
# key sends one (table.js), browser tests at zero pause a few a second. A flood of refused
# moves drew a whole board each on the process's one database thread at a person's
# priority and slowed every table (findings 3.3: 20 sockets x 100 frames kept it busy 69 s).
# Beyond this, a refusal without a board.
MOVES_BURST, MOVES_PER_SECOND = 30, 10.0
# After this many refused moves in a row, a socket's moves wait behind the boards being
# drawn for everyone (NORMAL) instead of going first (URGENT): a person rarely has three
# refused in a row; a flood has nothing else. Its next applied move restores it.
REFUSED_BEFORE_DEMOTED = 3
# A move on its way is drawn this long after its time: never before it, whatever the timer's
# resolution (a draw that came too early finds nothing new and waits again).
DRAW_SLACK_SECONDS = 0.005


class TokenBucket:
    """A per-socket rate limit that costs no database trip."""

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def read_frame(text_data: str | None) -> dict:
    """A frame's JSON object, or a frame the handler refuses as not understood."""
    if text_data is None or len(text_data) > MAX_FRAME_CHARS:
        return {"action": "__malformed__"}  # a binary or an oversized frame
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        return {"action": "__malformed__"}
    return data if isinstance(data, dict) else {"action": "__malformed__"}


def table_code(scope) -> str | None:
    """The table code in the socket's path, canonically spelled (the table's group is named
    after it), or None if it is no table code at all."""
    try:
        return str(services.parse_code(scope["url_route"]["kwargs"]["code"]))
    except services.Refused:
        return None


class TableConsumer(LayerOutageMixin, LocalizedConsumerMixin, AsyncWebsocketConsumer):
    socket_kind = "table"

    async def connect(self):
        await self.accept()
        self.code = table_code(self.scope)
        self.rendered = -1
        self.rendering = False
        self.reads = TokenBucket(READS_BURST, READS_PER_SECOND)
        self.hints = TokenBucket(HINTS_BURST, HINTS_PER_SECOND)
        self.moves = TokenBucket(MOVES_BURST, MOVES_PER_SECOND)
        self.refused_in_row = 0  # moves refused one after another (REFUSED_BEFORE_DEMOTED)
        self.frames = frames.Frames()  # what this page shows: later frames send what changed
        self.pending = False
        self.notified = -1  # the newest version a notice named
        self.reread = False
        self.open_parts = frozenset()  # the parts of the board the page has open (a round's log)
        self.game = None  # the table's game, once this socket is accepted to see it
        self.next_draw = None  # the timer that draws the next move on its way
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.send(text_data=self.render("live/_login_required.html"))
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        opened = None
        if self.code is not None:  # a malformed code is refused like an unknown table
            # In the table's group before its first read: a move committed after the read is
            # announced to this socket. (Joined after it, a move in between went unannounced
            # and the page kept the older board until the next move.) Notices that arrive
            # meanwhile wait until this handler is done, and count only once it accepted;
            # a refused socket leaves the group as it disconnects.
            self.group = realtime.table_group(self.code)
            await self.channel_layer.group_add(self.group, self.channel_name)
            opened = await database_call(views_live.opening)(self.code, user, self.language())
        if opened is None:
            await self.send(
                text_data=self.render("games/_toast.html", {"message_code": "no_such_table"})
            )
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if opened.frame is None:
            await self.send(
                text_data=self.render("games/_toast.html", {"message_code": "no_watching"})
            )
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.game = opened.game  # the game, once: each move then saves reading it
        await self._send_frame(opened.frame)
        if opened.shared:  # a table for people: the others see this socket's person here
            await database_call(services.socket_opened)(self.code, user, self.channel_name)
            self.heartbeat = asyncio.get_running_loop().create_task(self._heartbeat())
        driver.ensure_started()
        driver.kick(self.code)  # resume a bot move that came due while nobody watched

    async def disconnect(self, code):
        self.gone = True  # a render still running for this socket must not send any more
        if getattr(self, "next_draw", None) is not None:
            self.next_draw.cancel()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "heartbeat", None) is not None:
            self.heartbeat.cancel()
            try:
                await database_call(services.socket_closed)(self.channel_name)
            except Exception:  # noqa: BLE001 - the row goes stale and the driver's sweep closes it
                log.warning("could not record that %s closed", self.channel_name)

    async def _heartbeat(self):
        while True:
            await asyncio.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)
            try:
                await database_call(services.heartbeat)(self.channel_name)
            except Exception:  # noqa: BLE001 - the next beat tries again
                log.warning("presence heartbeat failed for %s", self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        received = time.perf_counter()
        data = read_frame(text_data)
        if data.get("action") == "resync":
            # The page missed a frame (its board is not the one a patch was made against):
            # the whole board again, and patches from there. Rate-limited like a read.
            if self.reads.take():
                self.frames.reset()
                frame = await database_call(views_live.snapshot)(
                    self.code, self.scope["user"], self.language(), opened=self.open_parts
                )
                await self._send_frame(frame)
            return
        if data.get("action") == "open":
            # The page opened (or closed) a part of the board that frames carry only while it
            # is open: the board again with it (or without), as a patch. Rate-limited.
            opened = views_live.opened_after(self.open_parts, data)
            if opened is not None and self.reads.take():
                self.open_parts = opened
                await self._draw_again()
            return
        if data.get("action") == "read":
            # A read request (what the selection is as a play): answered with one line, and
            # only as often as a person selects cards; beyond that, dropped.
            if self.reads.take():
                html = await database_call(views_live.read, priority=URGENT)(
                    self.code, self.scope["user"], self.language(), data
                )
                if html and not getattr(self, "gone", False):
                    await self.send(text_data=html)
            return
        if data.get("action") == "hint" and not self.hints.take():
            # Refused here, without the database: the board stays as it is.
            metrics.refused(self.game, "slow_hints")
            await self.send(text_data=views_live.refusal_only("slow_hints", self.language()))
            return
        if data.get("action") != "hint" and not self.moves.take():
            # Refused here, without the database and without a board (the page keeps its own).
            metrics.refused(self.game, "slow_moves")
            await self.send(text_data=views_live.refusal_only("slow_moves", self.language()))
            return
        demoted = self.refused_in_row >= REFUSED_BEFORE_DEMOTED
        frame = await database_call(views_live.handle, priority=NORMAL if demoted else URGENT)(
            self.code,
            self.scope["user"],
            self.language(),
            data,
            self.game,
            received,
            opened=self.open_parts,
            shown=self.rendered,
        )
        refused = getattr(frame, "refused", False)
        self.refused_in_row = self.refused_in_row + 1 if refused else 0
        await self._send_frame(frame)
        metrics.action_latency(self.game, time.perf_counter() - received)

    async def table_changed(self, event):
        if self.game is None:
            return  # refused (a notice that came while it was asking): it never sees the table
        version = event.get("version", 0)
        if event.get("refresh"):
            self.rendered = min(self.rendered, version - 1)  # render it again
            self.reread = True  # what changed (presence) made no new version: read it
        if version <= self.rendered:
            return  # this viewer has already seen that version
        self.notified = max(self.notified, version)
        if self.rendering:
            self.pending = True  # coalesce: render the newest state once the current one is out
            return
        self.rendering = True
        try:
            while True:
                self.pending = False
                # The version the newest notice named: committed by this process, the table
                # as it committed is at hand and not read again (``committed_table``).
                committed = None if self.reread else self.notified
                # A change without a new version (presence) is drawn even when a render that
                # read the table before it has since sent that version.
                since = -1 if self.reread else self.rendered
                self.reread = False
                frame = await database_call(views_live.snapshot)(
                    self.code,
                    self.scope["user"],
                    self.language(),
                    since=since,
                    committed=committed,
                    opened=self.open_parts,
                )
                await self._send_frame(frame)
                if not self.pending:
                    break
        finally:
            self.rendering = False

    async def table_reaction(self, event):
        if self.game is None:
            return
        html = await database_call(views_live.reaction)(
            self.code, event.get("seat"), event.get("key"), self.language()
        )
        if html and not getattr(self, "gone", False):
            await self.send(text_data=html)

    async def _send_frame(self, frame):
        if frame is None or getattr(self, "gone", False):
            return
        html, version = frame
        if getattr(frame, "whole", False):
            self.frames.reset()
        if html:
            await self.send(text_data=self.frames.encode(html, version))
        self.rendered = max(self.rendered, version)
        self._draw_at(getattr(frame, "due", None))

    def _draw_at(self, due: float | None) -> None:
        """Draw the board again when the next of the moves on their way shows (``due``,
        seconds since the epoch): the bots' replies applied with a move show one by one, at
        their paced times, without a notice each."""
        if due is None or getattr(self, "gone", False):
            return
        if self.next_draw is not None:
            self.next_draw.cancel()
        delay = max(0.0, due - time.time()) + DRAW_SLACK_SECONDS
        self.next_draw = asyncio.get_running_loop().call_later(delay, self._draw_due)

    def _draw_due(self) -> None:
        self.next_draw = None
        if not getattr(self, "gone", False):
            # Held, so the task is not collected before it has run.
            self.drawing = asyncio.ensure_future(self._draw_next())

    async def _draw_next(self) -> None:
        try:
            if not self.rendering:
                # From this process's copy, here: no hop to the database's thread and back
                # (nothing else can draw meanwhile: no await until it is sent).
                frame = views_live.drawn(
                    self.code, self.scope["user"], self.language(), self.rendered, self.open_parts
                )
                if frame is not None:
                    await self._send_frame(frame)
                    return
            # Else through the path a notice takes (coalesced with one, never overtaking
            # it), with its handling of a database that is away.
            await self.dispatch({"type": "table.changed", "version": self.rendered + 1})
        except Exception:  # a task of its own: nothing above it would say what went wrong
            log.exception("could not draw table %s's next move", self.code)

    async def _draw_again(self):
        """The board as it is now, even at a version this page has (its view of it changed):
        through the path a notice takes, so it never overtakes a newer frame."""
        await self.table_changed(
            {"type": "table.changed", "version": max(self.rendered, 0), "refresh": True}
        )

    # -- outages (LayerOutageMixin)

    async def layer_restored(self):
        # Notices sent while the layer was away are lost: render whatever moved meanwhile,
        # through the same coalescing path a notice takes.
        await self.table_changed(
            {"type": "table.changed", "version": self.rendered + 1, "refresh": True}
        )

    async def database_unavailable(self):
        # Say so (not a blank board, not a dead page), then let the page reconnect: the
        # connect snapshot makes it whole once the database is back.
        if getattr(self, "gone", False):
            return
        message = _("The table cannot be reached right now – reconnecting…")
        await self.send(text_data=self.render("games/_toast.html", {"message": message}))
        await self.close(code=CLOSE_TRY_AGAIN)
