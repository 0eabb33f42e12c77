"""Rendering for the live channel (sync; the consumer calls it through one thread hop).

``snapshot`` renders a viewer's whole board; ``handle`` applies one frame from the browser
through the services and answers with the new board, or with a translated refusal.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from django.core.exceptions import SynchronousOnlyOperation
from django.template import engines
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import frames, lessons, messages, metrics, services
from games.registry import table_game
from games.summary import summarize
from games.tables.common import LEVEL_CHOICES, frame_cards


def open_tables() -> list[dict]:
    """The lobby's list of public tables waiting for people."""
    rows = []
    for table in services.open_tables():
        summary = summarize(table)
        rows.append(
            {
                "game": summary.game_label,
                "host": summary.seats[0].name,
                "free": sum(1 for s in table.seat_list if s.is_open and not s.reserved_for_id),
                "invite": table.invite,
            }
        )
    return rows


# Parts of a board that a page loads only once its player opens them (a round's log): a
# socket's frames carry them while they are open (the page says so, ``"open"`` frames).
OPENABLE = frozenset({"log"})


def opened_after(opened: frozenset, data: dict) -> frozenset | None:
    """The parts a page has open after its ``open`` frame (``{"part", "open": "1"|"0"}``),
    or None when the frame names no part a board opens."""
    part = data.get("part")
    if not isinstance(part, str) or part not in OPENABLE:
        return None
    return opened | {part} if data.get("open") in ("1", 1, True) else opened - {part}


def board_context(board: services.Board, user, selected=(), opened=frozenset()) -> dict:
    """One viewer's board (``services.board``) as its template's context: their seat's
    observation through the game's presenter (before a shared table's match, its waiting
    room), with the parts the page has open (``OPENABLE``; a page's first render has none).
    Reads nothing: everything comes from the board."""
    if board.view is None:  # waiting for people, or closed before its match began
        return waiting_context(board, user)
    table, seat, summary = board.table, board.seat, board.summary
    gspec = table_game(table.game)
    context = gspec.present(summary, board.view, seat, selected)
    context["opened"] = opened
    context["waiting"] = False
    context["multi_card"] = gspec.reads_selections
    if board.review_number is not None:
        # The hand just finished: its player may have Hard review their decisions.
        context["review_number"] = board.review_number
    if board.same_deal is not None:
        context["same_deal"] = board.same_deal
    if table.daily_id is not None:
        context["daily"] = True  # its end leads to the day's standings
    if table.lesson is not None and gspec.lesson is not None and seat == lessons.LEARNER:
        context["guide"] = lessons.guide(gspec.lesson, table.lesson, table.version, over=board.over)
    if table.shared:
        own = next((s for s in summary.seats if s.index == seat), None)
        context["people"] = {
            "reactions": reaction_labels() if seat is not None else {},
            "autoplay": own is not None and own.autoplay and not own.left,
            "watchers": summary.watchers,
            # The turn timer's deadline, shown to the person it runs for (one still to move).
            "turn_due": summary.turn_due_at if seat in board.to_move else None,
            "again": board.successor,
        }
    return context


def waiting_context(board: services.Board, user) -> dict:
    table, summary, seat = board.table, board.summary, board.seat
    seats = []
    for s in table.seat_list:
        seats.append(
            {
                "index": s.index,
                "name": summary.seats[s.index].name,
                "bot": s.is_bot,
                "level": s.bot_level,
                "open": s.is_open,
                "reserved": s.is_open and s.reserved_for_id is not None,
                "kept_for": board.kept_for.get(s.index, ""),
                "mine": s.index == seat,
                "host": s.user_id is not None and s.user_id == table.owner_id,
                "presence": summary.seats[s.index].presence,
            }
        )
    return {
        "waiting": True,
        "table": summary,
        "seats": seats,
        "viewer": seat,
        "spectator": seat is None,
        "is_host": user is not None and table.owner_id == getattr(user, "pk", None),
        "closed": table.status != table.Status.WAITING,
        "ready": not any(s["open"] for s in seats),
        "invite": table.invite,
        "short_code": table.short_code,
        "public": table.public,
        "version": table.version,
        "level_choices": LEVEL_CHOICES,
        "match_over": True,
    }


