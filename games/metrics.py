"""This process's metrics, in the Prometheus format (prometheus-client).

One small module low in the layers (below ``games.live``), so the consumers, the live
handler, the services and the bot driver all count into the same objects. What a hook costs
on the path of a move is one counter increment or one histogram observation (a lock and an
addition); the live sockets and tables are counted only when Prometheus scrapes.

The metrics are served by ``serve()`` on their own port, bound to 127.0.0.1 (``METRICS_PORT``;
no port, no server), never through the site: nothing of them reaches the proxy, and a scrape
touches neither Django nor the database. Each daphne process has its own registry and its own
port; the README shows how an operator gives each process one.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import Counter as _Tally
from collections.abc import Callable, Iterable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import GaugeMetricFamily

log = logging.getLogger(__name__)

# No "…_created" series beside every counter and histogram: Prometheus does not need them.
disable_created_metrics()

REGISTRY = CollectorRegistry(auto_describe=True)

# Latency buckets in seconds: a move is answered in milliseconds on an idle server and in
# a second or more on an overloaded one.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A bot decides in microseconds (Easy) to seconds (Hard's search, queued behind others).
THINK_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

ACTIONS_APPLIED = Counter(
    "cardsite_actions_applied",
    "Moves applied and committed (players' and bots'), per game.",
    ["game"],
    registry=REGISTRY,
)
ACTIONS_REFUSED = Counter(
    "cardsite_actions_refused",
    "Frames from players refused by the live handler, per game and refusal code.",
    ["game", "reason"],
    registry=REGISTRY,
)
ACTION_LATENCY = Histogram(
    "cardsite_action_latency_seconds",
    "From a frame received by a table's socket to its reply frame sent, per game.",
    ["game"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
BOT_DECISION = Histogram(
    "cardsite_bot_decision_seconds",
    "A bot's decision time per level (Hard: including its wait for a pool worker).",
    ["level"],
    buckets=THINK_BUCKETS,
    registry=REGISTRY,
)
POOL_QUEUE = Gauge(
    "cardsite_bot_pool_tasks",
    "Hard decisions submitted to this process's worker pool and not finished yet.",
    registry=REGISTRY,
)
DATABASE_ERRORS = Counter(
    "cardsite_database_errors",
    "Database errors (unreachable, connection lost) under a live socket's handler.",
    ["where"],
    registry=REGISTRY,
)
LAYER_ERRORS = Counter(
    "cardsite_channel_layer_errors",
    "Channel-layer (Redis) errors seen by live sockets, per operation.",
    ["operation"],
    registry=REGISTRY,
)


# ---------------------------------------------------------------- hooks (cheap)


def applied(game: str) -> None:
    ACTIONS_APPLIED.labels(game).inc()


def refused(game: str | None, reason: str) -> None:
    ACTIONS_REFUSED.labels(game or "unknown", reason).inc()


def action_latency(game: str | None, seconds: float) -> None:
    ACTION_LATENCY.labels(game or "unknown").observe(seconds)


def bot_decided(level: str, seconds: float) -> None:
    BOT_DECISION.labels(level).observe(seconds)


def database_error(where: str) -> None:
    DATABASE_ERRORS.labels(where).inc()


def layer_error(operation: str) -> None:
    LAYER_ERRORS.labels(operation).inc()


class timed:
    """``with timed() as t: …`` then ``t.seconds``: a monotonic stopwatch."""

    __slots__ = ("seconds", "start")

    def __enter__(self) -> timed:
        self.start = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = time.perf_counter() - self.start


# ---------------------------------------------------------------- counted at scrape time


class _LiveSockets:
    """Sockets and tables live on this process, counted from the process's set of consumers
    when Prometheus asks (nothing is counted when a socket opens or closes).

    ``source`` returns the live consumers; a consumer names its kind in ``socket_kind``
    ("table", "lobby") and, for a table, its ``code`` and ``game`` once connected.
    """

    def __init__(self) -> None:
        self.source: Callable[[], Iterable] = tuple

    def _consumers(self) -> list:
        # The set belongs to the event loop's thread and a scrape runs in the server's
        # thread: a socket opening meanwhile may change it under the copy. Copy again.
        for _ in range(5):
            try:
                return list(self.source())
            except RuntimeError:
                continue
        return []

    def collect(self):
        sockets = GaugeMetricFamily(
            "cardsite_live_sockets", "Open WebSockets on this process, per kind.", labels=["kind"]
        )
        tables = GaugeMetricFamily(
            "cardsite_live_tables",
            "Tables with at least one open socket on this process, per game.",
            labels=["game"],
        )
        kinds: _Tally = _Tally({"table": 0, "lobby": 0})
        live: dict[str, set] = {}
        for consumer in self._consumers():
            kinds[getattr(consumer, "socket_kind", "other")] += 1
            game = getattr(consumer, "game", None)
            if game is not None:
                live.setdefault(game, set()).add(getattr(consumer, "code", None))
        for kind, count in sorted(kinds.items()):
            sockets.add_metric([kind], count)
        for game, codes in sorted(live.items()):
            tables.add_metric([game], len(codes))
        yield sockets
        yield tables


LIVE = _LiveSockets()
REGISTRY.register(LIVE)


def count_sockets_from(source: Callable[[], Iterable]) -> None:
    """Where the live consumers are (``games.live`` tells, being above this module)."""
    LIVE.source = source


# ---------------------------------------------------------------- the endpoint


def port_from_environment() -> int | None:
    """``METRICS_PORT`` (+ ``METRICS_PORT_OFFSET``), or None when no metrics are served."""
    value = os.environ.get("METRICS_PORT", "").strip()
    if not value:
        return None
    return int(value) + int(os.environ.get("METRICS_PORT_OFFSET", "0") or 0)


_server = None
_retrying = None  # the thread that tries a taken port again (the last one)


def serve(port: int | None = None, address: str = "127.0.0.1", *, every=1.0, tries=120):
    """Serve ``/metrics`` on ``address:port`` in a thread of this process (once). A port that
    is taken is not fatal: the site runs on, and a thread tries the port again ``every``
    seconds, ``tries`` times (in a rolling restart the process before this one, or a
    connection that happened to take the port, lets go of it a moment later)."""
    global _server, _retrying
    port = port_from_environment() if port is None else port
    if port is None or _server is not None:
        return _server
    if _listen(port, address):
        return _server
    log.warning("metrics: %s:%s is taken; trying again every %ss", address, port, every)

    def again():
        for _ in range(tries):
            time.sleep(every)
            if _listen(port, address):
                break
        else:
            log.error("metrics: gave up on %s:%s after %s tries", address, port, tries)

    _retrying = threading.Thread(target=again, name="metrics-listen", daemon=True)
    _retrying.start()
    return None


def _listen(port: int, address: str) -> bool:
    global _server
    from prometheus_client import start_http_server

    try:
        _server, _thread = start_http_server(port, addr=address, registry=REGISTRY)
    except OSError:
        return False
    log.info("metrics on http://%s:%s/metrics", address, port)
    return True
