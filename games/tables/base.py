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
    # A table of one hand (a deal played again, a lesson, a deal of the day): no match of
    # several hands, whatever the game's own length.
    one_hand: bool = False

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
    # context(table, view, seat, selected): the board's context; parts(context): it as parts
    # (``Plan``), drawn by the game's parts.jinja.
    "presenter": ("context", "parts"),
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


# -- a board as parts (``presenter.parts(context)``)


@dataclass(frozen=True)
class Plan:
    """A viewer's board as parts: each part one region of the board (``parts``: its name ->
    the macro that draws it and that macro's arguments, in the board's order; "root" is the
    board's opening tag), drawn by the game's ``parts.jinja`` (or the shared board's) from
    those arguments alone. A socket that has the board before compares the arguments and
    draws only the parts whose arguments changed, before any template runs
    (``games.views_live``). ``skeleton``: everything the board's markup outside its parts
    reads; a board whose skeleton or list of parts changed is drawn whole."""

    skeleton: tuple
    parts: dict[str, tuple[str, tuple]]

    def same_shape(self, other: Plan) -> bool:
        return self.skeleton == other.skeleton and tuple(self.parts) == tuple(other.parts)


def seat_part(seat: dict) -> tuple[str, tuple]:
    """A seat around the felt as a part (its macro ``seat``), drawn from the seat's facts but
    whose turn it is: the board's opening tag carries that for every seat
    (``seats_to_move``), so a reply that hands the turn on draws the seat that played and not
    the one to move next."""
    return ("seat", ({k: v for k, v in seat.items() if k != "to_move"},))


def seats_to_move(seats) -> str:
    """The seats to move, by index, as the board's opening tag says it (``data-to-move``; the
    style marks those seats from it)."""
    return " ".join(str(s["index"]) for s in seats if s.get("to_move"))


def board_plan(context: dict, parts: dict[str, tuple[str, tuple]]) -> Plan:
    """A game's board as a ``Plan``: its own ``parts`` (its opening tag, "root", among them)
    with the parts every board has (the shared board's macros), and the skeleton every
    board.jinja reads besides them (whether there is a lesson's guide, a people's row)."""
    common = {
        "announce": ("part_announce", (context["announce"],)),
        "status": ("part_status", (context["status"],)),
        "fast": ("part_fast", (context["bots_moving"], context["spectator"])),
    }
    if context.get("guide"):
        common["guide"] = ("part_guide", (context["guide"],))
    people = context.get("people")
    if people:
        common["people-row"] = ("part_people", (people, context["table"].spectators))
    return Plan(skeleton=(bool(context.get("guide")), bool(people)), parts={**common, **parts})


# -- a guided first hand (``lesson.LESSON``, optional: games.lessons runs it)


@dataclass(frozen=True)
class Quiz:
    """A question the guide asks before a step's move, answered by tapping one of its
    choices (each a few cards)."""

    question: Any  # lazy text
    choices: tuple[tuple[str, ...], ...]  # each choice: card codes, drawn as cards
    answer: int  # the index of the right choice
    right: Any  # said when the right choice is tapped: why it is right
    wrong: Any  # said when another is tapped: the rule that decides


@dataclass(frozen=True)
class Step:
    """The guide at one of the learner's moves (seat 0 is always the learner)."""

    say: Any  # two or three sentences: what is happening and why, and what to do
    # CSS selectors of the board's parts the step speaks of, highlighted (the cards of the
    # step's move are highlighted anyway).
    point: tuple[str, ...] = ()
    # Said when the learner makes a legal move other than the lesson's: why the lesson
    # wants its own (the machinery says something general without it).
    why: Any = None
    # Said while the others answer this move (until the learner's next step).
    after: Any = None
    quiz: Quiz | None = None  # asked before this step's move may be made


@dataclass(frozen=True)
class Lesson:
    """A prepared hand played at a real table: the deal, every move in the order the table
    applies them (the computer players' and the learner's), and the guide's steps."""

    deal: dict  # a ``dealt`` record, the learner's cards in seat 0
    dealer: int | None  # as ``new_match_from_deal`` takes it
    # Every move of the hand: (seat, action as the engine's ``read`` logs it). At a deal
    # whose first decision every seat makes at once, the computer players' come first, in
    # seat order (they decide as the hand is dealt), then the learner's.
    script: tuple[tuple[int, dict], ...]
    steps: dict[int, Step]  # by the index in ``script`` of each of the learner's moves
    intro: Any  # the guide's first words, before the first step's
    summary: tuple[Any, ...]  # the rules the hand showed, one line each, at its end
    options: dict | None = None  # the table's options (None: the game's defaults)
