"""Channel-layer group names, built in this one place, and sending a notice to a group."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def lobby_group() -> str:
    return "lobby"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def table_group(code: str) -> str:
    # Group names allow only ASCII letters, digits, hyphens, underscores and periods.
    return f"table.{code}"


# The event loop the current thread does work for (``games.live.database_call`` sets it in the
# database thread for each call), if any.
_serving = threading.local()
_in_flight: set[asyncio.Task] = set()


def serving(loop: asyncio.AbstractEventLoop | None) -> None:
    _serving.loop = loop


def send_to_group(group: str, message: dict, failed: Callable[[BaseException], None]) -> None:
    """Send ``message`` to ``group``; ``failed(error)`` if the layer refuses (it is away).

    In the thread that serves an event loop's database calls the send is handed to that loop
    and not waited for: waiting held the one database thread of the process until the loop
    got round to it, and every socket's work queues behind that thread. Notices of one table
    may then arrive out of order with Redis, which a socket takes as it is (a notice names the
    version, and a socket draws nothing older than it has drawn). Anywhere else (a command, a
    test without a loop) the send is waited for."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = getattr(_serving, "loop", None)
    if loop is None or loop.is_closed():
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception as e:  # noqa: BLE001 - the caller says what was lost
            failed(e)
        return

    async def send() -> None:
        try:
            await layer.group_send(group, message)
        except Exception as e:  # noqa: BLE001
            failed(e)

    def start() -> None:
        task = loop.create_task(send())
        _in_flight.add(task)  # a task nobody holds may be collected before it has run
        task.add_done_callback(_in_flight.discard)

    try:
        loop.call_soon_threadsafe(start, context=contextvars.Context())
    except RuntimeError as e:  # the loop closed meanwhile
        failed(e)
