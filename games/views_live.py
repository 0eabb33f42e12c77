"""Rendering for the live channel (sync; the consumer calls it through one thread hop).

``snapshot`` renders a viewer's whole board; ``handle`` applies one frame from the browser
through the services and answers with the new board, or with a translated refusal.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from games import messages, services
from games.registry import table_game
from games.summary import summarize


def board_context(table, user, selected=()) -> dict:
    """One viewer's board: their seat's observation through the game's presenter."""
    seat = services.seat_of(table, user)
    view = services.view_for(table, seat)
    return table_game(table.game).present(summarize(table), view, seat, selected)


def _board(table, user, selected=(), toast: str = "", hint: dict | None = None) -> tuple[str, int]:
    context = board_context(table, user, selected)
    context["toast"] = toast
    context["hint"] = hint
    context["user"] = user
    html = render_to_string(table_game(table.game).template + "#board", context)
    html += render_to_string("games/_toast.html", {"message": toast})
    return html, table.version


def opening(code, user, language: str):
    """A socket's first frame and the table's game (in one read), or None for no table."""
    with translation.override(language):
        try:
            table = services.get_table(code)
        except services.Refused:
            return None
        return _board(table, user), table.game


def snapshot(code, user, language: str, since: int = -1, selected=(), toast: str = ""):
    with translation.override(language):
        try:
            table = services.get_table(code)
        except services.Refused:
            return None
        if table.version <= since and not toast:
            return "", table.version
        return _board(table, user, selected=selected, toast=toast)


def _toast_only(code: str, params=None) -> tuple[str, int]:
    return render_to_string("games/_toast.html", {"message": messages.refusal(code, params)}), -1


# The table's version is a PositiveIntegerField: no frame can name a larger one.
MAX_VERSION = 2**31 - 1


def _version(data) -> int | None:
    """The table version a frame was made for, or None (refused as stale where it counts).

    A JSON integer, or the decimal digits the page's forms send (htmx ws-send sends form
    values as text). Never a bool, a float (3.0, 3.5, 1e400, Infinity) or one of int()'s
    generous readings of text (" 3", "3_0", "٣"): a move counts only for exactly the version
    it names.
    """
    value = data.get("version")
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 10:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_VERSION:
        return value
    return None


def _action_from_frame(code, data: dict, game: str | None) -> dict | None:
    """The game's move in a frame, or None if the frame holds none it can read."""
    try:
        return table_game(game or services.game_of(code)).action_from_frame(data)
    except RecursionError:
        # A reading sent as JSON text (``frame_combo``) nested deeper than the parser goes:
        # the frame's own size cap still lets that through.
        return None


def handle(code, user, language: str, data: dict, game: str | None = None):
    """One frame from the browser: a move of the game, or one of the table's own commands.

    ``game``: the table's game when the caller knows it (a socket learns it once, at
    connect), which saves reading it for every move.
    """
    with translation.override(language):
        kind = data.get("action")
        version = _version(data)
        try:
            if kind == "next":
                services.start_next_hand(code, user, version)
            elif kind == "fast":
                services.fast_forward(code, user)
            elif kind == "level":
                services.set_level(code, user, data.get("level"))
            elif kind == "hint":
                table = services.get_table(code)
                seat = services.seat_of(table, user)
                if seat is None:
                    raise services.Refused("not_seated")
                hint = services.hint_for(table, seat)
                if hint is None:
                    raise services.Refused("not_your_turn")
                selected = hint.get("cards") or ([hint["card"]] if hint.get("card") else [])
                return _board(table, user, selected=selected, hint=hint)
            else:
                action = _action_from_frame(code, data, game)
                if action is None:
                    return _toast_only("bad_frame")
                # The table as the move left it (seats already loaded): render it as it is.
                return _board(services.submit_action(code, user, action, version), user)
        except services.Refused as e:
            if e.code == "no_such_table":
                return _toast_only(e.code)
            table = services.get_table(code)
            # The board comes with the refusal, so a stale page catches up at once.
            toast = messages.refusal(e.code, e.params, table.game)
            return _board(table, user, toast=toast)
        return _board(services.get_table(code), user)
