"""Learn to play: each game's guided first hand is legal under its engine, and its table takes
only the lesson's moves, explains every other, asks its question, and marks the lesson done."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games import lessons, messages, services, views_live
from games.engine import IllegalAction
from games.models import LessonProgress, Table
from games.registry import table_game, table_games
from games.tables.common import Card
from tests.games.people import player

pytestmark = pytest.mark.django_db

WITH_LESSONS = [g.name for g in table_games() if g.lesson is not None]
LISTED = [g for g in WITH_LESSONS if not table_game(g).info.unlisted]


@pytest.fixture(autouse=True)
def _english(settings):
    settings.GAME_PACING = False
    with translation.override("en"):
        yield


def test_every_playable_game_has_a_lesson():
    playable = {g.name for g in table_games() if g.playable and not g.info.unlisted}
    assert playable and playable <= set(WITH_LESSONS)


def _replay(game_name: str):
    """Each state of the lesson's hand before each scripted move, in the table's order."""
    lesson = table_game(game_name).lesson
    game = table_game(game_name).engine
    state = game.new_match_from_deal(lesson.deal, lesson.dealer, lesson.options, seed=1)
    for seat, action in lesson.script:
        yield state, seat, action
        state = game.apply(state, seat, action)
    assert game.hand_over(state), "the script ends the hand"


@pytest.mark.parametrize("game_name", WITH_LESSONS)
def test_a_lessons_script_is_legal_and_its_steps_are_the_learners_moves(game_name):
    lesson = table_game(game_name).lesson
    game = table_game(game_name).engine
    at_once = []
    for i, (state, seat, action) in enumerate(_replay(game_name)):
        movers = game.to_move(state)
        assert seat in movers
        legal = [game.read(state, seat, a) for a in game.legal_actions(state, seat)]
        if i == 0 and len(movers) > 1:
            # Decided at once by every seat as the hand is dealt: the computer players' come
            # first in the script, then the learner's, a real choice (the table would make a
            # forced one for them).
            at_once = [*[m for m in movers if m != lessons.LEARNER], lessons.LEARNER]
        if i < len(at_once):
            assert seat == at_once[i]
            assert seat != lessons.LEARNER or len(legal) > 1
        assert any(lessons.same_move(action, a) for a in legal), (seat, action)
        assert game.read(state, seat, action) == action, "scripted as the engine logs it"
    assert set(lesson.steps) == set(lessons.learner_steps(lesson))
    quizzes = [s.quiz for s in lesson.steps.values() if s.quiz is not None]
    assert len(quizzes) == 1
    quiz = quizzes[0]
    assert 0 <= quiz.answer < len(quiz.choices) and len(quiz.choices) >= 2
    assert lesson.intro and lesson.summary and all(s.say for s in lesson.steps.values())


@pytest.mark.parametrize("game_name", LISTED)
def test_a_lessons_every_word_is_in_german_too(game_name):
    lesson = table_game(game_name).lesson
    texts = [lesson.intro, *lesson.summary]
    for step in lesson.steps.values():
        texts += [t for t in (step.say, step.why, step.after) if t]
        if step.quiz:
            texts += [step.quiz.question, step.quiz.right, step.quiz.wrong]
    for text in texts:
        english = str(text)
        with translation.override("de"):
            assert str(text) != english, english


def _learner_turn(table: Table) -> Table:
    services.run_bots(table.code)
    return services.get_table(table.code)


def _index(table: Table) -> int:
    return lessons.at(table.lesson, table.version)


def _guide(table: Table, user) -> dict:
    """The guide the learner's board shows, its board drawn too (in both languages)."""
    context = views_live.board_context(services.board(table, user), user)
    for language in ("de", "en"):
        with translation.override(language):
            html = views_live.board_html(table.game, context)
            assert 'id="guide"' in html
    return context.get("guide")


def _other_legal(game_name, table, want):
    game = table_game(game_name).engine
    state = services.load_state(table)
    legal = [game.read(state, 0, a) for a in game.legal_actions(state, 0)]
    return next((a for a in legal if not lessons.same_move(a, want)), None)


