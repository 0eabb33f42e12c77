"""The deal of the day: the same cards and seat for everyone on a day, once per account,
against Hard that plays the same way for everyone given the same moves; standings with
shared places, the comparison with the players who reached the same position, streaks, the
day rolling over at midnight in the site's time zone, nothing of today's play shown before."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games import services, views_daily
from games.models import ActionLog, DailyDeal, DailyEntry, DailyScore, DailySeen, Table
from games.registry import table_game, table_games
from games.services import tally
from games.services.daily import standings
from tests.games.people import finish_hand, play_hand_yourself, player

pytestmark = pytest.mark.django_db
LISTED = [g.name for g in table_games() if g.playable and not g.info.unlisted]
BERLIN = dt.timezone(dt.timedelta(hours=1))  # December: no summer time


@pytest.fixture(autouse=True)
def _english(settings):
    settings.GAME_PACING = False
    with translation.override("en"):
        yield


def _at(moment: dt.datetime):
    return mock.patch("django.utils.timezone.now", return_value=moment)


def test_the_day_rolls_over_at_midnight_in_the_sites_time_zone():
    before = dt.datetime(2026, 12, 6, 22, 59, 59, tzinfo=dt.UTC)  # 23:59:59 in Berlin
    after = dt.datetime(2026, 12, 6, 23, 0, 0, tzinfo=dt.UTC)  # midnight in Berlin
    with _at(before):
        assert services.today() == dt.date(2026, 12, 6)
        late = services.deal_of("gongzhu")
    with _at(after):
        assert services.today() == dt.date(2026, 12, 7)
        early = services.deal_of("gongzhu")
    assert (late.day, early.day) == (dt.date(2026, 12, 6), dt.date(2026, 12, 7))
    assert late.deal != early.deal and late.seed != early.seed


@pytest.mark.parametrize("game", LISTED)
def test_a_days_deal_is_drawn_the_same_for_everyone_and_differs_by_day_and_game(game):
    day = dt.date(2026, 12, 6)
    first = services.deal_of(game, day)
    assert services.deal_of(game, day).pk == first.pk
    drawn = first.deal, first.dealer, first.seed
    DailyDeal.objects.all().delete()
    again = services.deal_of(game, day)  # drawn anew: the same draw
    assert (again.deal, again.dealer, again.seed) == drawn
    info = table_game(game).info
    assert len(again.deal["hands"]) in info.seat_counts
    other_day = services.deal_of(game, day + dt.timedelta(days=1))
    assert other_day.deal != again.deal
    # The engine takes it as a deal to play.
    table_game(game).engine.new_match_from_deal(
        again.deal, again.dealer, again.options or None, seed=1
    )


def _play(user, game, seed: int = 7) -> Table:
    """The person plays today's deal themselves (choosing as Easy would, from ``seed``)."""
    return play_hand_yourself(services.start_daily(user, game), user, seed=seed)


# Once: Hard's thinking is the same on either stack, and most of this test's time (on
# PostgreSQL the day's standings are the other tests' here).
@pytest.mark.once
@pytest.mark.parametrize("game", LISTED)
def test_two_players_get_the_same_cards_and_hard_answers_the_same_moves_the_same_way(game):
    ren, mia = player("ren"), player("mia")
    first, second = _play(ren, game), _play(mia, game)
    assert first.pk != second.pk and first.daily_id == second.daily_id
    assert first.hands.get().deal == second.hands.get().deal
    # The same moves of the person (the computer played both the same way): the same game.
    logs = [
        list(ActionLog.objects.filter(table=t).order_by("seq").values_list("seat", "action"))
        for t in (first, second)
    ]
    assert logs[0] == logs[1]
    assert all(s.bot_level == "hard" for t in (first, second) for s in t.seats.all() if s.is_bot)
    assert not first.spectators and first.status == Table.Status.FINISHED
    assert not hasattr(first, "rated")  # unrated
    daily = DailyDeal.objects.get(pk=first.daily_id)
    assert daily.players == 2
    entries = {e.user_id: e for e in DailyEntry.objects.filter(daily=daily)}
    score = first.hands.get().scores[0]
    assert entries[ren.pk].score == entries[mia.pk].score == score
    assert DailyScore.objects.get(daily=daily).count == 2 and daily.best == score
    # Tied: one place shared; the second to finish sees the first's moves counted.
    table = standings(daily, entries[mia.pk])
    assert table["mine"]["place"] == 1 and table["mine"]["share_beaten"] == 0
    assert [r["place"] for r in table["leaders"]] == [1, 1]
    rows = views_daily.comparison(entries[mia.pk])
    assert rows and all(r["players"] == 2 and r["same"] and r["mine_share"] == 100 for r in rows)