@dataclass(frozen=True)
class Frame:
    """What a socket sends its page for one read of the table: ``html`` (a board, a toast,
    or "" when there is nothing new) drawn at ``version`` (-1: no board, nothing the page
    shows changes). ``due``: when the next of the moves on their way shows (seconds since
    the epoch, ``services.as_shown``), for the socket to draw it then; ``whole``: sent
    whole, never as a patch (a hint's cards replace whatever the page had selected, which a
    patch against the last board sent knows nothing of); ``refused``: the answer to a frame
    the site refused; ``ahead``: draws the moves on their way, each as it will show, with its
    time (``_ahead``). Unpacks as ``html, version``."""

    html: str
    version: int
    due: float | None = None
    whole: bool = False
    refused: bool = False
    drawn: dict | None = field(default=None, compare=False, repr=False)
    parts: frames.Patch | None = field(default=None, compare=False, repr=False)
    # () -> the moves on their way, each drawn as it will show: (when, frame) pairs
    ahead: Callable[[], tuple] | None = field(default=None, compare=False, repr=False)

    def __iter__(self):
        return iter((self.html, self.version))


def _frame(html: str, table, **kind) -> Frame:
    return Frame(html, table.version, getattr(table, "next_shown_at", None), **kind)


def _board(
    board: services.Board,
    user,
    selected=(),
    toast: str = "",
    hint: dict | None = None,
    opened=frozenset(),
    seen=None,
    **kind,
) -> Frame:
    """``seen``: the regions of the last board the socket sent (``Frames.seen``), which this
    one takes as they are where their inputs are equal (``frames.Seen``). A board is drawn as
    parts (``TableGame.plan``): for a socket that has a board of the same shape, only the
    parts whose arguments changed are drawn, a patch (``frames.Patch``)."""
    context = board_context(board, user, selected, opened)
    context["toast"] = toast
    context["hint"] = hint
    context["user"] = user
    seen = frames.NOTHING_SEEN if seen is None else seen
    gspec = table_game(board.table.game)
    plan = None if context["waiting"] else gspec.plan(context)
    toast_html = _toast(toast)
    # A hand's summary or the match's end is drawn whole, and so is the board after it.
    over = bool(context.get("result") or context.get("match_over"))
    last = seen.get(PLAN)
    fits = last is not None and plan is not None and last.same_shape(plan)
    if fits and not over and not kind.get("whole"):
        return _patch(gspec, board.table, context, plan, last, seen, toast_html, **kind)
    html, drawn = _whole(gspec, context, plan, seen, toast_html)
    if over:
        drawn.pop(PLAN, None)
    return _frame(html, board.table, drawn=drawn, **kind)


PLAN = "@plan"  # a socket's last board's plan, kept beside its regions (``Seen.drawn``)


def _whole(gspec, context: dict, plan, seen, toast_html: str) -> tuple[str, dict]:
    """The whole board (its parts through ``part(name)``) and its regions as drawn."""
    drawing = frames.Seen()
    context["_seen"] = seen
    context["_drawing"] = drawing
    html = frames.lean(board_html(gspec.name, context, plan) + toast_html)
    drawn = drawing.drawn
    if plan is not None:
        drawn[PLAN] = plan
    return html, drawn


