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
from django.core.exceptions import SynchronousOnlyOperation
from django.utils.translation import gettext_lazy as _

from games import driver, frames, metrics, realtime, services, views_live
from games.live import (
    CLOSE_TRY_AGAIN,
    CLOSE_UNAUTHENTICATED,
    URGENT,
    LayerOutageMixin,
    LocalizedConsumerMixin,
    database_call,
)
from games.sockets import Allowance, Drawing

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# A real frame (a move, its cards and htmx's headers) is well under 2 KB: a larger one is
# refused before it is parsed, so a megabyte of text costs a length check, not a parse.
MAX_FRAME_CHARS = 16 * 1024


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
        self.drawing = Drawing()  # the boards sent, and those to send
        self.allowance = Allowance()  # a person's pace of frames
        self.frames = frames.Frames()  # what this page shows: later frames send what changed
        self.open_parts = frozenset()  # the parts of the board the page has open (a round's log)
        self.game = None  # the table's game, once this socket is accepted to see it
        self.next_draw = None  # the timer that draws the next move on its way
        self.ahead_until = 0.0  # when the last move sent ahead shows (``_send_ahead``)
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
        kind = data.get("action")
        own = self.OWN_FRAMES.get(kind) if isinstance(kind, str) else None
        if own is not None:
            await own(self, data)
            return
        refusal = self.allowance.action_refused(kind)
        if refusal:
            # Refused here, without the database and without a board (the page keeps its own).
            metrics.refused(self.game, refusal)
            await self.send(text_data=views_live.refusal_only(refusal, self.language()))
            return
        frame = await database_call(views_live.handle, priority=self.allowance.priority())(
            self.code,
            self.scope["user"],
            self.language(),
            data,
            self.game,
            received,
            opened=self.open_parts,
            shown=self.drawing.rendered,
            seen=self.frames.seen,
        )
        self.allowance.answered(frame.refused)
        await self._send_frame(frame)
        metrics.action_latency(self.game, time.perf_counter() - received)

    async def _resync(self, data):
        # The page missed a frame (its board is not the one a patch was made against): the
        # whole board again, and patches from there. Rate-limited like a read.
        if self.allowance.reads.take():
            self.frames.reset()
            frame = await database_call(views_live.snapshot)(
                self.code, self.scope["user"], self.language(), opened=self.open_parts
            )
            await self._send_frame(frame)

    async def _open(self, data):
        # The page opened (or closed) a part of the board that frames carry only while it is
        # open: the board again with it (or without), as a patch. Rate-limited.
        opened = views_live.opened_after(self.open_parts, data)
        if opened is not None and self.allowance.reads.take():
            self.open_parts = opened
            await self._draw_again()

    async def _read(self, data):
        # A read request (what the selection is as a play): answered with one line, and only
        # as often as a person selects cards; beyond that, dropped.
        if self.allowance.reads.take():
            html = await database_call(views_live.read, priority=URGENT)(
                self.code, self.scope["user"], self.language(), data
            )
            if html and not getattr(self, "gone", False):
                await self.send(text_data=html)

    # The frames the socket answers itself; every other goes to ``views_live.handle``.
    OWN_FRAMES = {"resync": _resync, "open": _open, "read": _read}

    async def table_changed(self, event):
        if self.game is None:
            return  # refused (a notice that came while it was asking): it never sees the table
        if not self.drawing.notice(event.get("version", 0), event.get("refresh", False)):
            return  # seen already, or coalesced into the draw under way
        try:
            while (read := self.drawing.next_read()) is not None:
                frame = await database_call(views_live.snapshot)(
                    self.code,
                    self.scope["user"],
                    self.language(),
                    since=read.since,
                    committed=read.committed,
                    opened=self.open_parts,
                    seen=self.frames.seen,
                )
                await self._send_frame(frame)
        finally:
            self.drawing.stopped()

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
        if frame.whole:
            self.frames.reset()
        if frame.html or frame.parts is not None:
            await self.send(text_data=self.frames.message(frame))
        self.drawing.sent(frame.version)
        if frame.ahead is not None:
            # The replies on their way, drawn after the answer has gone out (a timer of no
            # delay runs after the socket's pending writes): the page shows each at its time.
            asyncio.get_running_loop().call_later(0, self._ahead_due, frame)
        else:
            self._draw_at(frame.due)

    def _ahead_due(self, frame) -> None:
        if not getattr(self, "gone", False):
            # Held, so the task is not collected before it has run.
            self.draw_task = asyncio.ensure_future(self._send_ahead(frame))

    async def _send_ahead(self, frame) -> None:
        """The computer players' replies on their way after the person's move ``frame``
        answered, each drawn as it will show (``views_live._ahead``, from the table as the
        move left it, here: no await until they are sent, so nothing draws meanwhile), in
        one message; the page shows each at its time. If they cannot be drawn here, each is
        drawn at its time, as for every other socket."""
        try:
            steps = frame.ahead()
        except SynchronousOnlyOperation:
            steps = ()  # something of the boards is not in the copy: the paced draws read it
        except Exception:  # noqa: BLE001 - a task of its own; the paced draws show them
            log.exception("could not draw table %s's moves ahead", self.code)
            steps = ()
        if steps and not getattr(self, "gone", False):
            await self.send(text_data=self.frames.ahead(steps, time.time()))
            frame = steps[-1][1]
            self.drawing.sent(frame.version)
            self.ahead_until = steps[-1][0]
            if self.next_draw is not None:  # set by a notice's draw meanwhile: covered
                self.next_draw.cancel()
                self.next_draw = None
        self._draw_at(frame.due)

    def _draw_at(self, due: float | None) -> None:
        """Draw the board again when the next of the moves on their way shows (``due``,
        seconds since the epoch): the bots' replies applied with a move show one by one, at
        their paced times, without a notice each."""
        if due is None or due <= self.ahead_until or getattr(self, "gone", False):
            return  # nothing on its way, or the page has it already (``_send_ahead``)
        if self.next_draw is not None:
            self.next_draw.cancel()
        delay = Drawing.delay(due, time.time())
        self.next_draw = asyncio.get_running_loop().call_later(delay, self._draw_due)

    def _draw_due(self) -> None:
        self.next_draw = None
        if not getattr(self, "gone", False):
            # Held, so the task is not collected before it has run.
            self.draw_task = asyncio.ensure_future(self._draw_next())

    async def _draw_next(self) -> None:
        try:
            if not self.drawing.drawing:
                # From this process's copy, here: no hop to the database's thread and back
                # (nothing else can draw meanwhile: no await until it is sent).
                frame = views_live.drawn(
                    self.code,
                    self.scope["user"],
                    self.language(),
                    self.drawing.rendered,
                    self.open_parts,
                    self.frames.seen,
                )
                if frame is not None:
                    await self._send_frame(frame)
                    return
            # Else through the path a notice takes (coalesced with one, never overtaking
            # it), with its handling of a database that is away.
            await self.dispatch({"type": "table.changed", "version": self.drawing.rendered + 1})
        except Exception:  # a task of its own: nothing above it would say what went wrong
            log.exception("could not draw table %s's next move", self.code)

    async def _draw_again(self):
        """The board as it is now, even at a version this page has (its view of it changed):
        through the path a notice takes, so it never overtakes a newer frame."""
        await self.table_changed(
            {"type": "table.changed", "version": max(self.drawing.rendered, 0), "refresh": True}
        )

    # -- outages (LayerOutageMixin)

    async def layer_restored(self):
        # Notices sent while the layer was away are lost: render whatever moved meanwhile,
        # through the same coalescing path a notice takes.
        await self.table_changed(
            {"type": "table.changed", "version": self.drawing.rendered + 1, "refresh": True}
        )

    async def database_unavailable(self):
        # Say so (not a blank board, not a dead page), then let the page reconnect: the
        # connect snapshot makes it whole once the database is back.
        if getattr(self, "gone", False):
            return
        message = _("The table cannot be reached right now – reconnecting…")
        await self.send(text_data=self.render("games/_toast.html", {"message": message}))
        await self.close(code=CLOSE_TRY_AGAIN)