def test_a_deal_is_played_once_per_account_and_not_after_seeing_it_played():
    ren = player("ren")
    table = services.start_daily(ren, "gongzhu")
    assert services.start_daily(ren, "gongzhu").pk == table.pk  # going on with it
    with pytest.raises(services.Refused) as refused:
        services.hint_for(table, 0)
    assert refused.value.code == "no_hint_in_daily"
    with pytest.raises(services.Refused) as refused:
        services.set_level(table.code, ren, "easy")
    assert refused.value.code == "no_level_in_daily"
    finish_hand(table, ren)
    with pytest.raises(services.Refused) as refused:
        services.start_daily(ren, "gongzhu")
    assert refused.value.code == "daily_played"
    # Left before its end: played too.
    services.resign(services.start_daily(ren, "doudizhu").code, ren)
    with pytest.raises(services.Refused) as refused:
        services.start_daily(ren, "doudizhu")
    assert refused.value.code == "daily_played"
    mia = player("mia")
    DailySeen.objects.create(daily=services.deal_of("gongzhu"), user=mia)
    with pytest.raises(services.Refused) as refused:
        services.start_daily(mia, "gongzhu")
    assert refused.value.code == "daily_seen"


def test_places_share_ties_and_count_everyone_who_finished():
    daily = services.deal_of("gongzhu")
    people = [player(f"p{i}") for i in range(5)]
    scores = [50, 10, 50, -20, 10]
    now = timezone.now()
    for user, score in zip(people, scores, strict=True):
        DailyEntry.objects.create(daily=daily, user=user, score=score, finished_at=now)
        tally._count(DailyScore, daily_id=daily.pk, score=score)
    daily.players = len(people)
    daily.save()
    entries = {e.user_id: e for e in DailyEntry.objects.filter(daily=daily)}
    places = [standings(daily, entries[u.pk])["mine"]["place"] for u in people]
    assert places == [1, 3, 1, 5, 3]
    assert standings(daily, entries[people[1].pk])["mine"]["share_beaten"] == 20
    assert standings(daily, None)["players"] == 5


def test_a_streak_counts_days_in_a_row_up_to_today_or_yesterday():
    ren = player("ren")
    today = services.today()
    assert services.streak(ren) == 0
    for back in (1, 2, 3, 5):
        daily = services.deal_of("gongzhu", today - dt.timedelta(days=back))
        DailyEntry.objects.create(daily=daily, user=ren, score=0, finished_at=timezone.now())
    assert services.streak(ren) == 3  # today's still to play: yesterday's run counts
    daily = services.deal_of("doudizhu", today)
    DailyEntry.objects.create(daily=daily, user=ren, score=0, finished_at=timezone.now())
    assert services.streak(ren) == 4


def test_todays_standings_and_best_play_stay_hidden_until_one_has_played(client):
    ren, mia = player("ren"), player("mia")
    table = _play(ren, "gongzhu")
    daily = table.daily
    day_url = reverse("games:daily_day", kwargs={"game": "gongzhu", "day": daily.day.isoformat()})
    best_url = reverse("games:daily_best", kwargs={"game": "gongzhu", "day": daily.day.isoformat()})
    client.force_login(mia)
    page = client.get(day_url).content.decode()
    assert 'data-testid="daily-closed"' in page and 'data-testid="daily-standings"' not in page
    assert client.get(best_url).status_code == 404
    assert not DailySeen.objects.exists()
    client.force_login(ren)
    page = client.get(day_url).content.decode()
    assert 'data-testid="daily-mine"' in page and 'data-testid="daily-comparison"' in page
    assert client.get(best_url).status_code == 200
    # From the table's summary to the day's page.
    to_day = client.get(reverse("games:daily_of_table", kwargs={"code": table.code}))
    assert to_day.url == day_url
    # Once the day is over, everyone may look; who looks without having played may not
    # enter it (there is no entering a past day anyway).
    tomorrow = timezone.now() + dt.timedelta(days=1)
    client.force_login(mia)
    with _at(tomorrow):
        assert client.get(best_url).status_code == 200
        page = client.get(day_url).content.decode()
        assert 'data-testid="daily-standings"' in page
    assert DailySeen.objects.filter(user=mia, daily=daily).exists()


