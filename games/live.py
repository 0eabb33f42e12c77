"""The base of every live socket: the language of the page, and surviving a channel-layer
outage (``LayerOutageMixin``). The table's consumer and the site's lobby consumer build on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import logging
import queue
import weakref
from concurrent.futures import ThreadPoolExecutor

import channels_redis.core
import redis.exceptions
from asgiref.sync import SyncToAsync
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.db import OperationalError, close_old_connections, connections
from django.template.loader import render_to_string
from django.utils import translation

from cardsite.busy import DATABASE_ERRORS  # the database away (the pages answer it too)
from games import metrics, realtime

log = logging.getLogger(__name__)


# What the database thread does first when several calls wait for it: a person's action (its
# answer is what they wait for), then the boards that follow a change, then the bots' moves
# and the sweeps (paced anyway: a few milliseconds later is never seen).
URGENT, NORMAL, BACKGROUND = 0, 1, 2
_priority: contextvars.ContextVar[int] = contextvars.ContextVar("database_priority", default=NORMAL)


class _PriorityQueue(queue.PriorityQueue):
    """The database thread's queue of calls: by priority, then first come first served.

    A ``ThreadPoolExecutor`` puts its work items here (and ``None`` to wake its thread when it
    shuts down, which goes last); the priority is the caller's (``_priority``), read on the
    event loop's thread as the call is submitted."""

    def __init__(self) -> None:
        super().__init__()
        self._order = itertools.count()

    def put(self, item, block=True, timeout=None):
        rank = BACKGROUND + 1 if item is None else _priority.get()
        super().put((rank, next(self._order), item), block, timeout)

    def get(self, block=True, timeout=None):
        return super().get(block, timeout)[2]


class _PriorityExecutor(ThreadPoolExecutor):
    """One thread, as channels' executor for database calls, taking the most urgent call
    first."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="database")
        self._work_queue = _PriorityQueue()


# How often a call SQLite refused as locked is tried again before the error stands.
LOCKED_RETRIES = 3


def sqlite_locked(error: BaseException) -> bool:
    """SQLite's "database is locked" (or "busy"): the call may simply be tried again."""
    text = str(error).lower()
    return connections["default"].vendor == "sqlite" and ("locked" in text or "busy" in text)


class database_call(SyncToAsync):  # noqa: N801 - used like channels' database_sync_to_async
    """Channels' ``database_sync_to_async`` (old connections closed before and after each
    call), except that it keeps its thread's SQLite connection between calls, and that the
    most urgent call waiting goes first.

    Every socket's and the bot driver's database work runs on this one thread per process
    (``single_thread_executor``). With ``CONN_MAX_AGE=0`` (persistent connections leak under
    ASGI, whose requests run in fresh threads) channels' thread opened and closed a connection
    for every call, and on SQLite the opening (its schema read, the PRAGMAs) was a sixth of a
    live action's CPU. This one thread lives as long as the process: its SQLite connection
    stays open. A connection in error or left outside autocommit is still closed after the
    call (Django's ``close_old_connections`` checks that), and PostgreSQL's connections go
    back to their pool as before.

    ``priority``: ``URGENT`` for a person's action, ``BACKGROUND`` for the driver's bot moves
    and sweeps, ``NORMAL`` for the rest (the boards sockets draw after a change). Under load a
    person's move no longer waits behind every paced bot move and board queued before it.
    """

    single_thread_executor = _PriorityExecutor()

    def __init__(self, func, *, priority: int = NORMAL, **kwargs) -> None:
        super().__init__(func, **kwargs)
        self.priority = priority

    async def __call__(self, *args, **kwargs):
        token = _priority.set(self.priority)
        try:
            return await super().__call__(*args, **kwargs)
        finally:
            _priority.reset(token)

    def thread_handler(self, loop, *args, **kwargs):
        close_old_connections()
        realtime.serving(loop)  # notices after a commit go to this loop, not waited for
        try:
            for attempt in itertools.count(1):
                try:
                    return super().thread_handler(loop, *args, **kwargs)
                except OperationalError as e:
                    if attempt > LOCKED_RETRIES or not sqlite_locked(e):
                        raise
                    # SQLite said "database is locked" without waiting out its busy timeout
                    # (a write meeting another connection's commit made since this
                    # connection's read began: the review writer, a page's request). The
                    # call's transaction rolled back: it is tried again on a new connection
                    # rather than losing a move or closing the socket (findings 1.13).
                    metrics.database_error("sqlite_locked")
                    log.info("database locked, call tried again (%d)", attempt)
                    connections.close_all()
        finally:
            realtime.serving(None)
            for conn in connections.all(initialized_only=True):
                if conn.vendor == "sqlite":
                    conn.close_at = None  # not obsolete: this thread's next call uses it
            close_old_connections()


