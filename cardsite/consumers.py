"""The lobby's live channel: proves the path from browser to server and back.

It greets a signed-in player in the language of the page that opened it and pushes
lobby-wide notices. Anonymous sockets are accepted, invited to play (a game's button makes a
guest), and closed with 4401: a handshake refused before accept makes the htmx ws extension
retry forever.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer

from games import realtime
from games.live import (
    CLOSE_UNAUTHENTICATED,
    LayerOutageMixin,
    LocalizedConsumerMixin,
    database_call,
)


class LobbyConsumer(LayerOutageMixin, LocalizedConsumerMixin, AsyncWebsocketConsumer):
    socket_kind = "lobby"

    async def connect(self):
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.send(text_data=self.render("live/_login_required.html", {"lobby": True}))
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.group = realtime.lobby_group()
        await self.channel_layer.group_add(self.group, self.channel_name)
        # The open tables as of now, read after joining: a table opened or filled between the
        # page's render and the join would otherwise stay missing (or listed) until the next.
        await self.send(
            text_data=self.render("live/_status.html", {"online": True}) + await self._open_tables()
        )

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # The lobby takes no commands; a ping keeps proxies from timing the socket out.
        await self.send(text_data=self.render("live/_status.html", {"online": True}))

    async def lobby_tables(self, event):
        # The open tables changed: this socket's list, in its language.
        await self.send(text_data=await self._open_tables())

    async def _open_tables(self) -> str:
        from games.views_live import open_tables

        tables = await database_call(open_tables)()
        return self.render("games/_open_tables.html", {"open_tables": tables})

    async def lobby_notice(self, event):
        await self.send(text_data=self.render("live/_notice.html", {"kind": event.get("kind", "")}))

    async def layer_restored(self):
        # Lobby notices are news, not state: nothing to catch up; say the line is live.
        await self.send(text_data=self.render("live/_status.html", {"online": True}))
