"""Live load benchmark behind ``manage.py loadbench``.

N tables are played at once over real WebSockets against daphne processes on 127.0.0.1, one
human client per table (the bots move on the server). Measured, per table count and regime:

- latency: from sending the human's action to receiving that player's updated board (the
  first frame after which the client's board has a ``data-version`` greater than the one
  acted on); median, p95, p99;
- actions per second: every applied move, human or bot (ActionLog rows written in the
  measuring window; starting the next hand writes none and is not counted);
- the bare consumer (``games/bench/bare.py``: one write, one group send, one fragment) on the
  same daphne processes, closed loop, one connection per table; the ratio of the site's
  closed-loop actions/s to the bare consumer's is the issue's capacity target.

Regimes: ``human`` (GAME_PACING=1: bots paced as in play; each human acts THINK seconds after
its turn arrives, the first turn at a random point within THINK so the tables do not move in
lockstep), ``together`` (as human, but each table is a table for people with two human
clients in seats 0 and 1, both at the human pace) and ``closed`` (GAME_PACING=0; each human
acts as soon as its turn arrives).

The client knows a game only through its frames, which it applies to its board as the page
does (``Page``: a whole board, then patches of what changed): the board's ``data-version``
and ``data-phase``, the "next hand" form, the toast of a refusal, and a per-game policy that
picks a legal move from the markup (each game's ``load_move``). Everything is bounded: at most
MAX_TABLES tables, MAX_SECONDS per measurement, servers on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from games.frames import AFTER_MARK
from games.sockets import MOVES_PER_SECOND

MAX_TABLES = 200
MAX_SECONDS = 120.0
MAX_PROCESSES = 8
MAX_REPEAT = 10
MAX_REVIEWS = 100
HUMAN_THINK = 2.0
STALL_SECONDS = 20.0  # no frame for this long while waiting for a turn: reconnect
REFUSED_PAUSE = 0.1  # after a refusal, the next move waits this long (or the next frame)
# --flood: sockets at tables of their own sending moves the server refuses, while the measured
# tables play. Half keep to a socket's allowance of moves (games.sockets.MOVES_PER_SECOND:
# each reaches the table's handler), half send five times that (beyond
# the burst the socket refuses them itself); each with at most FLOOD_UNANSWERED frames
# unanswered (as fast as the server lets it) and at most MAX_FLOOD_FRAMES in a measurement.
MAX_FLOOD = 100
MAX_FLOOD_FRAMES = 5000
FLOOD_WITHIN = MOVES_PER_SECOND  # frames a second
FLOOD_BEYOND = 5 * MOVES_PER_SECOND
FLOOD_UNANSWERED = 4
FLOOD_PATIENCE = 2.0  # seconds to wait for an answer before sending without it
FLOOD_TARGET = 0.90  # the issue's target: within 10 % of the tables running alone
LOCAL_HOSTS = ("127.0.0.1", "localhost")
ROOT = Path(settings.BASE_DIR)

# ---------------------------------------------------------------- reading frames

# Only data-* attributes are read (never classes or form fields): the board's markup may change
# for looks without breaking the load client.
_BOARD = re.compile(r'<div id="board"[^>]*>')
_VERSION = re.compile(r'\bdata-version="(\d+)"')
_PHASE = re.compile(r'\bdata-phase="([a-z]+)"')
_PLAYABLE = re.compile(r"<button[^>]*\bdata-playable\b[^>]*>")
_CARD = re.compile(r'\bdata-card="([^"]+)"')
_NEXT_HAND = 'data-testid="next-hand"'
_REFUSAL = "data-toast"


def _board_tag(html: str) -> str:
    m = _BOARD.search(html)
    return m.group(0) if m else ""


def board_version(html: str) -> int | None:
    m = _VERSION.search(_board_tag(html))
    return int(m.group(1)) if m else None


def board_phase(html: str) -> str | None:
    m = _PHASE.search(_board_tag(html))
    return m.group(1) if m else None


def is_refusal(html: str) -> bool:
    return _REFUSAL in html


def offers_next_hand(html: str) -> bool:
    return _NEXT_HAND in html


def board_flags(html: str) -> set[str]:
    """The board's valueless data-* attributes: my-turn, following."""
    return set(re.findall(r"\sdata-([a-z-]+)(?=[\s>])", _board_tag(html)))


_HAND_STATE = re.compile(r'<div id="hand-state"[^>]*\bdata-playable="([^"]*)"')


def playable_cards(html: str) -> list[str]:
    """The cards the frame marks playable: in the hand's state where the board has one (it
    travels alone when only the turn changed), else on the cards."""
    state = _HAND_STATE.search(html)
    if state is not None:
        return state.group(1).split()
    return [_CARD.search(tag).group(1) for tag in _PLAYABLE.findall(html) if _CARD.search(tag)]


def match_finished(html: str) -> bool:
    """The board of a match that has ended: over, and no "next hand" to ask for."""
    return board_phase(html) == "over" and _NEXT_HAND not in html


def random_single(cards: list[str], rng: random.Random) -> list[str]:
    return [rng.choice(cards)] if cards else []


def pass_or_lead(
    html: str,
    rng: random.Random,
    lead: Callable[[list[str], random.Random], list[str]] = random_single,
    phases: dict[str, Callable[[str, random.Random], dict]] | None = None,
) -> dict | None:
    """The load move of a game whose plays take several cards, or None when it is not the
    human's turn: the next hand when offered; in a phase of ``phases`` (the board's
    data-phase, e.g. bidding) that phase's move; pass when following (always legal then);
    else lead the cards ``lead`` picks from the playable ones (by default one at random),
    or nothing when it picks none."""
    if offers_next_hand(html):
        return {"action": "next"}
    flags = board_flags(html)
    if "my-turn" not in flags:
        return None
    phase_move = (phases or {}).get(board_phase(html) or "")
    if phase_move is not None:
        return phase_move(html, rng)
    if "following" in flags:
        return {"action": "pass"}
    cards = lead(playable_cards(html), rng)
    return {"action": "play", "cards": cards} if cards else None


def policies() -> dict[str, Callable[[str, random.Random], dict | None]]:
    """The load client of every playable game: ``games.bench.<game>.load_move``, which picks
    the human's move from a board's markup (or None when it is not the human's turn)."""
    from games.bench.harness import plugin
    from games.registry import table_games

    return {g.name: plugin(g.name).load_move for g in table_games() if g.playable}


# ---------------------------------------------------------------- the page's board

# The elements of a message or a board, told apart by their tags (the boards have no
# comments, scripts or preformatted text left when they leave the server: frames.shown).
_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*?(/?)>")
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
_SWAP_OOB = re.compile(r'\shx-swap-oob="([^"]*)"')
_ID = re.compile(r'\sid="([^"]+)"')
_PATCH = "<template data-patch"
_PATCH_END = "</template>"


def _element_end(html: str, start: int) -> int:
    """Where the element whose opening tag starts at ``start`` ends (after its closing tag,
    or after the opening tag of a void element); the end of ``html`` if it is never closed."""
    depth = 0
    for tag in _TAG.finditer(html, start):
        closing, name, self_closing = tag.groups()
        if closing:
            depth -= 1
        elif name.lower() not in _VOID and not self_closing:
            depth += 1
        if depth <= 0:
            return tag.end()
    return len(html)