CLOSE_UNAUTHENTICATED = 4401
# Like HTTP 503: the server cannot serve this socket right now (its database is away). The
# page reconnects with a backoff. A server may only send 1000 or 3000-4999 (autobahn refuses
# 1011/1013 from the application), and 44xx are the refusals a page must not retry.
CLOSE_TRY_AGAIN = 4503

# What channels-redis raises while Redis is away or restarting: refused or reset connections,
# "Connection closed by server", a read that timed out, a server still loading.
LAYER_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)
# The database went away under a handler (PostgreSQL restarting): not a bug in the handler.

# Backoff of every retry against the layer: short at first (a restart takes a moment), never
# longer than RETRY_MAX between two tries.
RETRY_FIRST = 0.1
RETRY_MAX = 2.0
# group_send / group_discard give up after this many tries: a lost notice is healed by the
# resync after the outage, a stale group entry expires with the layer's group_expiry.
SHORT_TRIES = 3


class HandshakeGuard:
    """ASGI middleware around the socket's authentication: a database that is away while a
    socket opens (the session and the user are read before any consumer runs) refuses the
    socket as an open one is refused, accepted and closed with 4503 so that the page says
    "reconnecting" and tries again, instead of an HTTP 500 with "Exception inside
    application" in the log (findings 3.6)."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        accepted = False

        async def sending(message):
            nonlocal accepted
            accepted = accepted or message.get("type") == "websocket.accept"
            await send(message)

        try:
            return await self.inner(scope, receive, sending)
        except DATABASE_ERRORS as e:
            if accepted:
                raise  # the consumer's own handlers answer for an open socket
            metrics.database_error("handshake")
            log.warning("database unavailable opening %s: %s", scope.get("path"), e)
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})


def _backoff():
    delay = RETRY_FIRST
    while True:
        yield delay
        delay = min(delay * 2, RETRY_MAX)


class _Outage:
    """What an event loop (daphne has one per process) knows about the layer.

    With channels-redis all consumers on a loop read through one shared BZPOPMIN, so only
    one of them sees Redis go away; the others may find it back already and never notice
    that a restarted Redis forgot their groups. Whoever notices tells them all.
    """

    def __init__(self) -> None:
        self.consumers: weakref.WeakSet = weakref.WeakSet()
        self.ongoing = False

    @staticmethod
    def here() -> _Outage:
        loop = asyncio.get_running_loop()
        outage = _outages.get(loop)
        if outage is None:
            outage = _outages[loop] = _Outage()
        return outage

    async def lost(self, layer, error: BaseException) -> None:
        if not self.ongoing:
            self.ongoing = True
            log.warning(
                "channel layer unreachable (%s: %s): keeping %d socket(s) open, "
                "re-joining their groups once it answers",
                type(error).__name__,
                error,
                len(self.consumers),
            )
            await _drop_idle_connections(layer)
        for consumer in list(self.consumers):
            consumer._start_recovery()

    def over(self) -> None:
        if self.ongoing:
            self.ongoing = False
            log.warning("channel layer back: groups re-joined, sockets resynced")


_outages: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _Process:
    """This server process's live sockets, and whether it is draining: after a SIGTERM
    (``cardsite.shutdown``) it takes no new socket and ``/readyz`` says 503."""

    def __init__(self) -> None:
        self.sockets: weakref.WeakSet = weakref.WeakSet()
        self.draining = False


PROCESS = _Process()
metrics.count_sockets_from(lambda: PROCESS.sockets)


def draining() -> bool:
    return PROCESS.draining


def start_draining() -> None:
    PROCESS.draining = True


def live_sockets() -> int:
    """Consumers of this process still running (connecting, open, or finishing a handler)."""
    return len(PROCESS.sockets)


async def _drop_idle_connections(layer) -> None:
    """Disconnect the idle connections of channels-redis' pool on this loop.

    After a Redis restart the pool still holds connections to the old server: the next
    command on each fails once more ("Connection closed by server"), which would cost the
    next socket its group_add or a table its next notice. Idle ones only: a command in flight
    fails by itself and is retried. (channels-redis 4 keeps one pool per event loop in
    ``_layers[loop]._connections``; another layer has none of this and is left alone.)
    """
    per_loop = getattr(layer, "_layers", None)
    if not isinstance(per_loop, dict):
        return
    loop_layer = per_loop.get(asyncio.get_running_loop())
    for client in list(getattr(loop_layer, "_connections", {}).values()):
        with contextlib.suppress(Exception):
            await client.connection_pool.disconnect(inuse_connections=False)


async def _cancellable(coro):
    """Await ``coro`` in a task of its own, so that cancelling the caller always ends the wait.

    A consumer that ends cancels its pending ``receive``. When that cancellation lands while
    channels-redis is opening a Redis connection, redis-py's ``asyncio.wait_for`` around the
    handshake swallows it (Python 3.11, bpo-42130 – fixed in 3.12) and the receive goes on
    with its blocking pops for good: the consumer never finishes, and daphne, which waits for
    every application on SIGTERM, never exits. So the caller stops waiting at once, and the
    task is cancelled again until it has ended.
    """
    task = asyncio.ensure_future(coro)
    try:
        await asyncio.wait([task])
    except asyncio.CancelledError:
        _cancel_until_done(task)
        raise
    return task.result()


def _cancel_until_done(task: asyncio.Future) -> None:
    if not task.done():
        task.cancel()
        asyncio.get_running_loop().call_later(0.1, _cancel_until_done, task)


class KeptLayer:
    """A consumer's view of the channel layer that does not fail while the layer is away.

    ``receive`` waits the outage out (retrying with backoff), ``group_add`` remembers the
    group and leaves the joining to the recovery, ``group_discard`` and ``group_send`` retry a
    few times and then let it be. Anything else goes straight to the real layer.
    """

    def __init__(self, layer, lost) -> None:
        self.inner = layer
        self.joined: set[str] = set()  # the groups to be in, joined or to join after an outage
        self._lost = lost

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def receive(self, channel):
        delays = _backoff()
        while True:
            try:
                return await _cancellable(self.inner.receive(channel))
            except LAYER_ERRORS as e:
                metrics.layer_error("receive")
                await self._lost(e)
            await asyncio.sleep(next(delays))

    async def group_add(self, group, channel):
        self.joined.add(group)
        try:
            await self.inner.group_add(group, channel)
        except LAYER_ERRORS as e:
            metrics.layer_error("group_add")
            await self._lost(e)  # the recovery joins it once the layer answers

    async def group_discard(self, group, channel):
        self.joined.discard(group)
        await self._a_few_times("group_discard", group, channel)

    async def group_send(self, group, message):
        await self._a_few_times("group_send", group, message)

    async def _a_few_times(self, method, *args):
        delays = _backoff()
        for attempt in range(SHORT_TRIES):
            try:
                return await getattr(self.inner, method)(*args)
            except LAYER_ERRORS as e:
                metrics.layer_error(method)
                if attempt == SHORT_TRIES - 1:
                    log.warning("%s%s failed %d times, giving up: %s", method, args, attempt + 1, e)
                    await self._lost(e)
                    return None
            await asyncio.sleep(next(delays))
        return None


class RedisChannelLayer(channels_redis.core.RedisChannelLayer):
    """The Redis channel layer, read so that a socket that closes loses no other socket's message.

    channels-redis reads all of a process's channels from one Redis list: whichever consumer's
    ``receive`` holds its lock pops the next message with a blocking pop and hands it to the
    channel it names. A consumer that ends has its pending ``receive`` cancelled; when that
    lands while the pop is answered (the message already taken from Redis, the answer not yet
    read), the message is gone. It was another socket's: a board that never learnt of a move
    until the next one (seen as a test's page that missed a seat going away right as the other
    person's socket closed, about one run in five; tests/site/test_channel_layer.py makes it
    happen on purpose).

    Here one reader of its own, which no consumer's end cancels, pops the process's messages
    and files each under its channel; a consumer's ``receive`` only waits for its own channel to
    have one, and its cancellation stops nothing but that wait.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._reader: asyncio.Task | None = None  # popping the process's next message

    async def receive(self, channel):
        if "!" not in channel:  # a channel of its own in Redis, read directly
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        waiting = self.receive_buffer[channel]
        try:
            while waiting.empty():
                reader = self._reading(self.non_local_name(channel))
                got = asyncio.ensure_future(waiting.get())
                try:
                    await asyncio.wait([got, reader], return_when=asyncio.FIRST_COMPLETED)
                finally:
                    got.cancel()
                if got.done() and not got.cancelled():
                    return got.result()
                if reader.done() and not reader.cancelled() and reader.exception():
                    raise reader.exception()  # the layer is away: the caller's recovery
            return waiting.get_nowait()
        except asyncio.CancelledError:
            # The consumer ends: its channel is read no more.
            self.receive_buffer.pop(channel, None)
            raise
        finally:
            if channel in self.receive_buffer and waiting.empty():
                del self.receive_buffer[channel]

    def _reading(self, process_channel: str) -> asyncio.Task:
        """The reader's pop under way, or a new one once the last has filed its message."""
        loop = asyncio.get_running_loop()
        reader = self._reader
        if reader is None or reader.done() or reader.get_loop() is not loop:
            reader = self._reader = loop.create_task(self._read_one(process_channel))
            # Failed with nobody waiting (every consumer between two receives): the next
            # receive starts another; the error is not "never retrieved".
            reader.add_done_callback(lambda t: t.cancelled() or t.exception())
        return reader

    async def _read_one(self, process_channel: str) -> None:
        # Cancellable for good: redis-py may swallow a cancel that lands in its blocking pop,
        # which then went on for ever (an event loop that closes waits for it).
        channels, message = await _cancellable(self.receive_single(process_channel))
        for channel in channels if isinstance(channels, list) else [channels]:
            self.receive_buffer[channel].put_nowait(message)


