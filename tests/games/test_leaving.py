"""Leaving a match of people, and coming back to it.

A person who leaves (Leave, or deleting their account) hands their seat to a computer player
for the rest of the match; the others go on. People on auto-play because they are away have
not left: the match goes on for them, unrated until it ends. It ends by the choice of the
people still in it (the last of them leaving), or at its own end; either way the leavers come
last. A person away on auto-play takes their seat back by acting or by opening the table's
page again.
"""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import sync_to_async

from games import services, views_live
from games.models import RatedMatch, RatingChange, Seat, Table
from games.registry import table_game
from tests.games.test_shared_tables import fresh, people_move, two_people

pytestmark = pytest.mark.django_db(transaction=True)


def away(table, index):
    """The person at ``index`` is away: their grace ran out, a computer plays for them."""
    Seat.objects.filter(table=table, index=index).update(autoplay=True)


def seat(table, index) -> Seat:
    return Seat.objects.get(table=table, index=index)


def test_leaving_while_the_other_is_away_goes_on_for_the_one_away():
    table, ren, mia = two_people("gongzhu")
    away(table, 1)
    services.leave_table(table.code, ren)
    table = fresh(table)
    assert table.is_active  # mia is away, not gone: the match is still hers
    assert not RatedMatch.objects.filter(table=table).exists()
    assert seat(table, 0).left and seat(table, 0).plays_itself
    html, _ = views_live.snapshot(table.code, mia, "en")
    assert re.search(r'data-testid="seat-level-0">auto-play<', html)

    # mia comes back and plays on, to the end of the hand.
    services.take_back(table.code, mia)
    people_move(fresh(table), {1: mia}, random.Random(4))
    table = fresh(table)
    assert table.is_active and table.hands.filter(ended_at__isnull=False).count() == 1

    # The last person in it leaving ends it: rated, the leaver last.
    services.leave_table(table.code, mia)
    table = fresh(table)
    assert table.status == Table.Status.RESIGNED
    places = {e["seat"]: e["place"] for e in RatedMatch.objects.get(table=table).places}
    assert places[0] == 4  # ren left first: last
    assert places[1] == 3  # mia ended it: below the computer players, above the one who left


def test_a_deleted_account_is_a_leaver_and_the_one_away_plays_on():
    table, ren, mia = two_people("gongzhu")
    away(table, 1)
    ren.delete()
    table = fresh(table)
    assert table.is_active
    assert not RatedMatch.objects.filter(table=table).exists()
    gone = seat(table, 0)
    assert gone.left and gone.user is None

    services.take_back(table.code, mia)
    people_move(fresh(table), {1: mia}, random.Random(6))
    assert fresh(table).is_active
    services.leave_table(table.code, mia)  # the last person in it ends it
    table = fresh(table)
    assert table.status == Table.Status.RESIGNED
    places = {e["seat"]: e["place"] for e in RatedMatch.objects.get(table=table).places}
    assert (places[0], places[1]) == (4, 3)


def test_the_last_person_in_the_match_deleting_their_account_ends_it():
    table, ren, mia = two_people("gongzhu")
    services.leave_table(table.code, ren)
    mia.delete()
    table = fresh(table)
    assert table.status == Table.Status.RESIGNED
    places = {e["seat"]: e["place"] for e in RatedMatch.objects.get(table=table).places}
    assert places == {0: 4, 1: 3, 2: places[2], 3: places[3]}
    assert RatingChange.objects.get(user=ren).mu < RatingChange.objects.get(user=ren).mu_before


def test_the_leaver_of_a_match_played_to_its_end_comes_last():
    table, ren, mia = two_people("doudizhu", options={"hands": 1})
    services.leave_table(table.code, ren)
    people_move(fresh(table), {1: mia}, random.Random(2))
    table = fresh(table)
    assert table.status == Table.Status.FINISHED
    match = RatedMatch.objects.get(table=table)
    places = {e["seat"]: e["place"] for e in match.places}
    assert places[0] == 3  # whatever the totals: the leaver is last
    assert places[1] == _by_totals(table, 1)  # mia by her totals against the computer
    ren_change = RatingChange.objects.get(user=ren, match=match)
    assert ren_change.mu < ren_change.mu_before