def _patch(gspec, table, context, plan, last, seen, toast_html: str, **kind) -> Frame:
    """The parts of a board whose arguments changed since the socket's last board, drawn
    alone (``frames.Patch``)."""
    drawing = frames.Seen()
    drawer = engines["boards"].env.parts(gspec.parts_template, context["words"], seen, drawing)
    changed = {}
    for name, entry in plan.parts.items():
        if name != "root" and entry != last.parts[name]:
            changed[name] = frames.lean(frames.inside(drawer.draw(*entry), name))
    root = frames.lean(drawer.draw(*plan.parts["root"]))
    drawn = {**seen, **drawing.drawn, PLAN: plan}
    language = translation.get_language()

    def whole() -> tuple[str, dict]:
        with translation.override(language):
            return _whole(gspec, context, plan, frames.NOTHING_SEEN, toast_html)

    changed["toast"] = frames.inside(toast_html, "toast")  # goes with every patch
    patch = frames.Patch(root, changed, seen, whole)
    return _frame("", table, drawn=drawn, parts=patch, **kind)


def _toast(message: str) -> str:
    """The toast region: the message, or (most boards) none."""
    if not message:
        return _no_toast()
    return render_to_string("games/_toast.html", {"message": message}).strip()


@functools.cache
def _no_toast() -> str:
    return render_to_string("games/_toast.html", {"message": ""}).strip()


def board_html(game: str, context: dict, plan=None) -> str:
    """The board of a viewer's context: a game's board (Jinja2, ``cardsite/jinja.py``), its
    parts drawn through ``part(name)`` (``plan``, else the game's plan of the context), or a
    table for people's waiting room before its match."""
    if context["waiting"]:
        return render_to_string("games/_waiting.html#board", context)
    gspec = table_game(game)
    plan = plan or gspec.plan(context)
    seen = context.setdefault("_seen", frames.NOTHING_SEEN)
    drawing = context.setdefault("_drawing", frames.Seen())
    drawer = engines["boards"].env.parts(gspec.parts_template, context["words"], seen, drawing)
    context["part"] = lambda name: drawer.draw(*plan.parts[name])
    return mark_safe(render_to_string(gspec.board_template, context, using="boards"))


@dataclass(frozen=True)
class Opening:
    """What a socket learns once, at connect."""

    frame: Frame | None  # None: the viewer may not watch this table
    game: str
    shared: bool


def opening(code, user, language: str) -> Opening | None:
    """A socket's first frame and the table's game (in one read), or None for no table."""
    with translation.override(language):
        try:
            board = services.look(code, user)
        except services.Refused:
            return None
        frame = _board(board, user) if board.may_watch else None
        return Opening(frame, board.table.game, board.table.shared)


def snapshot(
    code,
    user,
    language: str,
    since: int = -1,
    selected=(),
    toast: str = "",
    committed=None,
    opened=frozenset(),
    seen=None,
):
    """A viewer's board, or "" when it has seen this version already (``since``), or None.

    ``committed``: the version a notice named, when the table as committed at that version
    serves (``services.committed_table``) instead of a read. ``opened``: the parts of the
    board the page has open (``OPENABLE``)."""
    with translation.override(language):
        try:
            board = services.look(code, user, committed, since=-1 if toast else since)
        except services.Refused:
            return None
        return _seen(board, user, selected=selected, toast=toast, opened=opened, seen=seen)


def drawn(code, user, language: str, since: int, opened=frozenset(), seen=None) -> Frame | None:
    """The next move on its way, drawn from this process's copy of the table without the
    database (so in the socket's own thread, without a hop to the database's): None when
    there is no copy or the board needs a read after all (the caller then snapshots)."""
    with translation.override(language):
        try:
            return _seen(
                services.look(code, user, since=since, kept_only=True),
                user,
                opened=opened,
                seen=seen,
            )
        except SynchronousOnlyOperation:
            return None  # something of the board is not in the copy: read it in its thread


def _seen(board: services.Board | None, user, **kind) -> Frame | None:
    """A looked-up board's frame: "" when the viewer has its version already, None when there
    is none or the viewer may not watch, else the board drawn."""
    if board is None:
        return None
    if board.unchanged:
        return _frame("", board.table)
    return _board(board, user, **kind) if board.may_watch else None


