"""What one table socket remembers between frames, as plain classes (no Channels, no event
loop, no database), so that the consumer stays a shell and this is tested on its own.

``Drawing``: the boards the socket has sent and is to send. Notices ("table changed, version
N") arrive at any time, also while a board is being drawn on the database's thread; a draw
in progress is never doubled, and the notices that came meanwhile coalesce into one more
draw of the newest state. ``Allowance``: how many frames of each kind a person may send, and
at which priority the socket's moves go to the database's thread.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from games.live import NORMAL, URGENT

# Read requests per socket: a burst of this many, then this many per second.
READS_BURST, READS_PER_SECOND = 8, 4.0
# Hints per socket: each is a bot's choice and a whole board, at a person's priority. Enough
# to step through a dozen suggestions in a row; beyond that, a refusal, not a board.
HINTS_BURST, HINTS_PER_SECOND = 12, 4.0
# Moves and the table's commands per socket: a person plays a card or two a second, a held
# key sends one (table.js), browser tests at zero pause a few a second. A flood of refused
# moves drew a whole board each on the process's one database thread at a person's
# priority and slowed every table (findings 3.3: 20 sockets x 100 frames kept it busy 69 s).
# Beyond this, a refusal without a board.
MOVES_BURST, MOVES_PER_SECOND = 30, 10.0
# After this many refused moves in a row, a socket's moves wait behind the boards being
# drawn for everyone (NORMAL) instead of going first (URGENT): a person rarely has three
# refused in a row; a flood has nothing else. Its next applied move restores it.
REFUSED_BEFORE_DEMOTED = 3
# A move on its way is drawn this long after its time: never before it, whatever the timer's
# resolution (a draw that came too early finds nothing new and waits again).
DRAW_SLACK_SECONDS = 0.005


class TokenBucket:
    """A per-socket rate limit that costs no database trip."""

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Allowance:
    """A person's pace of frames on one socket."""

    def __init__(self) -> None:
        self.reads = TokenBucket(READS_BURST, READS_PER_SECOND)
        self.hints = TokenBucket(HINTS_BURST, HINTS_PER_SECOND)
        self.moves = TokenBucket(MOVES_BURST, MOVES_PER_SECOND)
        self.refused_in_row = 0  # moves refused one after another (REFUSED_BEFORE_DEMOTED)

    def action_refused(self, kind) -> str | None:
        """The refusal of a hint or move beyond a person's pace, or None to go ahead."""
        if kind == "hint":
            return None if self.hints.take() else "slow_hints"
        return None if self.moves.take() else "slow_moves"

    def priority(self) -> int:
        return NORMAL if self.refused_in_row >= REFUSED_BEFORE_DEMOTED else URGENT

    def answered(self, refused: bool) -> None:
        self.refused_in_row = self.refused_in_row + 1 if refused else 0


@dataclass(frozen=True)
class Read:
    """One draw's read of the table: the versions the page has (``since``: "" if none is
    newer) and the one a notice named (``committed``: this process's copy of the table as
    it committed then serves without a read; None: read it)."""

    since: int
    committed: int | None


class Drawing:
    """The boards one socket has sent (``rendered``: the newest version) and is to send."""

    def __init__(self) -> None:
        self.rendered = -1
        self.notified = -1  # the newest version a notice named
        self.drawing = False  # a draw (of one or more boards) is under way
        self.pending = False  # a notice came since the draw under way read the table
        self.reread = False  # what changed made no new version (presence): read, draw again

    def notice(self, version: int, refresh: bool = False) -> bool:
        """A notice of ``version`` (``refresh``: the viewer's board changed without a new
        version). True: the caller is to draw now, each ``next_read()`` until None."""
        if refresh:
            self.rendered = min(self.rendered, version - 1)  # draw it again
            self.reread = True
        if version <= self.rendered:
            return False  # this viewer has already seen that version
        self.notified = max(self.notified, version)
        self.pending = True
        if self.drawing:
            return False  # coalesce: the draw under way draws the newest state once more
        self.drawing = True
        return True

    def next_read(self) -> Read | None:
        """The next board's read, or None when the draw is over (nothing came meanwhile)."""
        if not self.pending:
            self.drawing = False
            return None
        self.pending = False
        # A change without a new version (presence) is drawn even when a draw that read the
        # table before it has since sent that version.
        read = Read(
            since=-1 if self.reread else self.rendered,
            committed=None if self.reread else self.notified,
        )
        self.reread = False
        return read

    def stopped(self) -> None:
        """The draw under way ended early (an error): the next notice draws again."""
        self.drawing = False

    def sent(self, version: int) -> None:
        self.rendered = max(self.rendered, version)

    @staticmethod
    def delay(due: float, now: float) -> float:
        """Seconds from ``now`` until a move on its way, shown at ``due``, is drawn."""
        return max(0.0, due - now) + DRAW_SLACK_SECONDS
