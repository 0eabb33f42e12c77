"""The journey matrix: every game of the registry, as people play it, in both languages, with
browsers of both languages, through every page a finished hand leads to.

A journey plays a whole hand through the page at zero pause with a person's moves (a card
tapped and tapped again where a play is one card; the lowest card led where plays take
several; otherwise Hint, then Play or Pass; the highest bid; "Expose nothing"), then opens the hand's review (it
must show figures for the person's decisions), the score sheet with its chart, the replay,
"Play this deal again" (a table that asks for the person's move) and, for a signed-up player,
after leaving the match (which rates it), their own page with its rating chart. On each of
these pages and at the table mid-hand, the header's language switch must show the same page
in the other language (at a table, the table at the same version), and every number of every
SVG attribute must parse as a number, in both languages. Each journey writes down every fault
it meets and fails at the end with the list.

The cells, for the game at place i of the registry (a new game joins by itself):

    kind of player   plays in (site)        browser's own language
    guest            en if i is even, else de   the other one (the last game only, below)
    signed up        the guest's other one  the other one (= the guest's site language)
    two people       the guest's language   host: the other one; invited: the same

Where two cells would walk the same path, one stands for both:

- Site language × browser language. The language switch goes through one view for every
  page (``set_language`` and the header form of base.html); what decides its answer is the
  page's language, the browser's, and the language the site remembers (a cookie the switch
  sets). The hard case is a page in one language reached by a link (nothing remembered) in a
  browser of the other: the switch towards the browser's language. So every solo cell plays in
  the language its browser does not speak, and before each page's switch the remembered
  language is forgotten (as for a person who came by a link): the first switch goes towards
  the browser's language, the switch back away from it. Per game, the guest's and the signed-up
  player's browsers speak different languages, so every page a guest sees is checked from
  both browser languages in every game; the player's page, which only the signed-up see, from
  both browser languages across the games (English at even places, German at odd ones). The
  cell where browser and site agree is the invited person at a table of two, in every game.
- Each game is played in both languages (the guest in one, the signed-up player in the
  other); each page is looked at in both through the switch, so the German score sheet and
  rating chart are checked in every game whatever language the hand was played in.
- Two people at one table play in one language, with one browser in each language, one
  person each; both review their own decisions, both see the score sheet; the replay and the
  deal played again go the same way for a person at a table of people as alone, so the
  invited person's stand for the host's. A player's page needs a rated match, which leaving a
  table of people does not give: the signed-up cell stands for it.
- A guest has no player page (it is a signed-up player's page: 404 for a guest).
- A guest alone walks one game: the two people at a table are guests too, in the guest's cell
  of every game (the host's browser in the other language, the hard case), and a guest alone
  differs only in the way in from the lobby, which names no game.

In CI: the whole matrix runs on the first pass (SQLite + in-memory channel layer). On the
PostgreSQL + Redis pass only the two-people journeys run again: there the channel layer carries
every move between two browsers, which is what that pass is for; a person alone takes the path
through the database and the channel layer that the other browser tests already walk on that
pass (test_gongzhu, test_doudizhu, test_gandengyan, test_play_together), so the solo journeys
are marked ``once``.
"""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from games.registry import table_games
from tests.e2e.journeys import (
    LANGS,
    SVG_NUMBERS,
    Journey,
    both_languages,
    chart,
    leave_the_match,
    other,
    play_the_hand,
    replay_of_the_deal,
    review_figures,
    seat_plan,
    start_alone,
    their_turn_at_the_table,
    to_their_turn,
)
from tests.e2e.test_play_together import (
    board_ready,
    create_table,
    guest_allowance,  # noqa: F401  (a fresh count of guests for this module)
    invite_link,
    seat_taken,
    sign_up,
    start,
    take_seat,
)

GAMES = [g for g in table_games() if g.playable]
# The games players see. The toy game (the tests' own, a plug-in of a game nobody plays) shows
# that the machinery names no game: once through the longest journey, of two people, is
# enough for that (CI's time); alone, a guest and a signed-up player play the real games.
LISTED = [g for g in GAMES if not g.info.unlisted]


def guest_language(i: int) -> str:
    return LANGS[i % 2]


def cells(language_at, games=GAMES):
    """One cell per game (by default every game of the registry): (game, the language the site
    is played in)."""
    return [
        pytest.param(g.name, language_at(i), id=f"{g.name}-{language_at(i)}")
        for i, g in enumerate(games)
    ]


