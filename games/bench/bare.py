"""The bare consumer ``loadbench`` measures the site against: the floor
of one live action.

Per message it does what every live action must do at the least: one ORM write through one
``database_call`` hop (the site's own), one ``group_send`` to the socket's own group (which comes
back to this consumer, as a table's notice comes back to the player who acted) and one small
HTML fragment rendered from a template. The route exists only in a daphne process started
with ``LOADBENCH_BARE=1`` (see ``cardsite/routing.py``): the site has no such endpoint.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template import Context, Template
from django.urls import re_path
from django.utils import timezone

from games import realtime
from games.live import database_call
from games.models import Table

# About the size of a hand of cards: a board, thirteen buttons, their labels.
FRAGMENT = Template(
    '<div id="board" class="bench" data-version="{{ version }}" data-phase="play" data-my-turn>'
    '<div class="hand">{% for c in cards %}'
    '<button class="hand__card is-playable" data-playable data-card="{{ c }}">{{ c }}</button>'
    "{% endfor %}</div></div>"
)
CARDS = [f"{rank}S" for rank in "23456789TJQKA"]


def touch(code: str) -> None:
    """The one write: a benchmark table's ``updated_at`` (its version and state stay as they are)."""
    Table.objects.filter(code=code).update(updated_at=timezone.now())


class BareConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.version = 0
        self.group = "bench." + realtime.table_group(self.code)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=self._frame())

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await database_call(touch)(self.code)
        self.version += 1
        await self.channel_layer.group_send(
            self.group, {"type": "bench.changed", "version": self.version}
        )
        await self.send(text_data=self._frame())

    async def bench_changed(self, event):
        pass  # the sender has answered already, as a table's consumer skips a seen version

    def _frame(self) -> str:
        return FRAGMENT.render(Context({"version": self.version, "cards": CARDS}))


websocket_urlpatterns = [
    re_path(r"^ws/bench/bare/(?P<code>[0-9a-f-]{36})/$", BareConsumer.as_asgi()),
]
