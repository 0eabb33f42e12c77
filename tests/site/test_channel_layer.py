"""The Redis channel layer loses no socket's message when another socket of the process ends
(games.live.RedisChannelLayer). On the PostgreSQL + Redis pass (REDIS_URL set) only."""

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL, reason="the Redis layer (set REDIS_URL=redis://…)"
)

ROUNDS = 60


async def test_a_socket_that_ends_as_a_message_arrives_takes_no_other_sockets_message():
    """Ending's cancel lands at moments spread over the message's way to Redis and back. With
    channels-redis's own reading, the cancelled receive held the process's pop and took the
    other socket's message with it in a few rounds of these (2 of 30 on this machine)."""
    layer = get_channel_layer()
    lost = []
    for n in range(ROUNDS):
        ending, staying = await layer.new_channel(), await layer.new_channel()
        first = asyncio.ensure_future(layer.receive(ending))
        await asyncio.sleep(0.02)  # it pops for the process, blocked in Redis
        second = asyncio.ensure_future(layer.receive(staying))
        await asyncio.sleep(0.005)
        sent = asyncio.ensure_future(layer.send(staying, {"type": "note", "n": n}))
        await asyncio.sleep((n % 6) * 0.0005)
        first.cancel()  # its socket ends
        await asyncio.wait_for(sent, 5)
        try:
            got = await asyncio.wait_for(asyncio.shield(second), 2)
        except TimeoutError:
            lost.append(n)
            second.cancel()
        else:
            assert got == {"type": "note", "n": n}
        # The ended receive stops at once (it waits on nothing in Redis itself).
        done, _ = await asyncio.wait([first], timeout=1)
        assert done and first.cancelled()
    assert lost == []


async def test_messages_wait_for_a_socket_between_two_receives():
    """A consumer handling one message is not receiving: what comes meanwhile is kept."""
    layer = get_channel_layer()
    busy, other = await layer.new_channel(), await layer.new_channel()
    waiting = asyncio.ensure_future(layer.receive(other))  # the process reads for others
    await asyncio.sleep(0.02)
    for n in range(3):
        await layer.send(busy, {"type": "note", "n": n})
    await asyncio.sleep(0.05)
    assert [await asyncio.wait_for(layer.receive(busy), 2) for _ in range(3)] == [
        {"type": "note", "n": n} for n in range(3)
    ]
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
