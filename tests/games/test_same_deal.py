"""Play the same deal again: a finished hand's deal, the player's own cards, the same computer
levels, one hand, unrated, its replay verified, and the two results side by side."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from games import history, services, views_live
from games.models import RatedMatch, Seat, Table
from games.registry import table_game, table_games
from tests.games.people import finish_hand, player

pytestmark = pytest.mark.django_db
PLAYABLE = [g.name for g in table_games() if g.playable]
User = get_user_model()


@pytest.fixture(autouse=True)
def _english(settings):
    settings.GAME_PACING = False
    with translation.override("en"):
        yield


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_same_deal_is_dealt_with_the_player_in_the_seat_they_had(game, client):
    user = player()
    source = services.create_table(user, game, "hard")
    seat = 1  # the player sat in seat 1 there: the deal turns so that it is their seat 0 now
    seats = {s.index: s for s in source.seats.all()}
    Seat.objects.filter(pk=seats[0].pk).update(user=None, kind=Seat.Kind.BOT, bot_level="easy")
    Seat.objects.filter(pk=seats[seat].pk).update(user=user, kind=Seat.Kind.PERSON)
    source = finish_hand(services.get_table(source.code), user)
    recorded = source.hands.get(number=1)
    assert recorded.ended_at is not None

    client.force_login(user)
    url = reverse("games:same_deal", kwargs={"code": source.code, "number": 1})
    assert client.get(url).status_code == 405  # a new table is made by a POST only
    response = client.post(url)
    again = Table.objects.exclude(pk=source.pk).get(owner=user)
    assert response.url == reverse("games:table", kwargs={"code": again.code})
    assert again.replay_of == recorded and again.replay_seat == seat
    # Seat 0 holds the player's cards from seat 1; the others follow in playing order. The
    # deal is the one played (after any deal thrown in: Dou Dizhu's all-pass).
    dealt = again.hands.get(number=1).deal
    played = history.deal_of_hand(source, 1)["deal"]
    n = len(dealt["hands"])
    assert dealt["hands"] == [played["hands"][(i + seat) % n] for i in range(n)]
    assert {k: v for k, v in dealt.items() if k != "hands"} == {
        k: v for k, v in played.items() if k != "hands"
    }
    if game == "doudizhu":  # its heading counts the match's hands: here, one
        html, _v = views_live.snapshot(again.code, user, "en")
        assert "Hand 1 of 1" in html
    levels = {s.index: s.bot_level for s in again.seats.all() if s.is_bot}
    assert levels[n - 1] == "easy"  # the easy bot of seat 0 there sits before the player here

    # One hand, then the match is over; not rated; the replay of it is verified.
    again = finish_hand(again, user)
    assert again.status == Table.Status.FINISHED
    assert not RatedMatch.objects.filter(table=again).exists()
    assert history.replay_steps(again, 1) is not None
    context = views_live.board_context(services.board(again, user), user)
    rows = context["same_deal"]["rows"]
    assert [r["now"] for r in rows] == again.hands.get(number=1).scores
    assert [r["first"] for r in rows] == [recorded.scores[(i + seat) % n] for i in range(len(rows))]
    html, _version = views_live.snapshot(str(again.code), user, "en")
    assert 'data-testid="same-deal"' in html and "The first time" in html


def test_only_a_finished_hand_of_ones_own_table_is_dealt_again(client):
    user, other = player("ren"), player("mei")
    table = services.create_table(user, "gongzhu", "normal")
    client.force_login(user)
    running = reverse("games:same_deal", kwargs={"code": table.code, "number": 1})
    assert client.post(running).status_code == 404  # the hand is not over
    table = finish_hand(table, user)
    client.force_login(other)
    assert client.post(running).status_code == 404  # not their table
    assert Table.objects.count() == 1
    engine = table_game("gongzhu").engine
    assert engine.hand_over(engine.from_json(table.state))


def test_the_first_time_column_names_who_sat_there_the_first_time(client):
    """Mei sat in seat 0 the first time; dealt again, a computer player holds her cards: the
    row shows its name, and the first time's score carries hers (it carried the computer's)."""
    user, mei = player("ren"), player("mei", display="Mei")
    source = services.create_table(user, "gongzhu", "normal")
    seats = {s.index: s for s in source.seats.all()}
    Seat.objects.filter(pk=seats[0].pk).update(user=mei, kind=Seat.Kind.PERSON, autoplay=True)
    Seat.objects.filter(pk=seats[1].pk).update(user=user, kind=Seat.Kind.PERSON)
    source = finish_hand(services.get_table(source.code), user)
    client.force_login(user)
    client.post(reverse("games:same_deal", kwargs={"code": source.code, "number": 1}))
    again = finish_hand(Table.objects.exclude(pk=source.pk).get(owner=user), user)
    rows = views_live.board_context(services.board(again, user), user)["same_deal"]["rows"]
    assert rows[-1]["first_name"] == "Mei" != rows[-1]["name"]  # seat 0 there is the last here
    assert rows[0]["first_name"] == rows[0]["name"]  # the player, both times
    html, _version = views_live.snapshot(str(again.code), user, "en")
    table = html[html.index('data-testid="same-deal"') :]
    last = table.split("<tr")[-1]
    assert "Mei" in last and rows[-1]["name"] in last