def test_the_toy_lesson_is_guided_from_its_first_step_to_its_end():
    user = player()
    table = services.start_lesson(user, "toytrick")
    lesson = table_game("toytrick").lesson
    assert table.start and table.lesson == {"offset": 0, "quiz": False}
    assert services.start_lesson(user, "toytrick").pk == table.pk  # begun: the same table
    table = _learner_turn(table)
    guide = _guide(table, user)
    assert guide["number"] == 1 and guide["count"] == 3 and guide["intro"]
    assert guide["say"] == lesson.steps[0].say and "#hand-KH" in guide["point"]
    assert "#trick" in guide["point"]
    # Another legal card: refused with the step's reason, nothing changes.
    with pytest.raises(services.Refused) as refused:
        services.submit_action(table.code, user, {"type": "play", "card": "9H"}, table.version)
    assert refused.value.code == "lesson_other"
    said = messages.refusal(refused.value.code, refused.value.params, "toytrick")
    assert lesson.steps[0].why in said
    assert services.get_table(table.code).version == table.version
    # The Hint names the lesson's move.
    assert services.hint_for(table, 0) == {"type": "play", "card": "KH"}
    with pytest.raises(services.Refused) as refused:
        services.set_level(table.code, user, "hard")
    assert refused.value.code == "no_level_in_lesson"

    table = services.submit_action(table.code, user, {"type": "play", "card": "KH"}, table.version)
    table = _learner_turn(table)
    assert _index(table) == 3
    guide = _guide(table, user)
    assert guide["quiz"]["choices"] == [[Card("AS")], [Card("JH")]] and "say" not in guide
    # Drawn as the page draws it: each choice's cards.
    html = views_live.board_html(
        "toytrick", views_live.board_context(services.board(table, user), user)
    )
    assert 'data-testid="quiz-choice-1"' in html and 'data-card="JH"' in html
    # The question first: a move before it is answered is refused, so is a wrong answer.
    with pytest.raises(services.Refused) as refused:
        services.submit_action(table.code, user, {"type": "play", "card": "JH"}, table.version)
    assert refused.value.code == "lesson_quiz_first"
    with pytest.raises(services.Refused) as refused:
        services.answer_quiz(table.code, user, 0)
    assert refused.value.code == "lesson_quiz_wrong"
    assert "must play a heart" in messages.refusal("lesson_quiz_wrong", refused.value.params)
    with pytest.raises(services.Refused):
        services.answer_quiz(table.code, user, 7)
    table = services.answer_quiz(table.code, user, 1)
    assert table.lesson == {"offset": 1, "quiz": True} and _index(table) == 3
    guide = _guide(table, user)
    assert guide["right"] and guide["say"] == lesson.steps[3].say
    with pytest.raises(services.Refused):
        services.answer_quiz(table.code, user, 1)  # asked once

    # An illegal card is refused by the rule, with the lesson's pointer.
    game = table_game("toytrick").engine
    with pytest.raises(services.Refused) as refused:
        services.submit_action(table.code, user, {"type": "play", "card": "QS"}, table.version)
    assert refused.value.params.get("lesson")
    assert "highlighted" in messages.refusal(refused.value.code, refused.value.params, "toytrick")

    table = services.submit_action(table.code, user, {"type": "play", "card": "JH"}, table.version)
    table = _learner_turn(table)
    table = services.submit_action(table.code, user, {"type": "play", "card": "9H"}, table.version)
    table = _learner_turn(table)
    assert game.hand_over(services.load_state(table))
    assert table.status == Table.Status.FINISHED and not hasattr(table, "rated")
    guide = _guide(table, user)
    assert guide["over"] and guide["summary"] == list(lesson.summary)
    assert services.finished_lessons(user) == {"toytrick"}
    # Taken again: a new table, the lesson still finished.
    again = services.start_lesson(user, "toytrick")
    assert again.pk != table.pk
    assert LessonProgress.objects.get(user=user).finished_at is not None


