"""``manage.py liveprofile``: a human action's CPU and its parts, and nothing left behind."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Table

pytestmark = pytest.mark.django_db


def test_it_plays_human_actions_and_splits_their_time_into_parts():
    out = io.StringIO()
    users, tables = get_user_model().objects.count(), Table.objects.count()
    call_command("liveprofile", game=["gongzhu"], actions=2, repeat=1, top=3, stdout=out)
    text = out.getvalue()
    assert "gongzhu at normal, the bots paced: 2 human actions a run" in text
    for part in ("the move's transaction", "the bots choosing", "the board's drawing"):
        assert part in text
    shares = [float(line.split("%")[0]) for line in text.splitlines() if " ms  " in line]
    assert len(shares) == 8 and all(0 <= s <= 100 for s in shares)  # seven parts, the rest
    assert shares[0] > 0 and shares[4] > 0  # the transaction and the drawing were profiled
    calls = next(line for line in text.splitlines() if line.startswith("function calls"))
    assert int(calls.rsplit(" ", 1)[1].replace(",", "")) > 1000  # counted, a human action's
    # Its users and tables are gone.
    assert (get_user_model().objects.count(), Table.objects.count()) == (users, tables)


def test_the_closed_loop_draws_one_board_a_human_action():
    """Unpaced, as loadbench's closed loop: the bots' replies come in the move's transaction
    and its one board (paced, each reply is a board of its own)."""
    boards = {}
    for regime in ("human", "closed"):
        out = io.StringIO()
        call_command(
            "liveprofile", game=["gongzhu"], actions=4, repeat=1, top=1, regime=regime, stdout=out
        )
        head = out.getvalue().splitlines()[0]
        boards[regime] = float(head.rsplit(", ", 1)[1].split(" ")[0])
        if regime == "closed":
            assert head.startswith("gongzhu at normal, closed loop (no pacing): 4 human actions")
    assert boards["closed"] == 1.0
    assert boards["human"] > 1.0


def test_it_refuses_an_unknown_game():
    with pytest.raises(CommandError):
        call_command("liveprofile", game=["chess"], stdout=io.StringIO())