def test_a_session_ended_by_its_last_person_ranks_them_by_their_totals():
    table, ren, mia = two_people("gandengyan")
    services.leave_table(table.code, ren)
    people_move(fresh(table), {1: mia}, random.Random(8))
    services.leave_table(table.code, mia)  # "End session": a session has no other end
    table = fresh(table)
    assert table.status == Table.Status.RESIGNED
    places = {e["seat"]: e["place"] for e in RatedMatch.objects.get(table=table).places}
    assert places[0] == len(places)
    assert places[1] == _by_totals(table, 1)


def _by_totals(table, index):
    """The place of ``index`` by the totals among the seats that did not leave."""
    totals = table.hands.get().totals
    staying = [i for i in range(len(totals)) if not seat(table, i).left]
    return 1 + sum(1 for i in staying if totals[i] > totals[index])


def test_a_match_against_the_computer_is_resigned_as_before():
    from tests.games.people import player

    user = player("solo")
    table = services.create_table(user, "gongzhu", "normal")
    services.resign(table.code, user)
    assert fresh(table).status == Table.Status.RESIGNED
    assert RatedMatch.objects.get(table=table).places[0]["place"] == 4


# ---------------------------------------------------------------- coming back


def _turn_of_a_person(table):
    engine = table_game(table.game).engine
    services.run_bots(table.code)
    state = engine.from_json(fresh(table).state)
    return next(m for m in engine.to_move(state) if m in (0, 1))


def test_opening_the_table_again_takes_the_seat_back():
    table, ren, mia = two_people("doudizhu", turn_seconds=60)
    index = _turn_of_a_person(table)
    person = (ren, mia)[index]
    away(table, index)
    before = fresh(table).version
    services.socket_opened(table.code, person, "chan-back")
    table = fresh(table)
    assert not seat(table, index).autoplay
    assert table.version == before + 1  # the boards are drawn again: the badge goes
    assert table.bot_due_at is None and table.turn_due_at is not None  # their turn, their timer


def test_a_leaver_opening_the_table_again_stays_out():
    table, ren, mia = two_people("gongzhu")
    services.leave_table(table.code, ren)
    services.socket_opened(table.code, ren, "chan-ren")
    assert seat(table, 0).left and seat(table, 0).autoplay


async def test_a_person_away_on_auto_play_comes_back_by_opening_the_page():
    from tests.games.test_consumers import connect

    table, ren, mia = await sync_to_async(two_people)("gongzhu")
    await sync_to_async(away)(table, 1)
    html, _ = await sync_to_async(views_live.snapshot)(table.code, mia, "en")
    assert 'data-testid="take-back"' in html
    comm = await connect(mia, table)
    for _ in range(10):
        html = await comm.receive_from(timeout=10)
        if 'id="board"' in html and 'data-testid="take-back"' not in html:
            break
    else:
        raise AssertionError("the page kept the auto-play badge")
    assert not (await sync_to_async(seat)(table, 1)).autoplay
    await comm.disconnect(timeout=10)


def test_the_leave_button_says_whether_the_match_goes_on():
    from django.test import Client
    from django.urls import reverse

    table, ren, mia = two_people("gongzhu")
    away(table, 1)
    url = reverse("games:resign", kwargs={"code": table.code})
    client = Client()
    client.force_login(ren)
    response = client.post(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert "a computer player plays your seat until it ends" in response.content.decode()
    client.force_login(mia)
    response = client.post(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:match", kwargs={"code": table.code})
    assert "You were the last person still in the match" in response.content.decode()
