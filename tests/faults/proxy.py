"""A dumb TCP failover proxy: what a load balancer does when a server dies, and no more.

Each client connection goes to the first backend that accepts it; the bytes are copied both
ways until either side closes, then both are closed. A server killed in mid-stream therefore
looks to the browser like any dead server: the socket just drops, and the page's next connect
lands on a backend that is still up. The first request line of every connection is kept, with
the backend it went to, so a test can see where a WebSocket (re)connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading


class FailoverProxy:
    def __init__(self, backends: list[int]):
        self.backends = list(backends)
        self.port: int | None = None
        self.routed: list[tuple[str, int]] = []  # (first request line, backend port)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def websockets(self) -> list[tuple[str, int]]:
        return [(line, port) for line, port in list(self.routed) if " /ws/" in line]

    def start(self) -> FailoverProxy:
        ready = threading.Event()

        def run():
            self._loop = asyncio.new_event_loop()
            self._server = self._loop.run_until_complete(
                asyncio.start_server(self._handle, "127.0.0.1", 0)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            self._loop.run_forever()
            self._loop.run_until_complete(self._loop.shutdown_asyncgens())
            self._loop.close()

        self._thread = threading.Thread(target=run, name="failover-proxy", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the proxy did not start")
        return self

    def stop(self) -> None:
        if self._loop is None:
            return

        async def shutdown():
            self._server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            asyncio.get_running_loop().stop()

        asyncio.run_coroutine_threadsafe(shutdown(), self._loop)
        self._thread.join(10)

    async def _handle(self, client_r, client_w):
        try:
            first = await asyncio.wait_for(client_r.read(65536), 30)
        except (TimeoutError, OSError):
            first = b""
        if not first:
            client_w.close()
            return
        for port in self.backends:
            try:
                up_r, up_w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
            except (OSError, TimeoutError):
                continue  # refused: that server is down, try the next one
            break
        else:
            client_w.close()
            return
        self.routed.append((first.split(b"\r\n", 1)[0].decode("latin-1"), port))
        up_w.write(first)
        pipes = [
            asyncio.create_task(_pipe(client_r, up_w)),
            asyncio.create_task(_pipe(up_r, client_w)),
        ]
        try:
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in pipes:
                task.cancel()
            for writer in (up_w, client_w):
                with contextlib.suppress(Exception):
                    writer.close()


async def _pipe(reader, writer):
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
