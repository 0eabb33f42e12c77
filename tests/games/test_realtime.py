"""Notices to a group: handed to the serving loop from its database thread, never waited for
there; waited for anywhere else; a refusing layer reported either way."""

from __future__ import annotations

import asyncio
import threading

import pytest

from games import realtime
from games.live import database_call


class HeldLayer:
    """A layer whose group_send waits until the test lets it go (or refuses)."""

    def __init__(self, refuse: bool = False) -> None:
        self.refuse = refuse
        self.release = asyncio.Event()
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group, message):
        await self.release.wait()
        if self.refuse:
            raise ConnectionError("layer away")
        self.sent.append((group, message))


@pytest.fixture
def held(monkeypatch):
    def use(layer):
        monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
        return layer

    return use


@pytest.mark.django_db(transaction=True)  # the database thread closes old connections
async def test_the_database_thread_does_not_wait_for_a_notice(held):
    layer = held(HeldLayer())
    errors = []
    send = database_call(realtime.send_to_group)
    try:
        # Returns although the layer has not taken the notice yet: the loop sends it later.
        await asyncio.wait_for(send("table.x", {"type": "t", "version": 3}, errors.append), 5)
        assert layer.sent == []
    finally:
        layer.release.set()  # a thread left waiting would hold up the teardown
    for _ in range(100):
        if layer.sent:
            break
        await asyncio.sleep(0)
    assert layer.sent == [("table.x", {"type": "t", "version": 3})] and errors == []


@pytest.mark.django_db(transaction=True)  # the database thread closes old connections
async def test_a_refused_notice_from_the_database_thread_is_reported(held):
    layer = held(HeldLayer(refuse=True))
    layer.release.set()
    reported = asyncio.Event()
    errors = []

    def failed(error):
        errors.append(error)
        reported.set()

    await database_call(realtime.send_to_group)("table.x", {"type": "t"}, failed)
    await asyncio.wait_for(reported.wait(), 5)
    assert isinstance(errors[0], ConnectionError)


def test_without_a_serving_loop_the_notice_is_waited_for(held):
    layer = held(HeldLayer())
    layer.release.set()
    errors = []
    done = threading.Event()

    def call():  # a thread of its own, like a management command's
        realtime.send_to_group("lobby", {"type": "lobby.tables"}, errors.append)
        done.set()

    thread = threading.Thread(target=call)
    thread.start()
    thread.join(10)
    assert done.is_set() and layer.sent == [("lobby", {"type": "lobby.tables"})] and errors == []


def test_without_a_serving_loop_a_refusal_is_reported(held):
    layer = held(HeldLayer(refuse=True))
    layer.release.set()
    errors = []
    realtime.send_to_group("lobby", {"type": "lobby.tables"}, errors.append)
    assert len(errors) == 1 and isinstance(errors[0], ConnectionError)