def _elements(html: str) -> list[str]:
    """The top-level elements of ``html``, each whole."""
    found, pos = [], 0
    while (tag := _TAG.search(html, pos)) is not None:
        if tag.group(1):  # a stray closing tag
            pos = tag.end()
            continue
        pos = _element_end(html, tag.start())
        found.append(html[tag.start() : pos])
    return found


class Page:
    """One socket's board as a browser keeps it (static/js/table.js, the htmx ws extension):
    a whole board replaces it; a patch (games/frames.py) made against its version sets the
    board element's attributes and those of the elements it names by their opening tags
    alone, then swaps each element that follows into the one with its id; any other message
    swaps its elements in by id (a refusal's toast, a reading). The client reads its moves
    from ``html``, never from the last frame alone: a patch leaves out what did not change
    (the cards a person may play, the form to expose or to deal the next hand)."""

    def __init__(self) -> None:
        self.html = ""

    @property
    def version(self) -> int | None:
        return board_version(self.html)

    def receive(self, frame: str) -> bool:
        """Apply one frame; False when it is a patch made against another board (the page
        then asks for the whole board: ``{"action": "resync"}``) and nothing was applied."""
        if frame.startswith(_PATCH):
            head, _, body = frame.partition(_PATCH_END)
            base = re.search(r'\bdata-base="(\d+)"', head)
            tags = [t[: t.index(">") + 1] for t in _elements(head[head.index(">") + 1 :])]
            parts = _elements(body)
            fits = (
                base is not None
                and int(base.group(1)) == self.version
                and bool(tags)
                and all(self._span(_ident(t)) for t in tags[1:] + parts)
            )
            if not fits:
                return False
            self.html = _BOARD.sub(lambda _m: tags[0], self.html, count=1)
            for tag in tags[1:]:
                start, _end = self._span(_ident(tag))
                self.html = self.html[:start] + tag + self.html[self.html.index(">", start) + 1 :]
            for part in parts:
                self._swap(part)
        elif _BOARD.search(frame):
            self.html = frame
        else:
            for part in _elements(frame):
                if self._span(_ident(part)):
                    self._swap(part)
        return True

    def _span(self, ident: str | None) -> tuple[int, int] | None:
        """Where the element with this id is in the board, or None."""
        if not ident:
            return None
        found = re.search(rf'\sid="{re.escape(ident)}"', self.html)
        if found is None:
            return None
        start = self.html.rindex("<", 0, found.start())
        return start, _element_end(self.html, start)

    def _swap(self, part: str) -> None:
        """One element of a message swapped in as htmx swaps it out of band."""
        how = _SWAP_OOB.search(part[: part.index(">") + 1])
        swap, _, target = (how.group(1) if how else "outerHTML").partition(":")
        span = self._span(target.lstrip("#") or _ident(part))
        if span is None:
            return
        start, end = span
        inner = part[part.index(">") + 1 : part.rindex("</")] if "</" in part else ""
        old = self.html[start:end]
        head = start + old.index(">") + 1
        tail = start + old.rindex("</") if "</" in old else end
        at = {
            "delete": (start, end, ""),
            "beforebegin": (start, start, inner),
            "afterbegin": (head, head, inner),
            "beforeend": (tail, tail, inner),
            "afterend": (end, end, inner),
            "innerHTML": (head, tail, inner),
        }.get(swap, (start, end, part))  # outerHTML (or true)
        self.html = self.html[: at[0]] + at[2] + self.html[at[1] :]


def _ident(element: str) -> str | None:
    found = _ID.search(element[: element.index(">") + 1]) if ">" in element else None
    return found.group(1) if found else None


# ---------------------------------------------------------------- figures


# human: one person per table at a human pace; together: two people per table (a table for
# people), both at a human pace; closed: one person per table answering at once.
REGIMES = ("human", "together", "closed")


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass
class Measurement:
    kind: str  # "site" or "bare"
    regime: str  # "human", "together" (two people per table, both human-paced) or "closed"
    tables: int
    seconds: float = 0.0  # the measuring window
    actions: int = 0  # applied moves in the window
    latencies: list[float] = field(default_factory=list)  # seconds
    refused: int = 0
    stalls: int = 0
    resyncs: int = 0  # patches that did not fit the client's board: it asked for the whole
    matches: int = 0  # matches that ended (the table was replaced by a new one)
    server_cpu: float | None = None  # CPU seconds of the daphne processes in the window
    # The same per daphne process (each with its live children: the Hard bots' pool workers).
    server_cpu_by_process: list[float] = field(default_factory=list)
    # CPU seconds of this machine's PostgreSQL and Redis processes in the window (None: the
    # run uses neither)
    services_cpu: float | None = None
    client_cpu: float = 0.0
    # Read requests (what a selection is as a play), sent before each play with --reads:
    # counted apart from the actions, their own latencies.
    reads: list[float] = field(default_factory=list)
    # Frames received by the acting sockets in the window: their UTF-8 payload, and the bytes
    # that crossed the wire (smaller when the server compresses, permessage-deflate).
    payload_bytes: int = 0
    wire_bytes: int = 0
    # From a person's action being answered to their next turn: the bots' replies, paced
    # and thought (with --reviews: whether reviews running meanwhile delay them).
    turnarounds: list[float] = field(default_factory=list)
    reviews: str = ""  # with --reviews: how far the review worker got in the window
    # On PostgreSQL: the most sessions the servers held at once, and their pools' bound.
    db_sessions: int | None = None
    db_bound: int | None = None
    # With --flood: the flood's sockets meanwhile (0: the tables alone), the frames they sent
    # in the window and their answers, with a board (the table's handler refused them) or
    # without (the socket refused them itself).
    flood: int = 0
    flood_sent: int = 0
    flood_boards: int = 0
    flood_bare: int = 0
    flood_unanswered: int = 0  # frames sent without an answer to one before them

    @property
    def human_actions(self) -> int:
        """Actions of the people (answered in the window); the bare consumer's are all."""
        return len(self.latencies) if self.kind == "site" else self.actions

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def human_actions_per_second(self) -> float:
        return self.human_actions / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms_per_action(self) -> float | None:
        if self.server_cpu is None or not self.actions:
            return None
        return self.server_cpu / self.actions * 1000

    @property
    def cpu_ms_per_human_action(self) -> float | None:
        """Daphne's CPU per person's action, its bots' replies included."""
        if self.server_cpu is None or not self.human_actions:
            return None
        return self.server_cpu / self.human_actions * 1000

    def kb_per_human_action(self, wire: bool = False) -> float | None:
        if not self.human_actions:
            return None
        return (self.wire_bytes if wire else self.payload_bytes) / self.human_actions / 1024

    @property
    def services_ms_per_human_action(self) -> float | None:
        if self.services_cpu is None or not self.human_actions:
            return None
        return self.services_cpu / self.human_actions * 1000

    def process_shares(self) -> list[float]:
        """Each daphne process's CPU (with its pool workers) in % of one core."""
        if not self.seconds:
            return []
        return [cpu / self.seconds * 100 for cpu in self.server_cpu_by_process]

    def _per_process(self) -> str:
        shares = self.process_shares()
        if len(shares) < 2:
            return ""
        return "; per process " + ", ".join(f"{v:.0f}%" for v in shares)

    def latency_ms(self, p: float) -> float | None:
        return percentile(self.latencies, p) * 1000 if self.latencies else None

    def turnaround_ms(self, p: float) -> float | None:
        return percentile(self.turnarounds, p) * 1000 if self.turnarounds else None

    def line(self) -> str:
        def ms(p):
            v = self.latency_ms(p)
            return "-" if v is None else f"{v:.1f}"

        parts = [
            f"{self.regime:<6} tables={self.tables:<3} {self.kind:<4}",
            f"latency ms median {ms(50)} p95 {ms(95)} p99 {ms(99)} (n={len(self.latencies)})",
            f"human actions/s {self.human_actions_per_second:.1f} "
            f"(applied moves {self.actions} in {self.seconds:.1f} s)",
        ]
        if self.server_cpu is not None:
            parts.append(
                f"server CPU {self.server_cpu / self.seconds * 100:.0f}% "
                f"({self.cpu_ms_per_human_action or 0.0:.2f} ms/human action, "
                f"{self.cpu_ms_per_action or 0.0:.2f} ms/move"
                f"{self._per_process()})"
            )
        if self.services_cpu is not None:
            parts.append(
                f"PostgreSQL + Redis CPU {self.services_ms_per_human_action or 0.0:.2f} "
                "ms/human action"
            )
        if self.kind == "site" and self.human_actions:
            parts.append(
                f"KB/human action {self.kb_per_human_action():.1f} "
                f"(wire {self.kb_per_human_action(wire=True):.1f})"
            )
        parts.append(f"client CPU {self.client_cpu / self.seconds * 100:.0f}%")
        if self.kind == "site":
            parts.append(
                f"refused {self.refused} stalls {self.stalls} matches ended {self.matches} "
                f"resyncs {self.resyncs}"
            )
        if self.turnarounds:
            parts.append(
                f"turn back ms median {self.turnaround_ms(50):.0f} p95 {self.turnaround_ms(95):.0f}"
            )
        if self.reviews:
            parts.append(self.reviews)
        if self.db_sessions is not None:
            bound = f" (pools' bound {self.db_bound})" if self.db_bound else ""
            parts.append(f"db sessions max {self.db_sessions}{bound}")
        if self.reads:
            parts.append(
                f"reads n={len(self.reads)} median {percentile(self.reads, 50) * 1000:.1f} ms "
                f"p95 {percentile(self.reads, 95) * 1000:.1f} ms"
            )
        if self.flood:
            parts.append(
                f"flood {self.flood} sockets: {self.flood_sent} refused moves sent "
                f"({self.flood_sent / self.seconds:.0f}/s), answered with a board "
                f"{self.flood_boards}, without {self.flood_bare}"
                + (f", given up {self.flood_unanswered}" if self.flood_unanswered else "")
            )
        return " | ".join(parts)


