"""Graceful shutdown under daphne: a SIGTERM drains the process, then stops it.

Daphne speaks no ASGI lifespan, and Twisted's own SIGTERM handler stops the reactor at once:
daphne then cancels every application instance (no ``disconnect``, no goodbye to the page) and
the process exits with its sockets cut. Instead, once the reactor runs, this module replaces
that handler (only that one: ``--no-signal-handlers`` and in-process test servers keep theirs)
with a drain:

1. stop listening, and mark the process as draining (``/readyz`` says 503, a handshake that
   still arrives is refused);
2. close every open WebSocket with 1012 "service restart", which the page treats as
   "reconnect" (it lands on another process behind the proxy);
3. wait until every consumer has finished: a move being applied finishes its handler, and so
   its transaction, before the consumer reads the disconnect; ``disconnect`` runs as usual;
4. stop the bot driver (its moves in flight commit, its worker pool shuts down) and the
   review worker (a review cut short is started again when it is next asked for);
5. stop the reactor, which lets daphne cancel whatever is left and exit (status 0).

Steps 2–3 last at most ``SHUTDOWN_GRACE_SECONDS``. A second SIGTERM stops at once.

The 1012 close frame is sent on daphne's protocol objects, not through ASGI: daphne hands an
application's ``websocket.close`` to autobahn's ``sendClose``, which refuses every code but 1000
and 3000–4999 (django/daphne#374).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from django.conf import settings

from games import driver, live, reviews

log = logging.getLogger(__name__)

CLOSE_SERVICE_RESTART = 1012


def install() -> None:
    """Under daphne, let SIGTERM drain first. Elsewhere (tests, another server) a no-op."""
    if "daphne.server" not in sys.modules:
        return  # daphne imports its server (and installs the reactor) before the application
    from twisted.internet import reactor

    reactor.callWhenRunning(_take_sigterm, reactor)


def _take_sigterm(reactor) -> None:
    # Twisted installs its handlers while starting, before "when running" callbacks.
    if signal.getsignal(signal.SIGTERM) != reactor.sigTerm:
        return

    def on_sigterm(signum, frame):
        reactor.callFromThread(_begin, reactor)  # out of the signal handler, onto the loop

    signal.signal(signal.SIGTERM, on_sigterm)


def _begin(reactor) -> None:
    if live.draining():
        log.warning("second SIGTERM: stopping now")
        reactor.stop()
        return
    live.start_draining()
    asyncio.get_running_loop().create_task(_drain(reactor))


async def _drain(reactor) -> None:
    try:
        for port in _listening_ports(reactor):
            port.stopListening()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + settings.SHUTDOWN_GRACE_SECONDS
        told: set = set()  # the protocols sent a 1012 already
        log.warning("SIGTERM: draining %d socket(s)", live.live_sockets())
        while True:
            sockets = _websockets(reactor)
            for protocol in sockets:
                if protocol not in told and protocol.state == protocol.STATE_OPEN:
                    told.add(protocol)
                    protocol.sendCloseFrame(code=CLOSE_SERVICE_RESTART, isReply=False)
            if not sockets and live.live_sockets() == 0:
                break
            if loop.time() > deadline:
                log.warning("drain: %d socket(s) still open, stopping anyway", len(sockets))
                break
            await asyncio.sleep(0.05)  # polling the sockets' own close handshakes
        await driver.stop()
        reviews.shutdown()  # reviews cut short start again when next asked for
    except Exception:  # noqa: BLE001 - whatever failed, the process must still stop
        log.exception("drain failed")
    finally:
        reactor.stop()


def _listening_ports(reactor) -> list:
    from twisted.internet.interfaces import IListeningPort

    return [r for r in reactor.getReaders() if IListeningPort.providedBy(r)]


def _websockets(reactor) -> list:
    """Daphne's WebSocket protocols still connected (behind TLS, the wrapped protocol)."""
    from daphne.ws_protocol import WebSocketProtocol

    found = []
    for reader in reactor.getReaders():
        protocol = getattr(reader, "protocol", None)
        protocol = getattr(protocol, "wrappedProtocol", protocol)
        if isinstance(protocol, WebSocketProtocol):
            found.append(protocol)
    return found
