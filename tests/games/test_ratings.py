"""Ratings (games/ratings.py): a win raises a rating and a loss lowers it, computer players
count by their level, guests are not rated, a recomputation from the history gives the same
figures, and a match is rated once however many finish it at the same moment."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import ratings, services
from games.models import RatedMatch, Rating, RatingChange, Table
from tests.games.people import play_out, player
from tests.games.test_races import at_once

User = get_user_model()


def rating_of(user, game="gongzhu"):
    return Rating.objects.filter(user=user, game=game).first()


def test_places_follow_the_totals_ties_share_and_leavers_come_last():
    assert ratings.places([10, -5, 10, 3], last=()) == [1, 4, 1, 3]
    assert ratings.places([10, -5, 10, 3], last=[0]) == [4, 3, 1, 2]


@pytest.mark.django_db
def test_a_win_raises_a_rating_and_a_loss_lowers_it():
    winner, loser = player("win"), player("lose")
    for user, totals in ((winner, [50, 0, -10, -20]), (loser, [-90, 0, -10, -20])):
        table = services.create_table(user, "gongzhu", "normal")
        ratings.rate(table, totals)
    assert rating_of(winner).mu > ratings.model().mu > rating_of(loser).mu
    assert ratings.shown(rating_of(winner).mu) > 1000 > ratings.shown(rating_of(loser).mu)
    assert rating_of(winner).matches == rating_of(loser).matches == 1


@pytest.mark.django_db
def test_a_loss_never_raises_the_shown_rating():
    """Third of four behind a Normal bot: μ falls, and so does the figure shown (it was
    μ − 3σ, which rose 1000 → 1028 because σ shrank faster)."""
    user = player("third")
    table = services.create_table(user, "gongzhu", "normal")
    ratings.rate(table, [-30, 10, 0, -40])
    rating = rating_of(user)
    assert rating.mu < ratings.model().mu
    assert ratings.shown(rating.mu) < 1000
    assert not ratings.settled(rating.sigma)


@pytest.mark.django_db
def test_a_rating_settles_after_about_five_matches():
    user = player("steady")
    settled_after = None
    for n in range(1, 12):
        ratings.rate(services.create_table(user, "gongzhu", "normal"), [0, 10, -10, -20])
        if settled_after is None and ratings.settled(rating_of(user).sigma):
            settled_after = n
    assert settled_after is not None and 3 <= settled_after <= 6


@pytest.mark.django_db
def test_beating_hard_counts_for_more_than_beating_easy():
    gains = {}
    for level in ("easy", "hard"):
        user = player(f"beat-{level}")
        table = services.create_table(user, "gongzhu", level)
        ratings.rate(table, [50, 0, -10, -20])
        gains[level] = rating_of(user).mu - ratings.model().mu
    assert gains["hard"] > gains["easy"] > 0


@pytest.mark.django_db
def test_resigning_counts_as_last_and_a_guest_is_not_rated():
    user = player("quitter")
    table = services.create_table(user, "gongzhu", "normal")
    services.resign(table.code, user)
    change = RatingChange.objects.get(user=user)
    assert change.mu < change.mu_before
    assert RatedMatch.objects.get(table=table).places[0]["place"] == 4

    guest = player("guest-1", guest=True)
    table = services.create_table(guest, "gongzhu", "normal")
    services.resign(table.code, guest)
    assert not Rating.objects.filter(user=guest).exists()
    assert not RatedMatch.objects.filter(table=table).exists()


@pytest.mark.django_db
def test_a_match_played_to_its_end_is_rated_by_its_totals(settings):
    settings.GAME_PACING = False
    user = player("finisher")
    table = play_out(services.create_table(user, "doudizhu", "normal"))
    assert table.status == Table.Status.FINISHED
    match = RatedMatch.objects.get(table=table)
    totals = table.hands.filter(ended_at__isnull=False).order_by("-number").first().totals
    assert [e["place"] for e in match.places] == ratings.places(totals, last=())
    change = RatingChange.objects.get(user=user, match=match)
    place = match.places[0]["place"]
    if len({e["place"] for e in match.places}) == 1:
        # All level (a match can end with every total 0): a draw with Normal bots, rated as a
        # new player is, changes nothing.
        assert change.mu == pytest.approx(change.mu_before)
    elif place == 1:
        assert change.mu > change.mu_before
    elif place == 3:
        assert change.mu < change.mu_before


@pytest.mark.django_db
def test_recomputing_from_the_history_gives_the_same_ratings():
    users = [player(f"p{i}") for i in range(3)]
    outcomes = [[30, 0, -10, -20], [-40, 10, 0, 5], [0, 0, 0, 0], [12, 30, -50, 8]]
    for n, totals in enumerate(outcomes * 2):
        user = users[n % 3]
        table = services.create_table(user, "gongzhu", ("easy", "normal", "hard")[n % 3])
        ratings.rate(table, totals)
    kept = {(r.user_id, r.mu, r.sigma, r.matches) for r in Rating.objects.all()}
    history = {(c.id, c.mu_before, c.mu) for c in RatingChange.objects.all()}
    Rating.objects.update(mu=0, sigma=1, matches=0)  # whatever they were, they come back
    assert ratings.recompute("gongzhu") == 3
    assert {(r.user_id, r.mu, r.sigma, r.matches) for r in Rating.objects.all()} == kept
    assert {(c.id, c.mu_before, c.mu) for c in RatingChange.objects.all()} == history


@pytest.mark.django_db(transaction=True)
def test_a_match_ended_twice_at_once_is_rated_once():
    user = player("twice")
    for _ in range(3):
        table = services.create_table(user, "gongzhu", "normal")

        def resign(code=table.code):
            try:
                return services.resign(code, user)
            except services.Refused as refused:
                return refused

        at_once(resign, resign)
        assert RatedMatch.objects.filter(table=table).count() == 1
        assert RatingChange.objects.filter(match__table=table).count() == 1
    assert rating_of(user).matches == 3
