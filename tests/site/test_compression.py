"""WebSocket compression on a real daphne: permessage-deflate when the client offers it (as
every browser does), with the context kept across messages, so a board that repeats the last
one costs little on the wire; plain frames for a client that offers nothing."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from tests.servers import daphne_process, fresh_database
from tests.site.test_shutdown import guest_table

# Compression is daphne's and the browser's affair, whatever the database and channel layer.
pytestmark = pytest.mark.once


class Counting(ClientConnection):
    wire = 0

    def data_received(self, data: bytes) -> None:
        self.wire += len(data)
        super().data_received(data)


@pytest.fixture
def server(tmp_path):
    with fresh_database(tmp_path) as env, daphne_process(env, tmp_path) as daphne:
        yield daphne


async def _frames(server, code: str, cookie: str, compression: str | None):
    """The first board and the same board again: (extensions, [(payload, wire) …])."""
    async with websockets.connect(
        f"ws://127.0.0.1:{server.port}/ws/en/tables/{code}/",
        additional_headers={"Cookie": cookie},
        origin=server.url,
        compression=compression,
        create_connection=Counting,
    ) as ws:
        sizes = []
        board = await asyncio.wait_for(ws.recv(), 10)
        sizes.append((len(board.encode()), ws.wire))
        before = ws.wire
        # The whole board again (what a page that missed a frame asks for): a refused hint
        # brought one before, but a refusal now comes without the board the page has.
        await ws.send(json.dumps({"action": "resync"}))
        again = await asyncio.wait_for(ws.recv(), 10)
        assert 'id="board"' in again
        sizes.append((len(again.encode()), ws.wire - before))
        return ws.response.headers.get("Sec-WebSocket-Extensions", ""), sizes


def test_boards_are_compressed_and_a_repeated_board_costs_little(server):
    code, cookie = guest_table(server.url)
    extensions, [(first, first_wire), (second, second_wire)] = asyncio.run(
        _frames(server, code, cookie, "deflate")
    )
    assert "permessage-deflate" in extensions
    assert first_wire < first / 3, (first, first_wire)  # HTML compresses well on its own
    # …and the same board again costs a fraction of the first on the wire
    assert second_wire < second / 3, (second, second_wire)
    assert second_wire < first_wire / 3, (first_wire, second_wire)


def test_a_client_that_offers_no_compression_gets_plain_frames(server):
    code, cookie = guest_table(server.url)
    extensions, [(first, first_wire), _] = asyncio.run(_frames(server, code, cookie, None))
    assert extensions == ""
    assert first_wire >= first
