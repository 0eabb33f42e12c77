"""Refusals in the player's language.

The engine and the services refuse with a stable code and params; this module turns them
into sentences: the game's own codes through its plug-in's ``messages``, the codes every
game and the site share here.
"""

from __future__ import annotations

import contextlib

from django.utils.translation import gettext as _

from games.registry import table_game


def _shared(code: str) -> str | None:
    return {
        # engine codes every game uses
        "not_your_turn": _("It is not your turn."),
        "malformed": _("That move was not understood. Please reload the page."),
        "not_in_hand": _("You do not hold that card."),
        "ambiguous": _("Those cards can be read more than one way: choose a reading."),
        "hand_not_over": _("The hand is not over yet."),
        "match_over": _("The match is over."),
        # the site
        "stale": _("The table has moved on since you looked. Here is the current state."),
        "not_seated": _("You are not seated at this table, so you cannot act here."),
        "match_finished": _("This match is finished."),
        "hand_over": _("The hand is over. Start the next hand to play on."),
        "no_such_table": _("There is no such table."),
        "bad_level": _("Choose easy, normal or hard."),
        "no_level_here": _(
            "At a table for people, each computer player's level is chosen before the match."
        ),
        "bad_frame": _("That message was not understood."),
        "bad_seats": _("This game cannot be played with that many players."),
        "bad_options": _("Those table settings are not available."),
        # tables for people
        "not_started": _(
            "The match has not started yet: the host starts it once every seat is taken."
        ),
        "bad_timer": _("Choose a turn timer: off, 30 seconds, 1 minute or 2 minutes."),
        "bad_invitation": _(
            "This invitation is no longer valid: the table has closed or its match is over."
        ),
        "bad_short_code": _("No open table has that code. Check the six letters and digits."),
        "match_started": _("This match has already started: every seat is taken."),
        "table_full": _("Every seat at this table is taken."),
        "seat_taken": _("That seat is already taken."),
        "seats_open": _(
            "Some seats are still free: wait for your guests, or give the seats to computer players."
        ),
        "host_only": _("Only the host can do that."),
        "left_match": _("You left this match: a computer player plays your seat until it ends."),
        "others_waiting": _(
            "Other people are at this table: the computer players keep their pace."
        ),
        "match_not_over": _("The match is not over yet."),
        "too_fast": _("Not so fast: wait a moment before the next reaction."),
        "slow_hints": _("Not so fast: wait a moment before the next hint."),
        "slow_moves": _("Not so fast: wait a moment before the next move."),
        "bad_reaction": _("That reaction is not available at this table."),
        # guided first hands
        "no_lesson": _("There is no lesson for that here."),
        # the deal of the day
        "no_daily": _("There is no deal of the day for that game."),
        "daily_played": _("You have played today's deal of this game already: come back tomorrow."),
        "daily_seen": _(
            "You have seen this deal played, so it cannot count for you: try tomorrow's."
        ),
        "no_level_in_daily": _(
            "Today's deal is played against Hard by everyone, so that the results compare."
        ),
        "no_hint_in_daily": _("No hints on the deal of the day: every decision is your own."),
        "daily_running": _("Finish your own game of this deal first."),
        "no_level_in_lesson": _(
            "In a lesson the computer players follow its script: play a real hand to choose their level."
        ),
    }.get(code)


def refusal(code: str, params: dict | None = None, game: str | None = None) -> str:
    """The sentence for a refused action (``game``: whose own codes to try first)."""
    params = params if isinstance(params, dict) else {}
    lesson = _lesson(code, params)
    if lesson is not None:
        return lesson
    own = table_game(game).refusal(code, params) if game else None
    said = own or _shared(code) or _("That move is not allowed.")
    if params.get("lesson"):
        # At a lesson's table: the rule, and where the lesson's move is.
        pointer = _("The guide shows the move to make: the highlighted cards.")
        return f"{said} {pointer}"
    return said


def _lesson(code: str, params: dict) -> str | None:
    """A refusal at a lesson's table that teaches: why the lesson wants its move, or the
    rule behind a question's answer (the step's own words where it has them)."""
    if code == "lesson_quiz_first":
        return _("Answer the guide's question first: tap one of its choices.")
    if code not in ("lesson_other", "lesson_quiz_wrong"):
        return None
    step = None
    with contextlib.suppress(KeyError, TypeError, AttributeError):
        step = table_game(params["game"]).lesson.steps[params["step"]]
    if code == "lesson_quiz_wrong":
        if step is not None and step.quiz is not None:
            return "{} {}".format(_("Not quite."), step.quiz.wrong)
        return _("Not quite: try another choice.")
    if step is not None and step.why:
        other = _("That move is allowed, but not the one this lesson is about.")
        return f"{other} {step.why}"
    return _(
        "That move is allowed, but this lesson goes another way: play the highlighted cards, and the guide says why."
    )