def review_and_score_sheet(journey, page, table_url, where=""):
    """From the hand's summary: the review, then the score sheet from the review's link."""
    page.get_by_test_id("review-link").click()
    expect(page).to_have_url(re.compile(r"/hands/1/review/$"))
    both_languages(journey, page, f"{where}review", review_figures)
    sheet = urlsplit(table_url.replace("/tables/", "/matches/")).path
    page.locator(f"main a[href='{sheet}']").first.click()
    expect(page).to_have_url(re.compile(f"{sheet}$"))
    both_languages(journey, page, f"{where}score sheet", chart("svg.chart"))
    return sheet


def replay_and_the_deal_again(journey, page, sheet, table_url, lang, where=""):
    """From the score sheet: the hand's replay, and its deal played again."""
    page.locator(f"main a[href='{sheet}hands/1/']").first.click()
    expect(page).to_have_url(re.compile(f"{sheet}hands/1/$"))
    both_languages(journey, page, f"{where}replay", replay_of_the_deal)
    page.get_by_test_id("same-deal").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/tables/[0-9a-f-]+/$"))
    assert page.url != table_url
    board_ready(page)
    to_their_turn({0: page})
    both_languages(journey, page, f"{where}the deal again", their_turn_at_the_table, table=True)


def alone(journey, page, site_url, game, lang):
    """Start from the lobby, the switch mid-hand, the whole hand, and the pages after it."""
    table_url = start_alone(page, site_url, game, lang)
    to_their_turn({0: page})
    both_languages(journey, page, "table mid-hand", their_turn_at_the_table, table=True)
    play_the_hand({0: page})
    sheet = review_and_score_sheet(journey, page, table_url)
    replay_and_the_deal_again(journey, page, sheet, table_url, lang)
    return table_url


# A guest alone, for one game (CI's time): the way in from the lobby is the machinery's, every
# game's pages in the same language are the two-people journey's (whose people are guests too),
# and each game played alone by a guest is its own browser test's (test_<game>.py).
@pytest.mark.once
@pytest.mark.parametrize(("game", "lang"), cells(guest_language, LISTED)[-1:])
def test_a_guest(browser_in, site_url, game, lang):
    journey = Journey(f"a guest playing {game} in {lang}, the browser in {other(lang)}")
    page = browser_in(other(lang))
    alone(journey, page, site_url, game, lang)
    journey.done()


@pytest.mark.once
@pytest.mark.parametrize(("game", "lang"), cells(lambda i: other(guest_language(i)), LISTED))
def test_a_signed_up_player(browser_in, site_url, game, lang):
    journey = Journey(f"a player playing {game} in {lang}, the browser in {other(lang)}")
    page = browser_in(other(lang))
    sign_up(page, site_url, "journey", lang=lang)
    table_url = alone(journey, page, site_url, game, lang)
    # Back at the match, the player leaves it (rated) and finds their rating.
    page.goto(table_url)
    board_ready(page)
    leave_the_match(page)
    page.locator(".account-menu summary").click()
    page.locator(".account-menu__panel a[href*='/players/']").click()
    both_languages(journey, page, "player page", chart("svg.chart--rating"))
    journey.done()


# Once too: the pages and languages are the journey's; people at one table on PostgreSQL and
# Redis are test_play_together's, which runs on both passes (CI's time: 2-2.5 min each here).
@pytest.mark.once
@pytest.mark.parametrize(("game", "lang"), cells(guest_language))
def test_two_people_at_one_table(browser_in, site_url, game, lang):
    journey = Journey(f"two people playing {game} in {lang}, browsers in {other(lang)} and {lang}")
    host, invited = browser_in(other(lang)), browser_in(lang)
    info = next(g for g in GAMES if g.name == game).info
    create_table(host, site_url, game, seat_plan(info), lang=lang)
    table_url = host.url
    take_seat(invited, invite_link(host))
    seat_taken(host, 1)
    start(host, invited)
    people = {0: host, 1: invited}
    to_their_turn(people)
    for who, page in (("host", host), ("invited", invited)):
        both_languages(journey, page, f"{who}: table mid-hand", board_ready, table=True)
    play_the_hand(people)
    for who, page in (("host", host), ("invited", invited)):
        sheet = review_and_score_sheet(journey, page, table_url, f"{who}: ")
    replay_and_the_deal_again(journey, invited, sheet, table_url, lang, "invited: ")
    journey.done()


@pytest.mark.layout
def test_the_svg_check_finds_a_decimal_comma(page):
    """The chart check is not satisfied by a page it cannot read."""
    page.set_content(
        '<svg viewBox="0 0 640 260"><line x1="36" x2="622.0" y1="1" y2="1"/>'
        '<polyline points="36.0,10.5 622.0,20.0"/></svg>'
    )
    assert page.evaluate(SVG_NUMBERS) == []
    page.set_content('<svg viewBox="0 0 640 260"><line x1="36" x2="622,0" y1="1" y2="1"/></svg>')
    assert page.evaluate(SVG_NUMBERS) == ['<line x2="622,0">']
