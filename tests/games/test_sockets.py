"""What a table socket remembers between frames, without Channels (games.sockets)."""

from __future__ import annotations

from games.live import NORMAL, URGENT
from games.sockets import (
    DRAW_SLACK_SECONDS,
    MOVES_BURST,
    REFUSED_BEFORE_DEMOTED,
    Allowance,
    Drawing,
    Read,
)


def test_it_draws_a_notice_once_and_nothing_it_has_sent():
    drawing = Drawing()
    assert drawing.notice(3)
    assert drawing.next_read() == Read(since=-1, committed=3)
    drawing.sent(3)
    assert drawing.next_read() is None  # nothing came meanwhile: the draw is over
    assert not drawing.notice(3)  # seen
    assert not drawing.notice(2)
    assert drawing.notice(4)
    assert drawing.next_read() == Read(since=3, committed=4)


def test_notices_during_a_draw_coalesce_into_one_more_draw_of_the_newest():
    drawing = Drawing()
    assert drawing.notice(5)
    assert drawing.next_read() == Read(since=-1, committed=5)
    # While version 5 is drawn on the database's thread, 6 and 7 are announced.
    assert not drawing.notice(6)
    assert not drawing.notice(7)
    drawing.sent(5)
    assert drawing.next_read() == Read(since=5, committed=7)  # once, the newest
    drawing.sent(7)
    assert drawing.next_read() is None
    assert not drawing.drawing


def test_a_refresh_draws_the_same_version_again_from_a_fresh_read():
    drawing = Drawing()
    drawing.sent(9)
    # Presence changed: no new version, but the viewer's board did.
    assert drawing.notice(9, refresh=True)
    assert drawing.next_read() == Read(since=-1, committed=None)
    drawing.sent(9)
    assert drawing.next_read() is None
    assert drawing.rendered == 9


def test_a_draw_that_failed_lets_the_next_notice_draw():
    drawing = Drawing()
    assert drawing.notice(1)
    assert drawing.next_read() is not None
    drawing.stopped()  # the database went away under it
    assert drawing.notice(2)


def test_a_move_on_its_way_is_drawn_just_after_its_time_never_before():
    assert Drawing.delay(due=100.5, now=100.0) == 0.5 + DRAW_SLACK_SECONDS
    assert Drawing.delay(due=99.0, now=100.0) == DRAW_SLACK_SECONDS


def test_a_person_keeps_priority_until_refused_several_times_in_a_row():
    allowance = Allowance()
    for _ in range(REFUSED_BEFORE_DEMOTED):
        assert allowance.priority() == URGENT
        allowance.answered(refused=True)
    assert allowance.priority() == NORMAL
    allowance.answered(refused=False)  # a move applied: a person again
    assert allowance.priority() == URGENT


def test_moves_beyond_a_persons_pace_are_refused_hints_apart():
    allowance = Allowance()
    answers = [allowance.action_refused("play") for _ in range(MOVES_BURST + 5)]
    assert answers[:MOVES_BURST] == [None] * MOVES_BURST
    assert set(answers[MOVES_BURST:]) == {"slow_moves"}
    assert allowance.action_refused("hint") is None  # a bucket of its own