def read(code, user, language: str, data: dict) -> str:
    """A read request: what the player's selected cards are as a play now, in words. Not a
    move: no version, nothing changes, only the reading's line is sent back."""
    with translation.override(language):
        try:
            seen = services.seat_view(code, user)
        except services.Refused:
            return ""
        if seen is None or not table_game(seen[0].game).reads_selections:
            return ""
        table, view = seen
        text = table_game(table.game).read_selection(view, frame_cards(data.get("cards")))
        return render_to_string(
            "games/combo/reading.jinja", {"text": text, "oob": True}, using="boards"
        )


def _toast_only(code: str, params=None, game: str | None = None) -> Frame:
    """A refusal's toast without a board (version -1: nothing the page shows changes)."""
    message = messages.refusal(code, params, game)
    return Frame(render_to_string("games/_toast.html", {"message": message}), -1, refused=True)


def refusal_only(code: str, language: str) -> str:
    """A refusal's toast alone, in ``language``: for a socket that refuses a frame itself."""
    with translation.override(language):
        return _toast_only(code).html


# The table's version is a PositiveIntegerField: no frame can name a larger one.
MAX_VERSION = 2**31 - 1


def _whole_number(value, most: int) -> int | None:
    """A whole number from 0 to ``most`` that a frame names: a JSON integer, or the decimal
    digits the page's forms send (htmx ws-send sends form values as text); else None. Never
    a bool, a float (3.0, 3.5, 1e400, Infinity) or one of int()'s generous readings of text
    (" 3", "3_0", "٣")."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value) if len(value) <= len(str(most)) else None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most:
        return value
    return None


def _version(data) -> int | None:
    """The table version a frame was made for, or None (refused as stale where it counts):
    a move counts only for exactly the version it names."""
    return _whole_number(data.get("version"), MAX_VERSION)


def _action_from_frame(code, data: dict, game: str | None) -> dict | None:
    """The game's move in a frame, or None if the frame holds none it can read."""
    try:
        return table_game(game or services.game_of(code)).action_from_frame(data)
    except RecursionError:
        # A reading sent as JSON text (``frame_combo``) nested deeper than the parser goes:
        # the frame's own size cap still lets that through.
        return None


def _small_number(value) -> int:
    """A count a page sends (how often Hint was pressed): 0 unless a small whole number."""
    return _whole_number(value, 999) or 0


def _seat_index(data) -> int | None:
    return _whole_number(data.get("seat"), 99)


# The table's commands, by the frame's ``action``: each takes the table's code, the user and
# the frame, changes the table through the services (or is refused), and is answered with
# the board as it is then. A hint answers with a board of its own (``_hint``); any other
# action is the game's move (``_move``).
COMMANDS = {
    "next": lambda code, user, data: services.start_next_hand(code, user, _version(data)),
    "fast": lambda code, user, data: services.fast_forward(code, user),
    "level": lambda code, user, data: services.set_level(code, user, data.get("level")),
    # A shared table's own: seating before the match, and taking a seat back.
    "start": lambda code, user, data: services.start_match(code, user),
    "seat": lambda code, user, data: services.set_seat(
        code, user, _seat_index(data), data.get("choice")
    ),
    "take_back": lambda code, user, data: services.take_back(code, user),
    "react": lambda code, user, data: services.react(code, user, data.get("key")),
    "again": lambda code, user, data: services.play_again(code, user),
    # A lesson's question: the choice tapped.
    "quiz": lambda code, user, data: services.answer_quiz(
        code, user, _whole_number(data.get("choice"), 9)
    ),
}


