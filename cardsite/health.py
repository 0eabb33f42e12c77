"""Health endpoints for a load balancer or a process manager, answered before Django.

``/healthz`` (liveness): the process answers; it touches nothing else. ``/readyz``
(readiness): the database answers ``SELECT 1`` and the channel layer carries a message to this
process and back; 503 with a short JSON body naming what failed, and 503 while the process
drains after a SIGTERM (``cardsite.shutdown``).

They are a few lines of ASGI in front of Django rather than django-health-check's views: a
health check must not depend on what it checks around it – the Host header (a balancer probes
by address, not by name), the HTTPS redirect, the language prefix, sessions, CSRF – nor write
to the database (that library's check inserts a row), and the channel layer and the drain are
this site's own checks anyway.
"""

from __future__ import annotations

import asyncio
import json
import logging

from channels.layers import get_channel_layer

from games import live

log = logging.getLogger(__name__)

LIVENESS = "/healthz"
READINESS = "/readyz"
CHECK_TIMEOUT = 2.0  # seconds per check: a balancer's probe must not hang on a dead service


def _database() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


async def _check_database() -> None:
    await live.database_call(_database)()


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError(f"unexpected message {message!r}")


CHECKS = {"database": _check_database, "channel_layer": _check_channel_layer}


async def readiness() -> tuple[int, dict]:
    if live.draining():
        return 503, {"status": "draining"}

    async def run(name, check):
        try:
            await asyncio.wait_for(check(), CHECK_TIMEOUT)
        except Exception as e:  # noqa: BLE001 - any failure means "not ready"
            log.warning("readiness: %s failed: %s: %s", name, type(e).__name__, e)
            return name, "timeout" if isinstance(e, TimeoutError) else "error"
        return name, "ok"

    results = dict(await asyncio.gather(*(run(n, c) for n, c in CHECKS.items())))
    failed = [name for name, result in results.items() if result != "ok"]
    if failed:
        return 503, {"status": "unavailable", "failed": failed, **results}
    return 200, {"status": "ok", **results}


class HealthChecks:
    """ASGI middleware: answers the two health paths itself, passes everything else on."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        path = scope.get("path")
        if scope["type"] != "http" or path not in (LIVENESS, READINESS):
            return await self.app(scope, receive, send)
        if scope["method"] not in ("GET", "HEAD"):
            return await _respond(send, scope, 405, {"status": "method not allowed"})
        if path == LIVENESS:
            return await _respond(send, scope, 200, {"status": "ok"})
        status, body = await readiness()
        return await _respond(send, scope, status, body)


async def _respond(send, scope, status: int, body: dict) -> None:
    content = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(content)).encode()),
        (b"cache-control", b"no-store"),
    ]
    if status == 405:
        headers.append((b"allow", b"GET, HEAD"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send(
        {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else content}
    )
