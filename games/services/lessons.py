"""Guided first hands: a lesson's table begun (or the learner's unfinished one again), its
question answered, and what a player has finished (games.lessons says what a lesson is)."""

from __future__ import annotations

from django.db import transaction

from games import lessons
from games.models import LessonProgress, Table
from games.registry import table_game
from games.services.seating import one_hand_table
from games.services.store import Refused
from games.services.unit import Unit, _locked_seat

# The level the computer players show at a lesson's table (they follow its script).
LESSON_LEVEL = "easy"


def start_lesson(user, game_name: str) -> Table:
    """The learner's lesson of ``game_name``: their unfinished lesson table, or a new one
    dealt from the lesson's deal, with ``user`` in seat 0 and the script's players around."""
    try:
        gspec = table_game(game_name)
    except KeyError as e:
        raise Refused("no_lesson") from e
    lesson = gspec.lesson
    if lesson is None:
        raise Refused("no_lesson")
    with transaction.atomic():
        progress, _new = LessonProgress.objects.select_for_update().get_or_create(
            user=user, game=game_name
        )
        running = progress.table
        if running is not None and running.is_active and running.lesson is not None:
            return running
        table = one_hand_table(
            Unit(),
            user,
            game_name,
            {"deal": lesson.deal, "dealer": lesson.dealer},
            {**gspec.info.default_options, **(lesson.options or {})},
            [LESSON_LEVEL] * (len(lesson.deal["hands"]) - 1),
            level=LESSON_LEVEL,
            lesson={"offset": 0, "quiz": False},
        )
        progress.table = table
        progress.save(update_fields=["table"])
    return table


def answer_quiz(code, user, choice) -> Table:
    """The learner taps one of the question's choices: the right one lets the step's move be
    made (a new version, no card moved); another is refused with the rule that decides."""
    with transaction.atomic():
        unit = Unit()
        table, seat = _locked_seat(code, user)
        lesson = table_game(table.game).lesson if table.lesson is not None else None
        if lesson is None or seat != lessons.LEARNER or not table.is_active:
            raise Refused("no_lesson")
        index = lessons.at(table.lesson, table.version)
        quiz = lessons.quiz_pending(lesson, table.lesson, index)
        if quiz is None:
            raise Refused("not_your_turn")
        if not isinstance(choice, int) or not 0 <= choice < len(quiz.choices):
            raise Refused("bad_frame")
        if choice != quiz.answer:
            raise Refused("lesson_quiz_wrong", {"game": table.game, "step": index})
        table.lesson = {**table.lesson, "offset": table.lesson["offset"] + 1, "quiz": True}
        table.version += 1
        table.save(update_fields=["lesson", "version", "updated_at"])
        unit.notify(table)
    return table


def finished_lessons(user) -> set[str]:
    """The games whose lesson ``user`` has finished."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(
        LessonProgress.objects.filter(user=user, finished_at__isnull=False).values_list(
            "game", flat=True
        )
    )