def reaction_labels() -> dict[str, str]:
    """The words of each quick reaction, in the active language."""
    return {
        "hello": "👋 " + _("Hello!"),
        "nice": "👍 " + _("Well played!"),
        "oops": "😅 " + _("Oops!"),
        "thanks": "🙏 " + _("Thanks!"),
        "think": "🤔 " + _("Let me think…"),
        "gg": "🤝 " + _("Good game!"),
    }


def reaction(code, seat, key, language: str) -> str:
    """A reaction's bubble for one socket, in its language (the seat's name is public)."""
    with translation.override(language):
        try:
            table = services.get_table(code)
        except services.Refused:
            return ""
        names = summarize(table).names()
        if seat not in names or key not in services.REACTIONS:
            return ""
        return render_to_string(
            "games/_reaction.html",
            {"name": names[seat]["name"], "label": reaction_labels()[key], "seat": seat},
        )


# One line per frame a player sends (``handle``): which table, seat, kind of action, version,
# outcome and how long it took. Never the frame's cards, nor anything of a hand.
actions_log = logging.getLogger("games.actions")

# The kinds of frame that are not a game's move (a move is logged by its engine type).
COMMAND_KINDS = frozenset({"hint", *COMMANDS})


@dataclass
class _Outcome:
    """What ``handle`` did with one frame, for its log line and the metrics."""

    game: str | None
    kind: str = "unknown"  # a command's name or the move's engine type, never the raw text
    outcome: str = "applied"  # or the refusal code
    seat: int | None = None  # the player's seat, once known


def handle(
    code,
    user,
    language: str,
    data: dict,
    game: str | None = None,
    received=None,
    opened=frozenset(),
    shown: int | None = None,
    seen=None,
):
    """One frame from the browser: a move of the game, or one of the table's own commands.

    ``game``: the table's game when the caller knows it (a socket learns it once, at
    connect), which saves reading it for every move. ``received``: when the frame arrived
    (``time.perf_counter()``), for the log line's duration; now, if not given. ``opened``:
    the parts of the board the page has open (``OPENABLE``). ``shown``: the newest version
    the socket has sent its page; a refusal comes with a board only if the table is newer.
    ``seen``: the regions of the last board it sent (``frames.Seen``).

    A refusal is counted (``games.metrics``); every frame is logged in one line on
    ``games.actions`` at INFO.
    """
    received = time.perf_counter() if received is None else received
    done = _Outcome(game)
    frame = _handle(code, user, language, data, done, opened, shown, seen)
    if done.outcome != "applied":
        metrics.refused(done.game, done.outcome)
    if actions_log.isEnabledFor(logging.INFO):
        _log_action(code, user, data, done, frame, received)
    return frame


def _log_action(code, user, data: dict, done: _Outcome, frame, received: float) -> None:
    seat = done.seat
    version = _version(data)
    answered = frame.version if frame is not None and frame.version >= 0 else None
    ms = round((time.perf_counter() - received) * 1000, 2)
    actions_log.info(
        "table %s seat %s %s v%s: %s (%.1f ms)",
        code,
        seat,
        done.kind,
        version,
        done.outcome,
        ms,
        extra={
            "table": str(code),
            "game": done.game,
            "seat": seat,
            "action": done.kind,
            "version": version,
            "table_version": answered,
            "outcome": done.outcome,
            "duration_ms": ms,
        },
    )


def _handle(
    code, user, language: str, data: dict, done: _Outcome, opened=frozenset(), shown=None, seen=None
):
    with translation.override(language):
        kind = data.get("action")
        command = COMMANDS.get(kind) if isinstance(kind, str) else None
        try:
            if command is not None:
                done.kind = kind
                command(code, user, data)
            elif kind == "hint":
                done.kind = kind
                return _hint(code, user, data, done, opened)
            else:
                return _move(code, user, data, done, opened, seen)
        except services.Refused as e:
            return _refused(code, user, e, done, opened, shown, seen)
        return _answer(done, services.look(code, user), user, opened=opened, seen=seen)