def _sent_while_open(send):
    """Daphne's ``send``, which drops what is sent after the page closed the socket: a board
    finished on the database thread while the page went away was sent to a protocol that
    autobahn had closed but daphne not yet marked gone, and the ``Disconnected`` it raised
    ended the handler with "Exception inside application" (seen under loadbench). The
    socket's disconnect comes next, as it would have."""

    async def sending(message):
        try:
            await send(message)
        except Disconnected:
            log.info("sent after the socket closed: dropped")

    return sending


class LayerOutageMixin:
    """Keeps the socket open when the channel layer goes away, and whole when it is back.

    Channels reads a consumer's channel with ``await_many_dispatch``: an exception from the
    layer's ``receive`` ends the consumer, and daphne closes the socket with 1011. With
    channels-redis that is what every socket of a process gets the moment Redis restarts.
    Here the consumer talks to a ``KeptLayer`` instead, and an outage seen anywhere in the
    process starts, for every live consumer, a recovery: re-join its groups (a restarted
    Redis forgot them) with backoff until the layer answers, then ``layer_restored()``, where
    a consumer catches up on the notices lost meanwhile.

    A database error under a handler ends in ``database_unavailable()``: by default a close
    with CLOSE_TRY_AGAIN, so the page comes back once the database does.
    """

    _recovery: asyncio.Task | None = None
    socket_kind = "other"  # the metrics' label for this consumer's sockets

    async def __call__(self, scope, receive, send):
        # channels.consumer.AsyncConsumer.__call__ (channels 4.3), reading through a KeptLayer.
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.base_send = _sent_while_open(send)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_layer = KeptLayer(self.channel_layer, self._layer_lost)
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = lambda: self.channel_layer.receive(self.channel_name)
            sources.append(self.channel_receive)
        outage = _Outage.here()
        outage.consumers.add(self)
        PROCESS.sockets.add(self)
        try:
            await await_many_dispatch(sources, self.dispatch)
        except StopConsumer:
            pass
        finally:
            PROCESS.sockets.discard(self)
            outage.consumers.discard(self)
            if self._recovery is not None:
                self._recovery.cancel()

    async def websocket_connect(self, message):
        if PROCESS.draining:
            # This process is shutting down: refuse the handshake (the page sees 1006, which the
            # htmx extension retries) so the socket opens on another process.
            await self.close()
            return
        await super().websocket_connect(message)

    async def dispatch(self, message):
        # channels.consumer.AsyncConsumer.dispatch, without its ``aclose_old_connections()``
        # before every handler: a hop to a thread of its own for each message (a frame, every
        # group notice), to close that thread's connections, which no handler here uses: every
        # database call goes through ``database_call``, which closes its own thread's old ones.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except DATABASE_ERRORS as e:
            metrics.database_error(self.socket_kind)
            log.warning(
                "database unavailable in %s on %s: %s", message.get("type"), self.scope["path"], e
            )
            await self.database_unavailable()

    async def database_unavailable(self):
        await self.close(code=CLOSE_TRY_AGAIN)

    async def layer_restored(self):
        """The layer answers again and the groups are re-joined: catch up (notices sent
        during the outage are lost)."""

    # -- the recovery

    async def _layer_lost(self, error: BaseException) -> None:
        await _Outage.here().lost(self.channel_layer.inner, error)

    def _start_recovery(self) -> None:
        if not self.channel_layer.joined:
            return  # in no group (yet): nothing was lost, its group_add reports for itself
        if self._recovery is None or self._recovery.done():
            self._recovery = asyncio.get_running_loop().create_task(self._recover())

    async def _recover(self) -> None:
        layer = self.channel_layer
        for delay in _backoff():
            await asyncio.sleep(delay)
            try:
                for group in list(layer.joined):
                    await layer.inner.group_add(group, self.channel_name)
            except LAYER_ERRORS:
                metrics.layer_error("rejoin")
                continue
            break
        _Outage.here().over()
        try:
            await self.layer_restored()
        except DATABASE_ERRORS as e:
            metrics.database_error("resync")
            log.warning("database unavailable resyncing %s: %s", self.scope["path"], e)
            await self.database_unavailable()
        except Exception:  # noqa: BLE001 - a task's error would otherwise go unseen
            log.exception("resyncing %s after a channel-layer outage failed", self.scope["path"])


class LocalizedConsumerMixin:
    """Renders in the language named by the socket's URL (``/ws/<lang>/…``)."""

    def language(self) -> str:
        lang = self.scope["url_route"]["kwargs"].get("lang")
        if lang:
            return lang
        # The bare form (/ws/tables/<code>/) may name it in the query string: ?lang=de.
        from urllib.parse import parse_qs

        query = parse_qs(self.scope.get("query_string", b"").decode())
        lang = (query.get("lang") or ["en"])[0]
        return lang if lang in ("de", "en") else "en"

    def render(self, template: str, context: dict | None = None) -> str:
        with translation.override(self.language()):
            return render_to_string(template, {"user": self.scope.get("user"), **(context or {})})
