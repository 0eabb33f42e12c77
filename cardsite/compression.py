"""WebSocket compression under daphne (permessage-deflate, RFC 7692).

A table's frames are HTML boards that differ little from one move to the next. Daphne
negotiates no compression; its WebSocket factory (autobahn) can, once told which offers to
accept. With the compression context kept from one message to the next (the default; the
browser's offer asks for nothing else), a board that repeats most of the previous one costs a
fraction of its size on the wire. Browsers offer permessage-deflate on every socket; a client
that offers nothing gets plain frames.

Memory: each socket keeps a deflate state; ``memLevel`` 6 with the full 32 KB window (a whole
board must fit in it to be found again) is about 160 KB per socket instead of zlib's 256 KB.
"""

from __future__ import annotations

import logging
import sys

log = logging.getLogger(__name__)

MEM_LEVEL = 6


def accept(offers):
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            try:
                return PerMessageDeflateOfferAccept(offer, mem_level=MEM_LEVEL)
            except Exception:  # noqa: BLE001 - an odd offer: plain frames, never a failed socket
                log.warning("WebSocket compression: offer %r not accepted", offer, exc_info=True)
    return None


def install() -> None:
    """Under daphne, let its WebSocket factory accept permessage-deflate. Elsewhere a no-op."""
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    reactor.callWhenRunning(_enable, reactor)


def _enable(reactor) -> None:
    from twisted.internet.interfaces import IListeningPort

    factories = set()
    for reader in reactor.getReaders():
        if IListeningPort.providedBy(reader):
            server = getattr(getattr(reader, "factory", None), "server", None)
            factory = getattr(server, "ws_factory", None)
            if factory is not None:
                factories.add(factory)
    for factory in factories:
        factory.setProtocolOptions(perMessageCompressionAccept=accept)
    if not factories:
        log.warning("WebSocket compression: daphne's factory not found, frames go uncompressed")