@pytest.mark.parametrize("game_name", WITH_LESSONS)
def test_a_lesson_plays_through_its_script_with_every_other_move_explained(game_name):
    user = player()
    table = services.start_lesson(user, game_name)
    lesson = table_game(game_name).lesson
    game = table_game(game_name).engine
    for _ in range(len(lesson.script)):
        table = _learner_turn(table)
        if game.hand_over(services.load_state(table)):
            break
        index = _index(table)
        step = lesson.steps[index]
        want = lesson.script[index][1]
        if step.quiz is not None:
            table = services.answer_quiz(table.code, user, step.quiz.answer)
        other = _other_legal(game_name, table, want)
        if other is not None:
            with pytest.raises(services.Refused) as refused:
                services.submit_action(table.code, user, other, table.version)
            assert refused.value.code == "lesson_other"
            said = messages.refusal("lesson_other", refused.value.params, game_name)
            assert said and (step.why is None or str(step.why) in said)
        guide = _guide(table, user)
        assert guide["mine"] and guide["say"] == str(step.say)
        table = services.submit_action(table.code, user, want, table.version)
    assert game.hand_over(services.load_state(table))
    assert services.finished_lessons(user) == {game_name}


def test_a_visitor_starts_a_lesson_from_the_lobby_as_a_guest(client):
    lobby = client.get(reverse("lobby")).content.decode()
    assert 'data-testid="learn-banner"' in lobby  # a first visit: learning comes first
    url = reverse("games:start_lesson", kwargs={"game": LISTED[0]})
    assert f'action="{url}"' in lobby
    assert client.get(url).status_code == 405
    response = client.post(url)
    table = Table.objects.get(lesson__isnull=False)
    assert response.url == reverse("games:table", kwargs={"code": table.code})
    assert table.seats.get(index=0).user.profile.is_guest
    page = client.get(response.url).content.decode()
    assert 'data-testid="guide"' in page
    # Unknown games: not found.
    assert client.post(reverse("games:start_lesson", kwargs={"game": "chess"})).status_code == 404


def test_the_learn_page_and_the_lobby_mark_a_finished_lesson(client):
    user = player()
    client.force_login(user)
    page = client.get(reverse("games:learn")).content.decode()
    for name in LISTED:
        assert f'data-testid="learn-{name}"' in page
        assert f'data-testid="lesson-done-{name}"' not in page
    LessonProgress.objects.create(user=user, game=LISTED[0], finished_at="2026-12-01T10:00Z")
    page = client.get(reverse("games:learn")).content.decode()
    assert f'data-testid="lesson-done-{LISTED[0]}"' in page
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'data-testid="lesson-done-{LISTED[0]}"' in lobby


def test_a_lesson_table_is_not_a_running_match_in_the_lobby(client):
    user = player()
    client.force_login(user)
    services.start_lesson(user, LISTED[0])
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'data-testid="continue-{LISTED[0]}"' not in lobby


def test_only_the_learner_sees_the_guide_and_a_stranger_cannot_answer():
    user, other = player(), player("mia")
    table = _learner_turn(services.start_lesson(user, "toytrick"))
    assert _guide(table, user) is not None
    with pytest.raises(services.Refused):
        services.answer_quiz(table.code, other, 1)
    normal = services.create_table(other, "toytrick", "easy")
    with pytest.raises(services.Refused) as refused:
        services.answer_quiz(normal.code, other, 1)
    assert refused.value.code == "no_lesson"


def test_illegal_action_at_a_lesson_keeps_the_engines_code():
    user = player()
    table = _learner_turn(services.start_lesson(user, "toytrick"))
    with pytest.raises(services.Refused) as refused:
        services.submit_action(table.code, user, {"type": "play", "card": "AS"}, table.version)
    assert refused.value.code == "not_in_hand" and refused.value.params.get("lesson")
    assert isinstance(refused.value.__cause__, IllegalAction)
