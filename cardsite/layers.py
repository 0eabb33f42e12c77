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

import asyncio

from channels_redis.core import RedisChannelLayer as _RedisChannelLayer


class RedisChannelLayer(_RedisChannelLayer):
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
        # The pop in a task of its own, cancelled again until it has ended: redis-py may
        # swallow a cancel that lands in its blocking pop, and the pop then goes on for
        # good (an event loop that closes waits for it forever).
        popping = asyncio.ensure_future(self.receive_single(process_channel))
        try:
            await asyncio.wait([popping])
        except asyncio.CancelledError:
            _cancel_until_done(popping)
            raise
        channels, message = popping.result()
        for channel in channels if isinstance(channels, list) else [channels]:
            self.receive_buffer[channel].put_nowait(message)


def _cancel_until_done(task: asyncio.Future) -> None:
    if not task.done():
        task.cancel()
        asyncio.get_running_loop().call_later(0.1, _cancel_until_done, task)
