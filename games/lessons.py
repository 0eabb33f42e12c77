"""A guided first hand (a game plug-in's ``lesson.LESSON``, typed in ``games.tables.base``).

A lesson is played at a real table (``Table.lesson``): a fixed deal, every move scripted. The
computer players make the script's moves; the learner (always seat 0) may make only the
script's move at each of their steps, and the guide says what is happening and why. Here
what every layer asks of a lesson, from the table's version alone: which move is due, whether
a move is the lesson's, and what the guide shows. Nothing here reads or writes a table.
"""

from __future__ import annotations

from games.tables.base import Lesson, Step
from games.tables.common import Card

LEARNER = 0


def at(progress: dict, version: int) -> int:
    """The index in the script of the move due at ``version`` (``Table.lesson``'s offset
    counts the versions that moved no card: a quiz answered)."""
    return version - int(progress.get("offset", 0))


def scripted(lesson: Lesson, index: int, seat: int) -> dict | None:
    """The script's move for ``seat`` at ``index``, or None (not that seat's, or past the
    script's end: the table's own bots take over)."""
    if 0 <= index < len(lesson.script) and lesson.script[index][0] == seat:
        return lesson.script[index][1]
    return None


def _key(action: dict) -> tuple:
    """A move as compared: its cards in any order, everything else as it is."""
    out = []
    for name, value in sorted(action.items()):
        if isinstance(value, list):
            value = tuple(sorted(map(str, value)))
        elif isinstance(value, dict):
            value = _key(value)
        out.append((name, value))
    return tuple(out)


def same_move(a: dict, b: dict) -> bool:
    return _key(a) == _key(b)


def learner_steps(lesson: Lesson) -> list[int]:
    return [i for i, (seat, _action) in enumerate(lesson.script) if seat == LEARNER]


def step_due(lesson: Lesson, index: int) -> Step | None:
    """The learner's step at ``index``, if the move due there is theirs."""
    return lesson.steps.get(index) if scripted(lesson, index, LEARNER) is not None else None


def quiz_pending(lesson: Lesson, progress: dict, index: int):
    """The quiz the learner must answer before the move at ``index``, or None."""
    step = step_due(lesson, index)
    if step is None or step.quiz is None or progress.get("quiz"):
        return None
    return step.quiz


def pointed(lesson: Lesson, index: int) -> list[str]:
    """The selectors the guide highlights at ``index``: the step's own, and the cards of its
    move in the hand."""
    step = step_due(lesson, index)
    if step is None:
        return []
    move = lesson.script[index][1]
    cards = move.get("cards") or ([move["card"]] if move.get("card") else [])
    return [*step.point, *(f"#hand-{c}" for c in cards)]


def guide(lesson: Lesson, progress: dict, version: int, *, over: bool) -> dict:
    """What the guide panel shows at ``version``, its texts in the active language."""
    index = at(progress, version)
    steps = learner_steps(lesson)
    count = len(steps)
    if over:
        return {
            "over": True,
            "number": count,
            "count": count,
            "summary": [str(line) for line in lesson.summary],
            "point": [],
        }
    done = sum(1 for i in steps if i < index)
    out = {
        "over": False,
        "count": count,
        "number": min(done + 1, count),
        "intro": str(lesson.intro) if done == 0 else "",
        "point": [],
        "mine": False,
    }
    step = step_due(lesson, index)
    if step is None:
        # The others are to move: what the learner's last step said would follow (the step
        # still counts as the one under way until the learner's next).
        out["number"] = max(done, 1)
        last = lesson.steps.get(steps[done - 1]) if done else None
        out["say"] = str(last.after) if last is not None and last.after else ""
        return out
    out["mine"] = True
    quiz = quiz_pending(lesson, progress, index)
    if quiz is not None:
        out["quiz"] = {
            "question": str(quiz.question),
            "choices": [[Card(code) for code in c] for c in quiz.choices],
        }
        return out
    if step.quiz is not None:
        out["right"] = str(step.quiz.right)
    out["say"] = str(step.say)
    out["point"] = pointed(lesson, index)
    return out
