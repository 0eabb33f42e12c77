"""The table's live channel: thin. Resolve the seat, hand work to the services, render this
viewer's own seat in this viewer's language.

Group notices carry only "changed, version N"; each consumer renders its own view, so a
private hand never passes through the channel layer.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from cardsite import realtime
from cardsite.consumers import CLOSE_UNAUTHENTICATED, LocalizedConsumerMixin
from games import driver, views_live

CLOSE_NOT_FOUND = 4404


class TableConsumer(LocalizedConsumerMixin, AsyncWebsocketConsumer):
    async def connect(self):
        await self.accept()
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.rendered = -1
        self.rendering = False
        self.pending = False
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.send(text_data=self.render("live/_login_required.html"))
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        frame = await database_sync_to_async(views_live.snapshot)(self.code, user, self.language())
        if frame is None:
            await self.send(
                text_data=self.render("games/_toast.html", {"message_code": "no_such_table"})
            )
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = realtime.table_group(self.code)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self._send_frame(frame)
        driver.ensure_started()
        driver.kick(self.code)  # resume a bot move that came due while nobody watched

    async def disconnect(self, code):
        self.gone = True  # a render still running for this socket must not send any more
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            data = json.loads(text_data or "")
            if not isinstance(data, dict):
                raise ValueError
        except (ValueError, TypeError):
            data = {"action": "__malformed__"}
        frame = await database_sync_to_async(views_live.handle)(
            self.code, self.scope["user"], self.language(), data
        )
        await self._send_frame(frame)

    async def table_changed(self, event):
        if event.get("version", 0) <= self.rendered:
            return  # this viewer has already seen that version
        if self.rendering:
            self.pending = True  # coalesce: render the newest state once the current one is out
            return
        self.rendering = True
        try:
            while True:
                self.pending = False
                frame = await database_sync_to_async(views_live.snapshot)(
                    self.code, self.scope["user"], self.language(), since=self.rendered
                )
                await self._send_frame(frame)
                if not self.pending:
                    break
        finally:
            self.rendering = False

    async def _send_frame(self, frame):
        if frame is None or getattr(self, "gone", False):
            return
        html, version = frame
        if html:
            await self.send(text_data=html)
        self.rendered = max(self.rendered, version)