def _median(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summary(results: list[Measurement], repeat: int) -> str:
    """One row per regime and table count: medians over the repeats. Per human action first
    (a person's action with its bots' replies), per applied move beside it."""

    def fmt(v, spec=".1f"):
        return "-" if v is None else format(v, spec)

    rows = [
        f"medians over {repeat} run(s); latency in ms (human action -> own updated board); "
        "per human action (its bots' replies included): hum/s = human actions per second, "
        "ratio = hum/s / bare act/s (closed loop), cpu.h = daphne CPU ms per human action, "
        "x.bare = cpu.h / bare CPU ms per action (at a person's pace the bare consumer sends as "
        "many messages a second as the site's people act), KB.h and wire.h = KB of frames to "
        "the acting socket (payload, on the wire); per applied move: mov/s, cpu.m; back.med, "
        "back.p95 = ms from a human action's answer to that person's next turn (the bots' "
        "replies, paced)",
        f"{'regime':<7}{'tables':>7}{'lat.med':>9}{'lat.p95':>9}{'lat.p99':>9}{'samples':>9}"
        f"{'hum/s':>8}{'bare/s':>9}{'ratio':>7}{'cpu.h':>8}{'bare.cpu':>9}{'x.bare':>8}"
        f"{'KB.h':>7}{'wire.h':>8}{'mov/s':>8}{'cpu.m':>7}{'back.med':>9}{'back.p95':>9}",
    ]
    alone = [m for m in results if not m.flood]
    keys = sorted({(m.regime, m.tables) for m in alone}, key=lambda k: (REGIMES.index(k[0]), k[1]))
    against_closed = []  # earlier runs compared a person's pace with the closed loop's bare only
    for regime, tables in keys:
        site = [m for m in alone if (m.kind, m.regime, m.tables) == ("site", regime, tables)]
        bare = [m for m in results if (m.kind, m.regime, m.tables) == ("bare", regime, tables)]
        human_aps = _median([m.human_actions_per_second for m in site])
        bare_aps = _median([m.actions_per_second for m in bare])
        # (at a person's pace the bare consumer sends at the site's rate: no capacity ratio)
        ratio = human_aps / bare_aps if regime == "closed" and human_aps and bare_aps else None
        site_cpu = _median([m.cpu_ms_per_human_action for m in site])
        bare_cpu = _median([m.cpu_ms_per_action for m in bare])
        times_bare = site_cpu / bare_cpu if site_cpu and bare_cpu else None
        rows.append(
            f"{regime:<7}{tables:>7}"
            f"{fmt(_median([m.latency_ms(50) for m in site])):>9}"
            f"{fmt(_median([m.latency_ms(95) for m in site])):>9}"
            f"{fmt(_median([m.latency_ms(99) for m in site])):>9}"
            f"{fmt(_median([len(m.latencies) for m in site]), '.0f'):>9}"
            f"{fmt(human_aps):>8}{fmt(bare_aps):>9}{fmt(ratio, '.2f'):>7}"
            f"{fmt(site_cpu, '.2f'):>8}{fmt(bare_cpu, '.2f'):>9}{fmt(times_bare, '.1f'):>8}"
            f"{fmt(_median([m.kb_per_human_action() for m in site])):>7}"
            f"{fmt(_median([m.kb_per_human_action(wire=True) for m in site])):>8}"
            f"{fmt(_median([m.actions_per_second for m in site])):>8}"
            f"{fmt(_median([m.cpu_ms_per_action for m in site]), '.2f'):>7}"
            f"{fmt(_median([m.turnaround_ms(50) for m in site]), '.0f'):>9}"
            f"{fmt(_median([m.turnaround_ms(95) for m in site]), '.0f'):>9}"
        )
        closed = [m for m in results if (m.kind, m.regime, m.tables) == ("bare", "closed", tables)]
        closed_cpu = _median([m.cpu_ms_per_action for m in closed])
        if regime != "closed" and site_cpu and closed_cpu:
            against_closed.append(
                f"{regime} {tables}: cpu.h / the closed loop's bare CPU ms per action "
                f"({closed_cpu:.2f}): {site_cpu / closed_cpu:.1f}"
            )
    rows += against_closed
    for regime, tables in keys:
        site = [m for m in alone if (m.kind, m.regime, m.tables) == ("site", regime, tables)]
        services = _median([m.services_ms_per_human_action for m in site])
        if services is not None:
            daphne = _median([m.cpu_ms_per_human_action for m in site]) or 0.0
            total = _median(
                [
                    (m.cpu_ms_per_human_action or 0.0) + m.services_ms_per_human_action
                    for m in site
                    if m.services_ms_per_human_action is not None
                ]
            )
            rows.append(
                f"{regime} {tables}: CPU ms per human action (medians), daphne {daphne:.2f}, "
                f"PostgreSQL and Redis {services:.2f}, both together {total:.2f}"
            )
    for regime, tables in keys:
        shares = [
            m.process_shares()
            for m in alone
            if (m.kind, m.regime, m.tables) == ("site", regime, tables)
            and len(m.server_cpu_by_process) > 1
        ]
        if shares:
            each = [_median([s[i] for s in shares]) for i in range(len(shares[0]))]
            rows.append(
                f"{regime} {tables}: CPU per daphne process (with its pool workers), % of one "
                "core: " + ", ".join(f"{v:.0f}" for v in each)
            )
    rows += flood_summary(results)
    watched = [m for m in results if m.db_sessions is not None]
    if watched:
        bound = max((m.db_bound or 0) for m in watched)
        rows.append(
            f"PostgreSQL: the servers held at most {max(m.db_sessions for m in watched)} "
            "database sessions at once"
            + (f" (their connection pools' bound: {bound})" if bound else "")
        )
    return "\n".join(rows)


FLOOD_FIGURES = ("hum/s", "lat.med", "lat.p95", "back.med")


def flood_ratios(alone: Measurement, flooded: Measurement) -> dict[str, float | None]:
    """How the flood changed the measured tables: their human actions/s with it over alone
    (the issue's figure: at least FLOOD_TARGET), and their latencies and turn-back times
    with it over alone."""

    def over(a, b):
        return a / b if a is not None and b else None

    return {
        "hum/s": over(flooded.human_actions_per_second, alone.human_actions_per_second),
        "lat.med": over(flooded.latency_ms(50), alone.latency_ms(50)),
        "lat.p95": over(flooded.latency_ms(95), alone.latency_ms(95)),
        "back.med": over(flooded.turnaround_ms(50), alone.turnaround_ms(50)),
    }


def flood_line(alone: Measurement, flooded: Measurement) -> str:
    r = flood_ratios(alone, flooded)

    def fmt(v):
        return "-" if v is None else f"{v:.2f}"

    return (
        f"{flooded.regime:<6} tables={flooded.tables:<3} flood {flooded.flood}: with the flood / "
        f"alone: human actions/s {fmt(r['hum/s'])}, latency median x{fmt(r['lat.med'])}, "
        f"p95 x{fmt(r['lat.p95'])}, turn back median x{fmt(r['back.med'])}"
    )


def _fmt(value: float | None, spec: str = ".1f") -> str:
    return "-" if value is None else format(value, spec)


def _flood_row(regime: str, tables: int, flood: int, pairs: list) -> tuple[str, dict]:
    """One row of the flood's table, from its runs' (alone, flooded) measurements; the
    medians of the runs' ratios."""
    ratios = [flood_ratios(a, f) for a, f in pairs]
    ratio = {name: _median([r[name] for r in ratios]) for name in ratios[0]} if ratios else {}
    row = f"{regime:<9}{tables:>7}{flood:>6}"
    for figure, name, spec in (
        (lambda m: m.human_actions_per_second, "hum/s", ".1f"),
        (lambda m: m.latency_ms(50), "lat.med", ".1f"),
        (lambda m: m.latency_ms(95), "lat.p95", ".1f"),
        (lambda m: m.turnaround_ms(50), "back.med", ".0f"),
    ):
        row += f"{_fmt(_median([figure(a) for a, _ in pairs]), spec):>9}"
        row += f"{_fmt(_median([figure(f) for _, f in pairs]), spec):>8}"
        row += f"{_fmt(ratio.get(name), '.2f'):>7}"
    return row, ratio


def flood_summary(results: list[Measurement]) -> list[str]:
    """With --flood: per regime and table count, the measured tables alone and with the
    flood (medians over the runs) and the medians of each run's ratios; then the issue's
    figure, one line each."""
    sites = [m for m in results if m.kind == "site"]
    keys = sorted(
        {(m.regime, m.tables, m.flood) for m in sites if m.flood},
        key=lambda k: (REGIMES.index(k[0]), k[1], k[2]),
    )
    if not keys:
        return []
    rows = [
        "flood: the measured tables alone and while other sockets flood the server with "
        "refused moves, in the same run (medians over the runs; ratio: with the flood / "
        "alone, the median of the runs' ratios)",
        f"{'regime':<9}{'tables':>7}{'flood':>6}"
        + "".join(f"{name:>9}{'flooded':>8}{'ratio':>7}" for name in FLOOD_FIGURES),
    ]
    verdicts = []
    for regime, tables, flood in keys:
        alone = [m for m in sites if (m.regime, m.tables, m.flood) == (regime, tables, 0)]
        flooded = [m for m in sites if (m.regime, m.tables, m.flood) == (regime, tables, flood)]
        row, ratio = _flood_row(regime, tables, flood, list(zip(alone, flooded, strict=False)))
        rows.append(row)
        throughput = ratio.get("hum/s")
        verdict = (
            ""
            if throughput is None
            else (
                " (within the target)" if throughput >= FLOOD_TARGET else " (NOT within the target)"
            )
        )
        verdicts.append(
            f"FLOOD RATIO {regime} tables={tables} flood={flood}: human actions/s with the "
            f"flood / alone = {_fmt(throughput, '.2f')}{verdict}, target >= {FLOOD_TARGET:.2f}; "
            f"latency median with / alone = {_fmt(ratio.get('lat.med'), '.2f')}, p95 "
            f"{_fmt(ratio.get('lat.p95'), '.2f')}"
        )
    return rows + verdicts


# ---------------------------------------------------------------- players and tables


@dataclass
class Player:
    user_id: int
    session_key: str
    code: str  # the table the player sits at (seat 0)

    @property
    def cookie(self) -> str:
        return f"{settings.SESSION_COOKIE_NAME}={self.session_key}"


def _session_key(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def make_players(game: str, level: str, count: int, tag: str) -> list[Player]:
    """``count`` new users, each signed in and seated at a new table against three bots."""
    from django.contrib.auth import get_user_model

    from games import services

    players = []
    for i in range(count):
        user = get_user_model().objects.create_user(f"loadbench-{tag}-{i}")
        table = services.create_table(user, game, level)
        players.append(Player(user.pk, _session_key(user), str(table.code)))
    return players


def make_pairs(game: str, level: str, count: int, tag: str) -> list[Player]:
    """``count`` tables for people, each with two new signed-in users (seats 0 and 1) and
    computer players in the other seats, started: two human clients per table."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.registry import table_game

    seats = table_game(game).info.default_seats
    players = []
    for i in range(count):
        host, guest = (
            get_user_model().objects.create_user(f"loadbench-{tag}-{i}-{who}") for who in ("a", "b")
        )
        plan = ["person", "person"] + [level] * (seats - 2)
        table = services.create_shared_table(host, game, plan)
        services.join_table(table.code, guest)
        services.start_match(table.code, host)
        players += [Player(u.pk, _session_key(u), str(table.code)) for u in (host, guest)]
    return players


def new_table(game: str, level: str, player: Player) -> Player:
    from django.contrib.auth import get_user_model

    from games import services

    user = get_user_model().objects.get(pk=player.user_id)
    table = services.create_table(user, game, level)
    return Player(player.user_id, player.session_key, str(table.code))


def count_actions(codes: list[str], start, stop) -> int:
    from games.models import ActionLog

    return ActionLog.objects.filter(
        table__code__in=codes, created_at__gte=start, created_at__lt=stop
    ).count()


def remove_players(players: list[Player]) -> None:
    """Delete the benchmark's users (their tables, hands and logs go with them) and sessions."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session

    Session.objects.filter(session_key__in=[p.session_key for p in players]).delete()
    get_user_model().objects.filter(pk__in=[p.user_id for p in players]).delete()


# ---------------------------------------------------------------- daphne processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(pacing: bool) -> dict[str, str]:
    """The environment this command was given, on the database this process uses."""
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        env["SQLITE_PATH"] = str(db["NAME"])
    env["GAME_PACING"] = "1" if pacing else "0"
    env["LOADBENCH_BARE"] = "1"
    env["DB_APPLICATION_NAME"] = SERVER_APP_NAME
    return env


# The servers' sessions in pg_stat_activity (this process's own are named otherwise).
SERVER_APP_NAME = "cardsite-loadbench-server"


class SessionWatch:
    """On PostgreSQL: the most database sessions the servers held at once, sampled every
    ``every`` seconds in a thread of its own, against the bound of their connection pools
    (processes × the pool's max_size)."""

    def __init__(self, processes: int, every: float = 0.2) -> None:
        db = settings.DATABASES["default"]
        self.on = db["ENGINE"].endswith("postgresql")
        pool = db.get("OPTIONS", {}).get("pool")
        known = self.on and processes and isinstance(pool, dict)
        self.bound = processes * pool["max_size"] if known else None
        self.every = every
        self.most: int | None = None
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self) -> SessionWatch:
        if self.on:
            self.thread = threading.Thread(target=self._watch, name="session-watch", daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        if self.thread:
            self.thread.join(timeout=5)

    def _watch(self) -> None:
        from django.db import connection

        try:
            while True:
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT count(*) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND application_name = %s",
                        [SERVER_APP_NAME],
                    )
                    now = cursor.fetchone()[0]
                self.most = now if self.most is None else max(self.most, now)
                if self.stop.wait(self.every):
                    return
        finally:
            connection.close()


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name (state, ppid, ...)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _ticks(fields: list[str]) -> int:
    return sum(int(v) for v in fields[11:15])  # utime stime cutime cstime


SERVICES = ("postgres", "redis-server")


def services_cpu_seconds() -> float:
    """The user + system CPU of every PostgreSQL and Redis process on this machine (by their
    names; a backend that ended is in its parent's reaped children's time), from /proc."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if Path(f"/proc/{entry}/comm").read_text().strip() in SERVICES:
                ticks += _ticks(_stat(int(entry)))
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return ticks / os.sysconf("SC_CLK_TCK")


def _uses_services() -> bool:
    from django.conf import settings

    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql") or "Redis" in layer


def cpu_seconds(pids: list[int]) -> list[float] | None:
    """Per process: the user + system CPU of it, its reaped children and its live descendants
    (a daphne's pool workers, whose time reaches it only once they have exited), from /proc."""
    try:
        totals = {pid: _ticks(_stat(pid)) for pid in pids}
    except (OSError, IndexError, ValueError):
        return None
    parents: dict[int, tuple[int, int]] = {}  # every other process: its parent, its ticks
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in totals:
            try:
                fields = _stat(int(entry))
                parents[int(entry)] = (int(fields[1]), _ticks(fields))
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile: its time is in its parent's once it is reaped
    for pid in pids:
        below = {pid}
        while True:
            more = {child for child, (ppid, _) in parents.items() if ppid in below} - below
            if not more:
                break
            below |= more
        totals[pid] += sum(parents[child][1] for child in below - {pid})
    tick = os.sysconf("SC_CLK_TCK")
    return [totals[pid] / tick for pid in pids]


@dataclass
class Servers:
    urls: list[str]
    pids: list[int]
    logs: list[Path]

    def tracebacks(self) -> int:
        return sum(p.read_text(errors="replace").count("Traceback") for p in self.logs)


@contextlib.contextmanager
def daphne_processes(count: int, pacing: bool, log_dir: Path, profile_dir: Path | None = None):
    """Start ``count`` daphne processes on 127.0.0.1; stop them (and wait) however we leave."""
    env = server_env(pacing)
    procs, logs, urls = [], [], []
    try:
        for _ in range(count):
            port = free_port()
            log = log_dir / f"daphne-{'paced' if pacing else 'closed'}-{port}.log"
            cmd = [sys.executable]
            if profile_dir is not None:
                prof = profile_dir / f"daphne-{'paced' if pacing else 'closed'}-{port}.prof"
                cmd += ["-m", "cProfile", "-o", str(prof)]
            cmd += ["-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            cmd += ["cardsite.asgi:application"]
            with open(log, "wb") as out:
                procs.append(
                    subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
                )
            logs.append(log)
            urls.append(f"http://127.0.0.1:{port}")
        for proc, url, log in zip(procs, urls, logs, strict=True):
            _wait_until_up(proc, url, log)
        yield Servers(urls, [p.pid for p in procs], logs)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)  # daphne takes 1-2 s to exit after SIGTERM
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def _wait_until_up(proc: subprocess.Popen, url: str, log: Path, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while True:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"daphne exited with {proc.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(url + "/en/", timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answers; the status is the site's business
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"daphne at {url} did not answer within {limit:.0f} s")
        time.sleep(0.1)  # polling for the server to come up


def check_url(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "ws") or parts.hostname not in LOCAL_HOSTS or not parts.port:
        raise ValueError(f"{url!r}: only http://127.0.0.1:PORT servers may be benchmarked")
    return f"http://{parts.hostname}:{parts.port}"


# ---------------------------------------------------------------- clients


@dataclass
class Run:
    """What the clients of one measurement share."""

    seconds: float
    clients: int
    ready: int = 0
    all_ready: asyncio.Event = field(default_factory=asyncio.Event)
    start: asyncio.Event = field(default_factory=asyncio.Event)
    stop_at: float = 0.0  # on the loop's clock

    def mark_ready(self) -> None:
        self.ready += 1
        if self.ready >= self.clients:
            self.all_ready.set()

    def remaining(self) -> float:
        return self.stop_at - asyncio.get_running_loop().time()


def _ws_url(base: str, path: str) -> str:
    return "ws://" + base.split("://", 1)[1] + path


def _counting_connection():
    from websockets.asyncio.client import ClientConnection

    class Counting(ClientConnection):
        """Counts the bytes that arrive on the wire (frames compressed or not, headers)."""

        wire = 0

        def data_received(self, data: bytes) -> None:
            self.wire += len(data)
            super().data_received(data)

    return Counting


def _connect(base: str, path: str, cookie: str | None):
    from websockets.asyncio.client import connect

    headers = {"Cookie": cookie} if cookie else None
    return connect(
        _ws_url(base, path),
        origin=base,
        additional_headers=headers,
        create_connection=_counting_connection(),
        compression="deflate",  # what a browser offers; used if the server accepts it
        open_timeout=60,
        ping_interval=None,
        close_timeout=2,
        max_size=2**22,
    )


async def _recv(ws, timeout: float) -> str:
    return await asyncio.wait_for(ws.recv(), max(0.001, timeout))


async def _human(
    run: Run,
    base: str,
    player: Player,
    policy,
    think: float,
    rng: random.Random,
    result: Measurement,
    replace,
    codes: list[str],
    reads: bool = False,
) -> None:
    """One table's human: act on each turn until the window closes (``reads``: ask what the
    selection is as a play before each play, as a player's page does)."""
    loop = asyncio.get_running_loop()
    first_turn = True
    seen_wire = 0
    answered: float | None = None  # when the last action was answered

    async def receive(timeout: float) -> str:
        """The next frame, applied to the page's board (a patch that does not fit it asks
        for the whole board, as the page does); counted (payload and wire) while the window
        is open. Replies sent ahead with a move's answer (``frames.AFTER_MARK``) wait, as on
        the page, and each is the next frame when its time comes (all at once when another
        board comes first)."""
        nonlocal seen_wire
        if ahead and ahead[0][0] - loop.time() <= timeout:
            try:
                frame = await _recv(ws, ahead[0][0] - loop.time())
            except TimeoutError:
                return await show(ahead.pop(0)[1])
        else:
            frame = await _recv(ws, timeout)
        if run.start.is_set() and run.remaining() > 0:
            result.payload_bytes += len(frame.encode())
            result.wire_bytes += ws.wire - seen_wire
        seen_wire = ws.wire
        first, *steps = AFTER_MARK.split(frame)
        if ahead and (steps or _BOARD.search(first) or first.startswith(_PATCH)):
            for _at, step in ahead:
                await show(step)
            ahead.clear()
        now = loop.time()
        ahead.extend(
            (now + int(ms) / 1000, step) for ms, step in zip(steps[::2], steps[1::2], strict=True)
        )
        return await show(first) if first or not steps else frame

    async def show(frame: str) -> str:
        if not page.receive(frame):
            result.resyncs += 1
            ahead.clear()
            await ws.send(json.dumps({"action": "resync"}))
        return frame

    while True:
        stalled = False
        async with _connect(base, f"/ws/en/tables/{player.code}/", player.cookie) as ws:
            seen_wire = 0
            page = Page()  # a new socket starts with a whole board
            ahead: list[tuple[float, str]] = []  # (when it shows, loop time; the frame)
            first = await receive(60)
            if page.version is None:
                raise RuntimeError(f"no board on connecting to {player.code}: {first[:300]}")
            if not run.start.is_set():
                run.mark_ready()
                await run.start.wait()
            while run.remaining() > 0:
                move = policy(page.html, rng)
                version = page.version
                if move is None or version is None:
                    if match_finished(page.html):
                        break
                    try:
                        await receive(min(STALL_SECONDS, run.remaining()))
                    except TimeoutError:
                        stalled = run.remaining() > 0
                        break
                    continue
                if answered is not None and think and run.remaining() > 0:
                    result.turnarounds.append(loop.time() - answered)
                answered = None
                if think:
                    pause = rng.uniform(0, think) if first_turn else think
                    # The page takes frames while its person thinks, who then acts on the
                    # board as it is (the other person at the table may have moved).
                    until = loop.time() + min(pause, max(0.0, run.remaining()))
                    while (left := until - loop.time()) > 0:
                        with contextlib.suppress(TimeoutError):
                            await receive(left)
                    if run.remaining() <= 0:
                        return
                    move, version = policy(page.html, rng), page.version
                    if move is None or version is None:
                        continue
                first_turn = False
                if reads and move.get("action") == "play" and move.get("cards"):
                    # What a player's page asks while they select: a read, counted apart.
                    asked = loop.time()
                    await ws.send(json.dumps({"action": "read", "cards": move["cards"]}))
                    while True:
                        try:
                            answer = await receive(STALL_SECONDS)
                        except TimeoutError:
                            break
                        if 'id="selection-reading"' in answer and 'id="board"' not in answer:
                            result.reads.append(loop.time() - asked)
                            break
                    version = page.version or version
                move["version"] = str(version)
                sent = loop.time()
                await ws.send(json.dumps(move))
                while True:
                    try:
                        frame = await receive(STALL_SECONDS)
                    except TimeoutError:
                        stalled = True
                        break
                    if is_refusal(frame):
                        result.refused += 1
                        # A person reads the toast before trying again: without this pause
                        # the closed loop spun against the socket's pace of moves, thousands
                        # of refusals in seconds, each a frame.
                        with contextlib.suppress(TimeoutError):
                            await receive(REFUSED_PAUSE)
                        break
                    got = page.version
                    if got is not None and got > version:
                        result.latencies.append(loop.time() - sent)
                        answered = loop.time()
                        break
                if stalled:
                    break
            else:
                return
        if stalled:
            result.stalls += 1  # reconnect: the snapshot on connect resumes the table
            continue
        if run.remaining() <= 0:
            return
        result.matches += 1
        player = await asyncio.to_thread(replace, player)
        codes.append(player.code)


_CARD_CODES = [rank + suit for suit in "SHDC" for rank in "AKQJT98765432"]


def refused_move(html: str, stale: bool) -> dict:
    """A move the server refuses, of a shape every game reads: a card the page does not show
    (so in nobody's hand it can see), on a version behind the board's (stale), or else on
    the board's own while another is to move (out of turn); stale while it is this page's
    turn, so that it is never applied."""
    shown = set(_CARD.findall(html))
    card = next((c for c in _CARD_CODES if c not in shown), "2C")
    version = board_version(html) or 1
    if stale or "my-turn" in board_flags(html):
        version -= 1
    return {"action": "play", "card": card, "cards": [card], "version": str(version)}


async def _flooder(run: Run, base: str, player: Player, rate: float, result: Measurement):
    """One flooding socket: refused moves at ``rate`` a second, stale and out of turn in
    turn, with at most FLOOD_UNANSWERED unanswered (an answer: a frame with a toast), until
    the window closes or MAX_FLOOD_FRAMES are sent."""
    loop = asyncio.get_running_loop()
    page = Page()
    slots = asyncio.Semaphore(FLOOD_UNANSWERED)
    given_up = 0  # answers given up that have not come since: their slots are taken again

    async def answers(ws) -> None:
        nonlocal given_up
        while True:
            frame = await ws.recv()
            page.receive(frame)
            if _REFUSAL not in frame:
                continue  # the flood's own table moved (its bots)
            if run.start.is_set() and run.remaining() > 0:
                if 'id="board"' in frame:
                    result.flood_boards += 1
                else:
                    result.flood_bare += 1
            if given_up:
                given_up -= 1
            else:
                slots.release()

    async with _connect(base, f"/ws/en/tables/{player.code}/", player.cookie) as ws:
        page.receive(await _recv(ws, 60))
        run.mark_ready()
        await run.start.wait()
        reader = asyncio.create_task(answers(ws))
        try:
            at = loop.time()
            for sent in range(MAX_FLOOD_FRAMES):
                at = max(at + 1 / rate, loop.time())
                await asyncio.sleep(max(0.0, min(at - loop.time(), run.remaining())))
                if run.remaining() <= 0:
                    break
                # An answer that has not come within FLOOD_PATIENCE (a frame the server
                # answers with nothing) is given up, and counted.
                try:
                    await asyncio.wait_for(
                        slots.acquire(), max(0.001, min(FLOOD_PATIENCE, run.remaining()))
                    )
                except TimeoutError:
                    result.flood_unanswered += 1
                    given_up += 1
                if run.remaining() <= 0:
                    break
                await ws.send(json.dumps(refused_move(page.html, stale=sent % 2 == 0)))
                result.flood_sent += 1
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader


async def _bare(
    run: Run, base: str, code: str, result: Measurement, every: float = 0.0, phase: float = 0.0
) -> None:
    """One bare connection: in a closed loop (send, wait for the fragment, send again), or
    paced, a message every ``every`` seconds from ``phase`` seconds into the window."""
    loop = asyncio.get_running_loop()
    async with _connect(base, f"/ws/bench/bare/{code}/", None) as ws:
        html = await _recv(ws, 60)
        version = board_version(html)
        run.mark_ready()
        await run.start.wait()
        due = loop.time() + phase
        while run.remaining() > 0:
            if every:
                await asyncio.sleep(max(0.0, due - loop.time()))
                due += every
                if run.remaining() <= 0:
                    break
            sent = loop.time()
            await ws.send(json.dumps({"action": "ping", "version": str(version)}))
            html = await _recv(ws, STALL_SECONDS)
            version = board_version(html)
            result.latencies.append(loop.time() - sent)
            result.actions += 1


async def _measure(run: Run, tasks: list, pids: list[int] | None, result: Measurement):
    """Connect every client, open the window, close it, wait for the last answers."""
    from django.utils import timezone

    loop = asyncio.get_running_loop()
    running = [asyncio.create_task(t) for t in tasks]
    connecting = asyncio.create_task(run.all_ready.wait())
    done, _ = await asyncio.wait(
        [connecting, *running], timeout=120, return_when=asyncio.FIRST_COMPLETED
    )
    if connecting not in done:
        for task in running:
            task.cancel()
        failed = [t for t in running if t.done() and not t.cancelled() and t.exception()]
        raise RuntimeError(f"clients did not connect: {failed[0].exception() if failed else ''}")
    services = _uses_services()
    cpu0, client0 = cpu_seconds(pids or []), time.process_time()
    services0 = services_cpu_seconds() if services else None
    started, wall0 = loop.time(), timezone.now()
    run.stop_at = started + run.seconds
    run.start.set()
    with SessionWatch(len(pids or [])) as sessions:
        await asyncio.sleep(run.seconds)
    result.db_sessions, result.db_bound = sessions.most, sessions.bound
    cpu1, client1, wall1 = cpu_seconds(pids or []), time.process_time(), timezone.now()
    if services0 is not None:
        result.services_cpu = services_cpu_seconds() - services0
    result.seconds = loop.time() - started
    if pids and cpu0 is not None and cpu1 is not None:
        result.server_cpu_by_process = [b - a for a, b in zip(cpu0, cpu1, strict=True)]
        result.server_cpu = sum(result.server_cpu_by_process)
    result.client_cpu = client1 - client0
    await asyncio.gather(*running)  # each ends with its last answer (bounded by STALL_SECONDS)
    return wall0, wall1


async def measure_site(
    urls: list[str],
    players: list[Player],
    *,
    regime: str,
    seconds: float,
    think: float,
    policy,
    replace,
    pids: list[int] | None = None,
    seed: int = 0,
    reads: bool = False,
    flood: list[Player] = (),
) -> tuple[Measurement, list[str], tuple]:
    result = Measurement("site", regime, len(players), flood=len(flood))
    run = Run(seconds, len(players) + len(flood))
    codes = [p.code for p in players]
    tasks = [
        _human(
            run,
            urls[i % len(urls)],
            player,
            policy,
            think,
            random.Random(f"{seed}:{i}"),
            result,
            replace,
            codes,
            reads,
        )
        for i, player in enumerate(players)
    ]
    tasks += [
        _flooder(run, urls[i % len(urls)], player, FLOOD_BEYOND if i % 2 else FLOOD_WITHIN, result)
        for i, player in enumerate(flood)
    ]
    window = await _measure(run, tasks, pids, result)
    return result, codes, window


async def measure_bare(
    urls: list[str], codes: list[str], *, regime: str, seconds: float, pids=None, rate=None
) -> Measurement:
    """The bare consumer's connections, one per code: in a closed loop, or (``rate``: messages
    a second in all) paced, each sending at an even pace from a phase of its own."""
    result = Measurement("bare", regime, len(codes))
    run = Run(seconds, len(codes))
    every = len(codes) / rate if rate else 0.0
    phases = random.Random(f"bare:{len(codes)}")
    tasks = [
        _bare(run, urls[i % len(urls)], code, result, every, phases.uniform(0, every))
        for i, code in enumerate(codes)
    ]
    await _measure(run, tasks, pids, result)
    return result


# ---------------------------------------------------------------- the whole benchmark


@dataclass
class Config:
    game: str = field(default_factory=lambda: next(iter(policies())))
    tables: list[int] = field(default_factory=lambda: [1, 10, 50])
    seconds: float = 10.0
    processes: int = 1
    regimes: list[str] = field(default_factory=lambda: ["human", "closed"])
    reads: bool = False  # a read request before each play (multi-card games), counted apart
    level: str = "normal"
    repeat: int = 1
    urls: list[str] = field(default_factory=list)
    think: float = HUMAN_THINK
    bare: bool = True
    log_dir: Path | None = None
    profile_dir: Path | None = None
    reviews: int = 0  # finished Gong Zhu hands whose reviews run while measuring
    flood: int = 0  # sockets sending refused moves: each measurement again with them
    # The core the load generator (this process) runs on, so that its CPU does not spread
    # over the servers' cores; None: wherever the system puts it. The daphne processes it
    # starts may use every core.
    client_core: int | None = field(default_factory=lambda: default_client_core())

    def validate(self) -> None:
        known = policies()
        if self.game not in known:
            raise ValueError(f"no load client for {self.game!r} (known: {', '.join(known)})")
        if not self.tables or any(n < 1 or n > MAX_TABLES for n in self.tables):
            raise ValueError(f"table counts must be between 1 and {MAX_TABLES}")
        if not 0 < self.seconds <= MAX_SECONDS:
            raise ValueError(f"--seconds must be in (0, {MAX_SECONDS:.0f}]")
        if not 1 <= self.processes <= MAX_PROCESSES:
            raise ValueError(f"--processes must be between 1 and {MAX_PROCESSES}")
        if not 1 <= self.repeat <= MAX_REPEAT:
            raise ValueError(f"--repeat must be between 1 and {MAX_REPEAT}")
        if not 0 <= self.reviews <= MAX_REVIEWS:
            raise ValueError(f"--reviews must be between 0 and {MAX_REVIEWS}")
        if not 0 <= self.flood <= MAX_FLOOD:
            raise ValueError(f"--flood must be between 0 and {MAX_FLOOD}")
        if any(r not in REGIMES for r in self.regimes):
            raise ValueError(f"regimes are {', '.join(REGIMES)}")
        self.urls = [check_url(u) for u in self.urls]
        if self.client_core is not None and self.client_core not in os.sched_getaffinity(0):
            cores = ", ".join(map(str, sorted(os.sched_getaffinity(0))))
            raise ValueError(f"--client-core must be one of this machine's cores ({cores})")
        several = len(self.urls) > 1 or (not self.urls and self.processes > 1)
        if several and "InMemory" in settings.CHANNEL_LAYERS["default"]["BACKEND"]:
            raise ValueError(
                "several daphne processes need a shared channel layer: set REDIS_URL "
                "(the in-memory layer does not cross processes)"
            )


def describe(config: Config) -> str:
    db = settings.DATABASES["default"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    servers = (
        ", ".join(config.urls)
        if config.urls
        else f"{config.processes} daphne process(es) started here"
    )
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return (
        f"loadbench: game {config.game}, bot level {config.level}, tables "
        f"{','.join(map(str, config.tables))}, {config.seconds:g} s per measurement, "
        f"regimes {','.join(config.regimes)}, {config.repeat} run(s)\n"
        f"servers: {servers}; database {db['ENGINE'].rsplit('.', 1)[-1]} ({db['NAME']}); "
        f"channel layer {layer}; human think time {config.think:g} s"
        f"{f'; {config.reviews} hand reviews asked for per measurement' if config.reviews else ''}"
        f"{_flood_words(config.flood)}\n"
        f"machine: {os.cpu_count()} cores, load average {load} at start; load generator "
        + (
            f"pinned to core {config.client_core}"
            if config.client_core is not None
            else "not pinned"
        )
    )


def _flood_words(flood: int) -> str:
    if not flood:
        return ""
    return (
        f"; each measurement also with a flood: {flood} sockets at tables of their own sending "
        f"refused moves (stale or out of turn), half {FLOOD_WITHIN:g} a second (a socket's "
        f"allowance), half {FLOOD_BEYOND:g} a second, at most {FLOOD_UNANSWERED} unanswered"
    )


def default_client_core() -> int | None:
    """The last core, when there are several; None on one core."""
    cores = sorted(os.sched_getaffinity(0))
    return cores[-1] if len(cores) > 1 else None


@contextlib.contextmanager
def pinned(core: int | None) -> Iterator[None]:
    """Every thread of this process on ``core`` (threads started meanwhile inherit it);
    as before afterwards."""
    if core is None:
        yield
        return
    before = os.sched_getaffinity(0)

    def each_thread(cores) -> None:
        for tid in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError):  # a thread that ended meanwhile
                os.sched_setaffinity(int(tid), cores)

    each_thread({core})
    try:
        yield
    finally:
        each_thread(before)


def run(config: Config, out: Callable[[str], None]) -> list[Measurement]:
    config.validate()
    out(describe(config))
    log_dir = config.log_dir or Path(tempfile.mkdtemp(prefix="loadbench-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    tag = uuid.uuid4().hex[:8]
    results: list[Measurement] = []
    players: list[Player] = []
    policy = policies()[config.game]
    try:
        for rep in range(config.repeat):
            for regime in config.regimes:
                pacing = regime != "closed"
                # Tables created here schedule their first bot move with this process's setting.
                settings.GAME_PACING = pacing
                # The servers start on every core; then the load generator keeps to its own.
                with _servers(config, pacing, log_dir) as servers, pinned(config.client_core):
                    for n in config.tables:
                        try:
                            results += _one(
                                config,
                                regime,
                                n,
                                servers,
                                policy,
                                f"{tag}-{rep}",
                                players,
                                out,
                                flood_first=rep % 2 == 1,
                            )
                        except Exception as e:  # noqa: BLE001 - report it, keep the others
                            out(f"{regime:<6} tables={n:<3} FAILED: {e!r}")
                    if servers.logs and servers.tracebacks():
                        out(f"  ! {servers.tracebacks()} traceback(s) in {log_dir}/daphne-*.log")
    finally:
        remove_players(players)
        out("")
        out(summary(results, config.repeat))
        out(f"daphne logs: {log_dir}")
    return results


def _start_reviews(config: Config, servers: Servers, tag: str, created: list) -> list[str]:
    """With --reviews: a reviewer's finished hands, their reviews asked for on every server."""
    if not config.reviews:
        return []
    from django.contrib.auth import get_user_model

    from games.bench import reviews

    user = get_user_model().objects.create_user(f"loadbench-{tag}-reviewer")
    reviewer = Player(user.pk, _session_key(user), "")
    created.append(reviewer)
    codes = reviews.finished_hands(user, config.reviews)
    reviews.ask_for_reviews(servers.urls, codes, reviewer.cookie)
    return codes


def _reviews_progress(codes: list[str]) -> str:
    from django.db.models import Sum

    from games.models import HandReview

    rows = HandReview.objects.filter(hand__table__code__in=codes)
    done = rows.aggregate(done=Sum("done"), total=Sum("total"))
    finished = rows.filter(status=HandReview.Status.DONE).count()
    return (
        f"reviews: {finished} of {len(codes)} finished, "
        f"{done['done'] or 0} of {done['total'] or 0} decisions weighed by the window's end"
    )


@contextlib.contextmanager
def _servers(config: Config, pacing: bool, log_dir: Path) -> Iterator[Servers]:
    if config.urls:
        yield Servers(config.urls, [], [])
        return
    with daphne_processes(config.processes, pacing, log_dir, config.profile_dir) as servers:
        yield servers


def _one(
    config, regime, n, servers, policy, tag, created, out, flood_first=False
) -> list[Measurement]:
    """One measurement of ``n`` tables (with --flood: two, alone and flooded, in the order
    ``flood_first`` says, so that a drift of the machine's load over a run does not favour
    one), and the bare consumer's in the closed regime."""
    floods = [0] if not config.flood else [config.flood, 0] if flood_first else [0, config.flood]
    measured = []
    for flood in floods:
        site, players = _site(config, regime, n, servers, policy, tag, created, flood)
        out(site.line())
        measured.append(site)
    if config.flood:
        alone, flooded = sorted(measured, key=lambda m: m.flood)
        out(flood_line(alone, flooded))
    if config.bare and regime in ("closed", "human"):
        # At a person's pace too: the bare consumer sent as many messages a second as the
        # site's people made human actions, so both are measured at the same load (a
        # process's CPU per message is not the same idle as saturated).
        site = measured[floods.index(0)]
        rate = site.human_actions_per_second if regime == "human" else None
        if regime == "human" and not rate:
            return measured  # nothing to pace it by
        bare = asyncio.run(
            measure_bare(
                servers.urls,
                [p.code for p in players],
                regime=regime,
                seconds=config.seconds,
                pids=servers.pids,
                rate=rate,
            )
        )
        out(bare.line())
        if regime == "closed" and bare.actions_per_second:
            out(
                f"{regime:<6} tables={n:<3} ratio site/bare actions/s: per human action "
                f"{site.human_actions_per_second / bare.actions_per_second:.2f}, per applied "
                f"move {site.actions_per_second / bare.actions_per_second:.2f}"
            )
        measured.append(bare)
    return measured


def _site(config, regime, n, servers, policy, tag, created, flood=0):
    """The site's tables measured (with ``flood`` sockets flooding meanwhile), and its
    players."""
    tag = f"{tag}-{regime}-{n}" + (f"-flood{flood}" if flood else "")
    make = make_pairs if regime == "together" else make_players
    players = make(config.game, config.level, n, tag)
    created += players
    flooders = make_players(config.game, config.level, flood, f"{tag}-f") if flood else []
    created += flooders

    def replace(player):
        return new_table(config.game, config.level, player)

    reviewed = _start_reviews(config, servers, tag, created)
    site, codes, (wall0, wall1) = asyncio.run(
        measure_site(
            servers.urls,
            players,
            regime=regime,
            seconds=config.seconds,
            think=config.think if regime != "closed" else 0.0,
            policy=policy,
            replace=replace,
            pids=servers.pids,
            reads=config.reads,
            flood=flooders,
        )
    )
    site.tables = n  # "together": two clients per table
    site.actions = count_actions(sorted(set(codes)), wall0, wall1)  # the flood's apart
    if reviewed:
        site.reviews = _reviews_progress(reviewed)
    return site, players
