"""A player's page and the leaderboards, in both languages: ratings with their course, no page
for guests, a leaderboard of signed-up players with enough rated matches, best first."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from games import ratings, services, standings
from tests.games.people import play_out, player

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture(autouse=True)
def _language_restored():
    # A request to a /de/ page leaves German active in this thread: the next test's English
    # must not depend on this one.
    with translation.override("en"):
        yield


def rated(user, totals, times: int = 1, level: str = "normal"):
    for _ in range(times):
        ratings.rate(services.create_table(user, "gongzhu", level), totals)


def url(name: str, lang: str, **kwargs) -> str:
    with translation.override(lang):
        return reverse(name, kwargs=kwargs)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ["after 3 rated matches", "Hands played"]), ("de", ["nach 3 gewerteten Partien"])],
)
def test_a_player_page_shows_the_rating_and_its_course(client, lang, words):
    mei = player("mei", "Mei")
    rated(mei, [40, 0, -10, -20], times=3)
    page = client.get(url("games:player", lang, pk=mei.pk)).content.decode()
    assert "Mei" in page
    shown = ratings.shown(mei.ratings.get(game="gongzhu").mu)
    assert f'data-testid="rating-gongzhu">{shown}<' in page
    assert 'data-testid="provisional-gongzhu"' in page  # three matches: not settled yet
    assert page.count("<polyline") == 1  # a course only where there is one: Gong Zhu
    for word in words:
        assert word in page


def test_guests_and_unknown_players_have_no_page(client):
    guest = player("guest-x", guest=True)
    assert client.get(url("games:player", "en", pk=guest.pk)).status_code == 404
    assert client.get(url("games:player", "en", pk=999999)).status_code == 404


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_leaderboard_lists_settled_ratings_best_first_ties_sharing_a_place(client, lang):
    best, second, few = player("best", "Mei"), player("second", "Jonas"), player("few", "Lina")
    tied = player("tied", "Ada")
    rated(best, [80, 0, -10, -20], times=10, level="hard")
    rated(second, [20, 0, 30, -20], times=8)
    rated(tied, [20, 0, 30, -20], times=8)
    rated(few, [90, 0, -10, -20], times=2)  # provisional: not listed, whatever its figure
    assert not ratings.settled(few.ratings.get(game="gongzhu").sigma)
    page = client.get(url("games:leaderboard_game", lang, game="gongzhu")).content.decode()
    names = re.findall(r'<a href="/\w\w/players/\d+/">(\w+)</a>', page)
    assert names == ["Mei", "Jonas", "Ada"]
    board = standings.leaderboard("gongzhu")
    assert [r["place"] for r in board] == [1, 2, 2]  # the same figure, the same place
    assert board[0]["rating"] > board[1]["rating"] == board[2]["rating"]
    mine = client.get(url("games:player", lang, pk=tied.pk)).content.decode()
    assert 'data-testid="provisional-gongzhu"' not in mine
    for user in (second, tied):
        row = next(r for r in standings.player_context(user)["rows"] if r["game"] == "gongzhu")
        assert row["rank"] == 2
    other = client.get(url("games:leaderboard_game", lang, game="doudizhu")).content.decode()
    assert "Mei" not in other
    assert client.get(url("games:leaderboard_game", lang, game="chess")).status_code == 404
    assert client.get(url("games:leaderboard", lang)).status_code == 200


def test_each_game_counts_what_its_players_care_about():
    from games.registry import table_game

    with translation.override("en"):
        gz = table_game("gongzhu").facts(
            [
                ([{"pig": -100, "score": -100}, {"all_hearts": True, "score": 200}], 0),
                ([{"goat": 100, "score": 100}, {}], 0),
            ]
        )
        assert {f["label"]: f["value"] for f in gz} == {
            "Pig taken": "1 of 2 (50%)",
            "All hearts collected": "0 of 2 (0%)",
            "Goat won": "1 of 2 (50%)",
            "Average per hand": "0",
        }
        ddz = table_game("doudizhu").facts(
            [
                ([{"role": "landlord", "won": True, "spring": True}, {}, {}], 0),
                ([{}, {"role": "peasant", "won": False}, {}], 1),
                ([{"role": "landlord", "won": False}, {}, {}], 0),
            ]
        )
        assert {f["label"]: f["value"] for f in ddz} == {
            "Landlord": "2 of 3 (67%)",
            "Won as landlord": "1 of 2 (50%)",
            "Won as peasant": "0 of 1 (0%)",
            "Springs": "1",
        }
        gdy = table_game("gandengyan").facts(
            [
                ([{"winner": True, "score": 30}, {"spring": True, "score": -30}], 0),
                ([{"winner": False, "score": -10}, {"winner": True, "score": 10}], 0),
            ]
        )
        assert {f["label"]: f["value"] for f in gdy} == {
            "Rounds won": "1 of 2 (50%)",
            "Springs": "1",
            "Average per round": "+10",
        }
        assert table_game("gongzhu").facts([]) == []


def test_a_player_page_shows_the_figures_of_the_hands_played(client, settings):
    settings.GAME_PACING = False
    mei = player("mei-facts", "Mei")
    play_out(services.create_table(mei, "doudizhu", "normal"))
    page = client.get(url("games:player", "en", pk=mei.pk)).content.decode()
    assert 'data-testid="facts-doudizhu"' in page
    assert "Won as landlord" in page
    assert 'data-testid="facts-gongzhu"' not in page  # no hand of it played


# Every attribute of an SVG chart that holds numbers (the rest: classes, colours, anchors).
SVG_NUMBERS = ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "dy", "viewBox", "points")


def svg_numbers(page: str) -> list[str]:
    """Every number written into an SVG attribute of ``page``, as written."""
    found = []
    for svg in re.findall(r"<svg\b.*?</svg>", page, re.S):
        for name, value in re.findall(r'\s([\w-]+)="([^"]*)"', svg):
            if name in SVG_NUMBERS:
                found += (
                    re.split(r"[\s,]+", value.strip()) if name in ("points", "viewBox") else [value]
                )
    return found


@pytest.mark.parametrize("lang", ["en", "de"])
def test_charts_write_numbers_svg_can_read_in_either_language(client, lang):
    """German number formatting gave x2="622,0" (score sheet) and x2="400,0" (rating chart):
    the grid lines and Gong Zhu's −1000 line fell to the left edge."""
    mei = player("mei", "Mei")
    rated(mei, [40, 0, -10, -20], times=2)
    table = play_out(services.create_table(mei, "gongzhu", "easy"))
    client.force_login(mei)
    pages = [
        client.get(url("games:match", lang, code=table.code)).content.decode(),
        client.get(url("games:player", lang, pk=mei.pk)).content.decode(),
    ]
    for page in pages:
        numbers = svg_numbers(page)
        assert len(numbers) > 20
        for number in numbers:
            float(number)  # raises on "622,0"
    # The out line's label and the grid's: one minus sign, the true one.
    assert "\u22121000" in pages[0] and "-1000<" not in pages[0]  # the sheet's totals too


def test_the_match_count_leaves_out_a_deal_played_again(client):
    """'Matches 2' stood beside 'after 1 rated match': the same deal played again is unrated
    and no match of its own."""
    from games import history

    mei = player("mei", "Mei")
    table = play_out(services.create_table(mei, "doudizhu", "easy"))
    again = history.deal_of_hand(table, 1)
    services.create_same_deal_table(mei, table, again, 0)
    row = next(r for r in standings.player_context(mei)["rows"] if r["game"] == "doudizhu")
    assert row["matches"] == row["rated"] == 1


def test_a_players_average_is_signed_with_a_true_minus():
    """'Schnitt pro Runde -77' stood beside '−1000' on the same site."""
    from games.registry import table_game

    facts = table_game("gongzhu").facts([([{"score": -77}], 0), ([{"score": -76}], 0)])
    assert {f["label"]: f["value"] for f in facts}["Average per hand"] == "\u221276"
