"""A person's move at a table where they may show the computer players' replies at once
(fast-forward) is answered with those replies drawn ahead (``views_live._ahead``), sent in one
message after the answer, each with when it shows (``frames.Frames.ahead``): the page applies
each at its time and must then be exactly the board a fresh render gives at that time. Where
another person waits for the replies, nobody is sent them ahead."""

from __future__ import annotations

import random

import pytest

from cardsite.jinja import DRAWN
from games import frames, services, views_live
from games.models import Seat
from games.registry import table_game
from tests.games.conftest import until_moves_on_their_way
from tests.games.test_frames import PLAYABLE, Page
from tests.games.test_shared_tables import two_people


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game", PLAYABLE)
def test_the_replies_sent_ahead_show_each_exactly_as_a_fresh_render_at_its_time(
    game, language, owner, settings, clock
):
    settings.GAME_PACING = True
    table = services.create_table(owner, game, "normal")
    code, gspec = str(table.code), table_game(game)
    sent = frames.Frames()

    def resync():
        sent.reset()
        html, version = views_live.snapshot(code, owner, language)
        return sent.encode(html, version)

    page = Page(resync)
    answers = []

    def play(shown, action):
        # The page as a socket has it when its person moves, then the move's answer.
        page.receive(resync())
        data = {**gspec.frame_for(action), "version": str(shown.version)}
        frame = views_live.handle(code, owner, language, data, game, seen=sent.seen)
        page.receive(sent.message(frame))
        answers.append(frame)

    rng = random.Random(3)
    for _ in range(20):  # until the person's move (not a bot's at its time) brought replies
        raw = until_moves_on_their_way(table, owner, rng, clock, least=1, play=play)
        if answers and answers[-1].version == raw.reveal["steps"][0][1]:
            break
        clock.to(raw.reveal["until"])
    answer = answers[-1]
    assert answer.ahead is not None, "no replies drawn ahead for the person who moved"
    steps = answer.ahead()
    assert [v for _at, v, _state in raw.reveal["steps"][1:]] == [f.version for _a, f in steps[:-1]]
    assert steps[-1][1].version == raw.version  # through to the last reply
    now = clock.now.timestamp()
    message = sent.ahead(steps, now)
    first, *marked = frames.AFTER_MARK.split(message)
    assert first == ""
    shown_at = [int(ms) for ms in marked[::2]]
    assert shown_at == [round((at - now) * 1000) for at, _f in steps]
    assert shown_at == sorted(shown_at) and shown_at[0] > 0
    for (at, _frame), step in zip(steps, marked[1::2], strict=True):
        page.receive(step)
        clock.to(at)  # its time: what every other viewer is drawn now
        DRAWN.clear()  # drawn anew: no region of the store reused
        fresh, version = views_live.snapshot(code, owner, language)
        assert page.html == frames.shown(fresh), f"{game}: a reply sent ahead is not the board"
    assert page.resyncs == 0


@pytest.mark.django_db
def test_only_a_person_nobody_else_waits_for_may_be_sent_the_replies_ahead():
    table, ren, mia = two_people()
    solo = services.create_table(ren, "gongzhu", "normal")
    assert services.may_hurry(solo, 0)
    assert not services.may_hurry(solo, None)  # a spectator
    assert not services.may_hurry(table, 0)
    assert not services.may_hurry(table, 1)
    Seat.objects.filter(table=table, index=1).update(autoplay=True)  # mia's seat plays itself
    table = services.Table.objects.get(pk=table.pk)
    assert services.may_hurry(table, 0)


@pytest.mark.django_db
def test_at_a_table_of_two_people_the_movers_answer_brings_no_replies_ahead(settings, clock):
    settings.GAME_PACING = True
    table, ren, mia = two_people()
    code = str(table.code)
    answers = []

    def play(shown, action):
        data = {**table_game("gongzhu").frame_for(action), "version": str(shown.version)}
        answers.append(views_live.handle(code, mia, "en", data, "gongzhu"))

    rng = random.Random(5)
    # mia moves through her page (the computer players follow her: ren waits for them); ren
    # moves through the services.
    engine = table_game("gongzhu").engine
    for _ in range(200):
        shown = services.get_table(code)
        raw = services.Table.objects.get(pk=table.pk)
        if getattr(shown, "next_shown_at", None) is not None:
            clock.to(shown.next_shown_at)
            continue
        if raw.bot_due_at is not None:
            clock.to(raw.bot_due_at)
            services.play_due_bot_move(code)
            continue
        state = engine.from_json(shown.state)
        if engine.hand_over(state):
            break
        seat = engine.to_move(state)[0]
        action = rng.choice(engine.legal_actions(state, seat))
        if seat == 1:
            play(shown, action)
        else:
            services.submit_action(code, ren, action, shown.version)
        if any(a.due is not None for a in answers):
            break
    moved = [a for a in answers if a.due is not None]
    assert moved, "no move of mia's brought replies along"
    assert all(a.ahead is None for a in moved)