def test_seeing_todays_best_play_instead_of_playing_rules_one_out_of_it(client):
    ren, mia = player("ren"), player("mia")
    table = _play(ren, "gongzhu")
    day = table.daily.day.isoformat()
    reveal = reverse("games:daily_reveal", kwargs={"game": "gongzhu", "day": day})
    best = reverse("games:daily_best", kwargs={"game": "gongzhu", "day": day})
    client.force_login(mia)
    assert client.get(reveal).status_code == 405  # only asked for with a button (a POST)
    assert client.post(reveal).url == best
    assert client.get(best).status_code == 200
    assert DailySeen.objects.filter(user=mia, daily=table.daily).exists()
    with pytest.raises(services.Refused) as refused:
        services.start_daily(mia, "gongzhu")
    assert refused.value.code == "daily_seen"
    page = client.get(reverse("games:daily")).content.decode()
    assert 'data-testid="daily-seen-gongzhu"' in page
    assert 'data-testid="daily-play-gongzhu"' not in page
    # While one's own game of a deal runs, its best play stays hidden.
    running = services.start_daily(mia, "doudizhu")
    _play(ren, "doudizhu")
    dz = reverse(
        "games:daily_reveal", kwargs={"game": "doudizhu", "day": running.daily.day.isoformat()}
    )
    assert client.post(dz).status_code == 302
    assert not DailySeen.objects.filter(user=mia, daily=running.daily).exists()


def test_a_visitor_plays_todays_deal_as_a_guest_from_the_lobby(client):
    lobby = client.get(reverse("lobby")).content.decode()
    assert 'data-testid="to-daily"' in lobby
    page = client.get(reverse("games:daily")).content.decode()
    for game in LISTED:
        assert f'data-testid="daily-play-{game}"' in page
    response = client.post(reverse("games:daily_start", kwargs={"game": "gongzhu"}))
    table = Table.objects.get(daily__isnull=False)
    assert response.url == reverse("games:table", kwargs={"code": table.code})
    assert table.seats.get(index=0).user.profile.is_guest
    page = client.get(reverse("games:daily")).content.decode()
    assert 'data-testid="daily-continue-gongzhu"' in page
    assert client.post(reverse("games:daily_start", kwargs={"game": "chess"})).status_code == 404
    bad_day = reverse("games:daily_day", kwargs={"game": "gongzhu", "day": "2026-13-01"})
    assert client.get(bad_day).status_code == 404
    future = services.today() + dt.timedelta(days=3)
    ahead = reverse("games:daily_day", kwargs={"game": "gongzhu", "day": future.isoformat()})
    assert client.get(ahead).status_code == 404


def test_a_decision_unlike_the_others_is_shown_beside_what_most_played(client):
    ren, ole, mia = player("ren"), player("ole"), player("mia")
    _play(ren, "gongzhu", seed=7)
    _play(ole, "gongzhu", seed=7)  # as ren did
    table = _play(mia, "gongzhu", seed=11)  # otherwise somewhere
    entry = DailyEntry.objects.get(user=mia)
    rows = views_daily.comparison(entry)
    assert rows and rows[0]["players"] == 3, "the first decision was the same position for all"
    differing = [r for r in rows if not r["same"]]
    assert differing, "mia parted from the two others somewhere"
    first = differing[0]
    assert (first["top_share"], first["mine_share"]) == (67, 33)  # two of three, one
    assert first["top"] != first["mine"]
    client.force_login(mia)
    day = reverse("games:daily_day", kwargs={"game": "gongzhu", "day": table.daily.day.isoformat()})
    page = client.get(day).content.decode()
    assert 'data-testid="daily-agree"' in page
    assert page.count('data-testid="compare-row"') == len(rows) + len(differing)
