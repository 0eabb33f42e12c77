"""What a table plug-in is given and what it must provide (see ``games.tables``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True)
class Labels:
    """A game's wording on the site (lazy translations: read in the viewer's language)."""

    name: Any
    subtitle: Any  # the name in English words: "Chase the Pig"
    players: Any  # "4 players"
    suits: str  # two suit symbols for the lobby card's art
    blurb: Any  # the lobby card's two sentences


@dataclass(frozen=True)
class SeatSummary:
    index: int
    name: str
    is_bot: bool  # the machinery moves for it: a computer player or a person on auto-play
    level: str  # the computer player's level, or "auto-play", in words ("" for a person)
    # At a table for people: whether a person sits (or is to sit) here, whether a computer
    # plays for them now, and their presence ("connected", "reconnecting", "away"; "" else).
    person: bool = False
    autoplay: bool = False
    left: bool = False
    presence: str = ""


@dataclass(frozen=True)
class TableSummary:
    """The public facts of a table that a page may show: no seed, no state."""

    code: str
    game: str
    status: str
    level: str
    options: dict = field(default_factory=dict)
    seats: tuple[SeatSummary, ...] = ()
    game_label: str = ""
    status_label: str = ""
    created_at: datetime | None = None
    # A table for people: its host's seat, how many watch, the turn timer and its deadline.
    shared: bool = False
    spectators: bool = False
    watchers: int = 0
    turn_seconds: int = 0
    turn_due_at: datetime | None = None

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    @property
    def resigned(self) -> bool:
        return self.status == "resigned"

    @property
    def waiting(self) -> bool:
        return self.status == "waiting"

    def others_waiting(self, seat: int | None) -> bool:
        """Another person plays here (not on auto-play): the bots keep their pace for them."""
        return any(s.person and not s.is_bot and s.index != seat for s in self.seats)

    def names(self) -> dict[int, dict]:
        """Each seat's name, whether it is a bot, and its level: what presenters show."""
        return {s.index: {"name": s.name, "is_bot": s.is_bot, "level": s.level} for s in self.seats}


class Presenter(Protocol):
    def context(
        self, table: TableSummary, view: dict, seat: int | None, selected: Sequence[str] = ()
    ) -> dict:
        """The board for one viewer (``seat`` None: a spectator, shown from seat 0)."""


class Frames(Protocol):
    def action(self, data: dict) -> dict | None:
        """The engine action a browser frame asks for, or None if it asks for none."""

    def frame(self, move: dict) -> dict:
        """The frame the table's own forms send for an engine action (``action``'s inverse:
        tests and load clients play through it)."""


class Replay(Protocol):
    def context(self, table: TableSummary, hand, steps: list | None, names: dict) -> dict:
        """A finished hand: from the rebuilt ``steps`` (seat, action, public view), or from
        the record when they are None (the rules changed since)."""


class Messages(Protocol):
    def refusal(self, code: str, params: dict) -> str | None:
        """The sentence for one of the game's own refusal codes, or None if not its own."""


# The hooks the machinery calls, module by module: a table plug-in must define every one.
HOOKS: dict[str, tuple[str, ...]] = {
    "presenter": ("context",),
    "frames": ("action", "frame"),
    "replay": ("context",),
    "messages": ("refusal",),
    # A player's figures on their page: facts(hands) with hands = [(breakdown, seat), …] of
    # the finished hands they played; a list of {"label", "value"}.
    "stats": ("facts",),
    # A hand's review (games.reviews): position(observation) keeps, as plain data, what the
    # page shows of a decision's position (the seat's hand, "table": [{"seat", "cards"}], and
    # the game's own facts); note(position, names) says it in a sentence.
    "review": ("position", "note"),
}