def _answer(done: _Outcome, board: services.Board, user, **kind) -> Frame:
    """The board the frame is answered with; noted for the frame's log line."""
    done.game, done.seat = board.table.game, board.seat
    return _board(board, user, **kind)


def _hint(code, user, data: dict, done: _Outcome, opened) -> Frame:
    board = services.look(code, user)
    done.game, done.seat = board.table.game, board.seat
    if board.seat is None:
        raise services.Refused("not_seated")
    hint = services.hint_for(board.table, board.seat, _small_number(data.get("n")))
    if hint is None:
        raise services.Refused("not_your_turn")
    selected = hint.get("cards") or ([hint["card"]] if hint.get("card") else [])
    return _answer(done, board, user, selected=selected, hint=hint, opened=opened, whole=True)


def _move(code, user, data: dict, done: _Outcome, opened, seen) -> Frame:
    action = _action_from_frame(code, data, done.game)
    if action is None:
        done.outcome = "bad_frame"
        return _toast_only("bad_frame")
    done.kind = _move_kind(action)
    # The table as the move left it (seats already loaded): drawn as it is, without a read.
    table = services.submit_action(code, user, action, _version(data))
    board = services.board(table, user)
    frame = _answer(done, board, user, opened=opened, seen=seen)
    if frame.due is not None and services.may_hurry(table, board.seat):
        language = translation.get_language()
        ahead = functools.partial(_ahead, table, user, language, frame, opened, board.summary)
        frame = replace(frame, ahead=ahead)
    return frame


AHEAD = 16  # replies sent ahead at most (a move brings a few: until the person moves again)


def _ahead(
    table, user, language: str, frame: Frame, opened, summary=None
) -> tuple[tuple[float, Frame], ...]:
    """The computer players' replies on their way after a person's move (``frame``, its
    answer), each drawn now as it will show at its time (``services.board(…, at)``, a patch
    of the one before it), from the table as the move left it: sent right after the answer,
    the page shows each when its time comes (one message, no read and no timer per reply).
    Only to a person who may show them at once (``services.may_hurry``, the fast-forward
    button): the others at the table and the spectators get each at its time, as before.
    Called by the socket after the answer is sent, in its own thread (``Frame.ahead``).
    ``summary``: the answer's (``services.board``'s ``summary``), which every reply shares."""
    steps: list[tuple[float, Frame]] = []
    with translation.override(language):
        while frame.due is not None and len(steps) < AHEAD:
            at = frame.due
            board = services.board(table, user, at, summary)
            frame = _seen(board, user, opened=opened, seen=frame.drawn)
            if frame is None or not (frame.html or frame.parts is not None):
                break
            steps.append((at, frame))
    return tuple(steps)


def _refused(code, user, e: services.Refused, done: _Outcome, opened, shown, seen) -> Frame:
    done.outcome = e.code
    if e.code == "no_such_table":
        return _toast_only(e.code)
    if e.seat is not None:
        done.seat = e.seat
    if shown is not None and e.version is not None and e.version <= shown:
        # The service saw the table at a version the page has already (or on its way): the
        # refusal alone, without reading the table again or drawing the board (a flood of
        # refused moves drew one each).
        return _toast_only(e.code, e.params, done.game)
    board = services.look(code, user)
    done.game, done.seat = board.table.game, board.seat
    if shown is not None and board.version <= shown:
        return _toast_only(e.code, e.params, done.game)
    # The board comes with the refusal, so a stale page catches up at once.
    toast = messages.refusal(e.code, e.params, done.game)
    return _board(board, user, toast=toast, opened=opened, seen=seen, refused=True)


def _move_kind(action: dict) -> str:
    """A move's engine type ("play", "bid", …) for the log: a short word of the engine's own,
    never the frame's text (which a page could fill with anything, cards included)."""
    kind = action.get("type")
    return kind if isinstance(kind, str) and kind.isidentifier() and len(kind) <= 20 else "move"
