"""The deal of the day in Chromium: two guests, one in English and one in German, each in a
browser of their own, play today's deal of a listed game from the lobby's "Today's deal";
they get the same cards, play the hand through the page as a person (never Hint: it is refused
at a daily table), see their places in the day's standings and their decisions beside the
other's; neither may play the deal again, and a third person who has not played it sees
nothing of its play (neither the standings nor the best result's replay).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.registry import table_games
from tests.e2e.journeys import start_alone
from tests.e2e.test_gandengyan import code_of, skip_deal
from tests.e2e.test_play_together import EDGE, READY, board_ready, version

pytestmark = pytest.mark.once

LISTED = [g.name for g in table_games() if g.playable and not g.info.unlisted]
JOKERS = ("BJ", "RJ")
# What a person at the table may do now (READY's answers other than "done" and "").
TURN = ("play", "bid", "expose")
ANY_STATE = f"() => ({READY})() !== ''"
# The hand's own cards and every card the board shows.
CARDS = """() => ({
  hand: [...document.querySelectorAll('#board .hand__card[data-card]')].map(e => e.dataset.card),
  board: [...document.querySelectorAll('#board [data-card]')].map(e => e.dataset.card),
})"""
# A move went through (the board's version moved on) or the page refused it (a toast).
MOVED_OR_REFUSED = """(before) => {
  const b = document.getElementById('board');
  const toast = document.querySelector('#toast .toast__msg');
  return (b && b.dataset.version !== before) || (!!toast && toast.textContent.trim() !== '');
}"""
# The same, or the page asks which reading the selection is (its reading chips).
MOVED_REFUSED_OR_ASKED = """(before) => {
  const b = document.getElementById('board');
  const r = document.getElementById('readings');
  const toast = document.querySelector('#toast .toast__msg');
  return (b && b.dataset.version !== before) || (!!r && !r.hidden)
    || (!!toast && toast.textContent.trim() !== '');
}"""
# Submit a form the page no longer offers, as a page left open would: a POST to ``action``.
POST_FORM = """([action, token]) => {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = action;
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = 'csrfmiddlewaretoken';
  input.value = token;
  form.appendChild(input);
  document.body.appendChild(form);
  form.submit();
}"""


@pytest.fixture(scope="module", autouse=True)
def guest_allowance(site):
    """Every guest of the session comes from 127.0.0.1: this module's start from a fresh
    count (as test_play_together's do)."""
    from tests.e2e.test_play_together import _shell

    _shell(
        site[1],
        "from cardsite.accounts.models import RateCounter; "
        "RateCounter.objects.filter(name__startswith='guest:').delete()",
    )


# ---------------------------------------------------------------- the server's side


def table_facts(site_shell, code: str) -> dict:
    """The daily table ``code`` as the server has it: its deal's hands (seat 0 is the
    player's), the cards the computers have played so far, the deal's day, and how many
    tables that deal has."""
    out = site_shell(
        "import json; from games.models import ActionLog, Table; "
        f"t = Table.objects.select_related('daily').get(code='{code}'); "
        "played = [c for a in ActionLog.objects.filter(table=t).exclude(seat=0) "
        "for c in (a.action.get('cards') or ([a.action['card']] if a.action.get('card') else []))]; "
        "print(json.dumps({'hands': t.daily.deal['hands'], 'played': played, "
        "'day': t.daily.day.isoformat(), 'game': t.game, 'level': t.level, "
        "'tables': Table.objects.filter(daily=t.daily).count()}))"
    )
    return json.loads(out.strip().splitlines()[-1])


def daily_tables(site_shell, game: str) -> int:
    """How many tables today's deal of ``game`` has (one per player who started it)."""
    out = site_shell(
        "from games.models import Table; from games import services; "
        f"print(Table.objects.filter(daily=services.deal_of('{game}')).count())"
    )
    return int(out.strip().splitlines()[-1])


# ---------------------------------------------------------------- a person at the table


def to_the_daily_table(page, site_url: str, lang: str, game: str) -> str:
    """From the lobby: "Today's deal", then the game's "Play today's deal". The table's code."""
    page.goto(f"{site_url}/{lang}/")
    page.get_by_test_id("to-daily").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/daily/$"))
    page.get_by_test_id(f"daily-play-{game}").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/tables/[0-9a-f-]+/$"))
    board_ready(page)
    expect(page.locator("#board .hand__card").first).to_be_attached()
    expect(page.get_by_test_id("daily-banner")).to_be_visible()
    return code_of(page)


def _tap_and_play(page, cards: list[str]) -> bool:
    """Select ``cards`` (taps on their edges), press Play (the first reading where the
    selection reads more than one way). False where the page refused it (then cleared)."""
    before = version(page)
    try:
        for code in cards:
            card = page.locator(f"#board .hand__card[data-card='{code}']")
            card.click(position=EDGE, timeout=3000)
            expect(card).to_have_class(re.compile("is-selected"), timeout=2000)
        page.get_by_test_id("play").click(timeout=3000)
        page.wait_for_function(MOVED_REFUSED_OR_ASKED, arg=before, timeout=5000)
        chips = page.get_by_test_id("reading")
        if version(page) == before and chips.count():
            chips.first.click(timeout=3000)
        page.wait_for_function(MOVED_OR_REFUSED, arg=before, timeout=5000)
    except (AssertionError, PlaywrightTimeout):
        pass
    if version(page) != before:
        return True
    page.keyboard.press("Escape")  # a refused play keeps its selection: cleared
    page.evaluate("() => { const t = document.getElementById('toast'); if (t) t.innerHTML = ''; }")
    return False


def _lead(page) -> None:
    """Leading where a play may take several cards: the lowest card that may go alone (a
    joker never goes alone in Gan Deng Yan); failing that, every card at once."""
    hand = page.evaluate(CARDS)["hand"]
    playable = page.evaluate(
        "() => [...document.querySelectorAll('#board .hand__card.is-playable')]"
        ".map(e => e.dataset.card)"
    )
    singles = [c for c in (playable or hand) if c not in JOKERS]
    for code in singles[:3]:
        if _tap_and_play(page, [code]):
            return
    _tap_and_play(page, hand)


def act(page, what: str) -> None:
    """One move as a person makes it, with the board's own buttons and cards and never Hint:
    Gong Zhu's exposure (nothing exposed), a bid (the highest offered), one card (tapped, and
    tapped again to play it); in the climbing games a pass when following, the lowest card
    when leading."""
    before = version(page)
    if what == "expose":
        page.get_by_test_id("expose-none").click()
        expect(page.locator("#exposure-form")).to_have_count(0)
        return
    if what == "bid":
        bids = page.locator("[data-testid=bids] [data-testid^=bid-]")
        values = [int(b.get_attribute("data-testid")[4:]) for b in bids.all()]
        if not values:
            return
        page.get_by_test_id(f"bid-{max(values)}").click(timeout=5000)
        page.wait_for_function(MOVED_OR_REFUSED, arg=before, timeout=5000)
        return
    # No Hint at a daily table: the board shows none to press.
    assert not page.locator("[data-testid=hint]:visible").count(), "a Hint button is shown"
    if not page.locator("#board .combo-hand").count():  # Gong Zhu: one card to a play
        code = page.locator("#board .hand__card.is-playable").first.get_attribute("data-card")
        card = page.locator(f"#board .hand__card[data-card='{code}']")
        card.click(position=EDGE)  # selects it
        card.click(position=EDGE)  # a second tap plays it
        page.wait_for_function(MOVED_OR_REFUSED, arg=before, timeout=5000)
        return
    skip_deal(page)
    passing = page.get_by_test_id("pass")
    if passing.count() and passing.is_visible():
        passing.click()
        page.wait_for_function(MOVED_OR_REFUSED, arg=before, timeout=5000)
    else:
        _lead(page)


def play_the_hand(page, limit: int = 300) -> None:
    """The person plays their seat until the hand's summary is up."""
    for _ in range(limit):
        state = page.evaluate(READY)
        if state == "done":
            return
        if state in TURN:
            # A timeout: the board was drawn again meanwhile, the loop looks again.
            with contextlib.suppress(PlaywrightTimeout):
                act(page, state)
        else:
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(ANY_STATE, timeout=15_000)
    raise AssertionError(f"the hand did not end (the page says {page.evaluate(READY)!r})")


# ---------------------------------------------------------------- what the pages show


def own_row(page):
    """The player's own row of the day's standings: (place, name, score)."""
    row = page.locator("[data-testid=daily-standings] tbody tr.is-own")
    expect(row).to_have_count(1)
    place, name, score = (row.locator("td").nth(i).inner_text().strip() for i in range(3))
    return int(place), name, score


def the_days_page(page, lang: str, game: str, day: str, *, second: bool) -> tuple[int, str]:
    """From the summary's link to the day's page: the player's result and place, the
    standings of both players, the comparison. The place and the score."""
    summary = page.get_by_test_id("daily-end")
    expect(summary).to_be_visible()
    expect(page.get_by_test_id("hint")).to_have_count(0)
    page.get_by_test_id("daily-see").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/daily/{game}/{day}/$"))
    expect(page.get_by_test_id("daily-closed")).to_have_count(0)
    mine = page.get_by_test_id("daily-mine")
    expect(mine).to_be_visible()
    score = page.get_by_test_id("daily-score").inner_text().strip()
    assert re.fullmatch(r"-?\d+", score), score
    rows = page.locator("[data-testid=daily-standings] tbody tr")
    expect(rows).to_have_count(2)
    for i in range(2):
        cells = rows.nth(i).locator("td")
        expect(cells).to_have_count(3)
        expect(cells.nth(0)).to_have_text(re.compile(r"^\s*[12]\s*$"))
        expect(cells.nth(1)).not_to_be_empty()
        expect(cells.nth(2)).to_have_text(re.compile(r"^\s*-?\d+\s*$"))
    place, _name, own_score = own_row(page)
    assert own_score == score
    # "place 1 of 2", "Platz 1 von 2": the place and the number of players.
    expect(mine).to_contain_text(re.compile(rf"\b{place}\b\D+\b2\b"))
    expect(page.get_by_test_id("daily-share")).to_contain_text(re.compile(r"\d+\s*%"))
    expect(page.get_by_test_id("daily-comparison")).to_be_visible()
    if second:
        # The first finisher faced the same first positions: the comparison says how often
        # the player played as most did, lists the decisions where they did not, and all of
        # them behind "All your decisions".
        expect(page.get_by_test_id("daily-agree")).to_contain_text(re.compile(r"\d+"))
        everything = page.locator(".daily-all")
        everything.locator("summary").click()
        row = everything.get_by_test_id("compare-row").first
        expect(row).to_be_visible()
        expect(row).to_contain_text(re.compile(r"\d+\s*%"))
    expect(page.get_by_test_id("daily-best-link")).to_be_visible()
    return place, score


def cannot_play_again(page, site_url: str, lang: str, game: str, site_shell) -> None:
    """Today's deals: the game's result, no Play; a POST to start it again (a form the page no
    longer offers) leads back here with a refusal, and no table is made."""
    from django.utils import translation

    from games.messages import refusal

    page.goto(f"{site_url}/{lang}/daily/")
    expect(page.get_by_test_id(f"daily-result-{game}")).to_be_visible()
    expect(page.get_by_test_id(f"daily-result-{game}")).to_contain_text(re.compile(r"\b2\b"))
    expect(page.get_by_test_id(f"daily-standings-{game}")).to_be_visible()
    expect(page.get_by_test_id(f"daily-play-{game}")).to_have_count(0)
    expect(page.get_by_test_id(f"daily-continue-{game}")).to_have_count(0)
    before = daily_tables(site_shell, game)
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    with page.expect_navigation():
        page.evaluate(POST_FORM, [f"/{lang}/daily/{game}/", token])
    expect(page).to_have_url(re.compile(rf"/{lang}/daily/$"))
    with translation.override(lang):
        said = str(refusal("daily_played", {}, game))
    expect(page.locator(".flash--error")).to_have_text(said)
    expect(page.get_by_test_id(f"daily-result-{game}")).to_be_visible()
    expect(page.get_by_test_id(f"daily-play-{game}")).to_have_count(0)
    # No new table (other tests on this server may have sat down at today's deal too).
    assert daily_tables(site_shell, game) == before


def nothing_before_playing(page, site_url: str, lang: str, game: str, day: str) -> None:
    """Someone who has not played today's deal: the day's page is closed (no standings, no
    best result), the best result's replay is not found, and the deal stays theirs to play."""
    day_url = f"{site_url}/{lang}/daily/{game}/{day}/"
    page.goto(day_url)
    expect(page.get_by_test_id("daily-closed")).to_be_visible()
    expect(page.get_by_test_id("daily-day")).to_contain_text(re.compile(r"\b2\b"))
    for hidden in ("daily-standings", "daily-mine", "daily-comparison", "daily-best-link"):
        expect(page.get_by_test_id(hidden)).to_have_count(0)
    response = page.goto(day_url + "best/")
    assert response.status == 404
    expect(page.get_by_test_id("daily-best")).to_have_count(0)
    # Refused, the address has not counted as having seen the deal played.
    page.goto(day_url)
    expect(page.get_by_test_id("daily-closed")).to_be_visible()
    expect(page.get_by_test_id("daily-play")).to_be_visible()


# ---------------------------------------------------------------- the test


# One game in the browsers (CI's time): the deal of the day's machinery names no game. Every
# game's day (the same cards for two players, Hard's same answers, the standings, the
# comparison, no second try) is tests/games/test_daily.py's, through the views; every game's
# board in both languages is the journeys' (test_journeys.py).
@pytest.mark.parametrize("game", LISTED[:1])
def test_two_players_play_the_days_deal_once_and_compare(game, browser_in, site_url, site_shell):
    langs = ("en", "de")
    pages = {lang: browser_in(lang) for lang in langs}
    codes = {lang: to_the_daily_table(pages[lang], site_url, lang, game) for lang in langs}
    assert codes["en"] != codes["de"]

    # The same cards: each page's hand before its first move is the deal's seat 0.
    hands = {lang: sorted(pages[lang].evaluate(CARDS)["hand"]) for lang in langs}
    facts = table_facts(site_shell, codes["en"])
    assert facts["game"] == game and facts["level"] == "hard"
    assert hands["en"] == hands["de"], "the two players were dealt different cards"
    assert hands["en"] == sorted(facts["hands"][0])
    # The first player's page shows none of the other players' cards (but those played).
    seen = pages["en"].evaluate(CARDS)
    facts = table_facts(site_shell, codes["en"])
    others = {c for h in facts["hands"][1:] for c in h} - set(facts["played"])
    assert not set(seen["board"]) & others, "the page shows another player's cards"
    assert not set(seen["hand"]) & {c for h in facts["hands"][1:] for c in h}

    for lang in langs:  # the English guest finishes first, then the German one
        play_the_hand(pages[lang])
        expect(pages[lang].get_by_test_id("daily-end")).to_be_visible()

    day = facts["day"]
    results = {
        lang: the_days_page(pages[lang], lang, game, day, second=lang == "de") for lang in langs
    }
    # Places as the scores give them (a tie shares the first place).
    scores = {lang: int(score) for lang, (_place, score) in results.items()}
    for lang in langs:
        other = scores[langs[1 - langs.index(lang)]]
        assert results[lang][0] == (2 if other > scores[lang] else 1), (results, scores)

    for lang in langs:
        cannot_play_again(pages[lang], site_url, lang, game, site_shell)

    # Having played it, the German guest may see how the best result was played.
    de = pages["de"]
    de.goto(f"{site_url}/de/daily/{game}/{day}/")
    de.get_by_test_id("daily-best-link").click()
    expect(de).to_have_url(re.compile(rf"/de/daily/{game}/{day}/best/$"))
    expect(de.get_by_test_id("daily-best")).to_be_visible()

    # DAILY_SHOTS=<dir>: the day's page of the second finisher, on a desktop and a phone
    # (looked at, not compared).
    folder = os.environ.get("DAILY_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        de.goto(f"{site_url}/de/daily/{game}/{day}/")
        de.screenshot(path=f"{folder}/{game}-day-desktop.png", full_page=True)
        de.set_viewport_size({"width": 390, "height": 844})
        de.screenshot(path=f"{folder}/{game}-day-phone.png", full_page=True)

    # A third person, who has not played it: first a visitor, then a guest (at a game of
    # their own against the computer).
    third = browser_in("en")
    nothing_before_playing(third, site_url, "en", game, day)
    start_alone(third, site_url, game, "en")
    expect(third.locator(".account-menu summary")).to_be_visible()
    nothing_before_playing(third, site_url, "en", game, day)
    third.goto(f"{site_url}/en/daily/")
    expect(third.get_by_test_id(f"daily-play-{game}")).to_be_visible()
    expect(third.get_by_test_id(f"daily-result-{game}")).to_have_count(0)

    # The third person chooses to see how the best result was played instead: from then on
    # the deal cannot count for them.
    third.goto(f"{site_url}/en/daily/{game}/{day}/")
    third.get_by_test_id("daily-reveal").click()
    expect(third).to_have_url(re.compile(rf"/en/daily/{game}/{day}/best/$"))
    expect(third.get_by_test_id("daily-best")).to_be_visible()
    third.goto(f"{site_url}/en/daily/")
    expect(third.get_by_test_id(f"daily-seen-{game}")).to_be_visible()
    expect(third.get_by_test_id(f"daily-play-{game}")).to_have_count(0)
    third.goto(f"{site_url}/en/daily/{game}/{day}/")
    expect(third.get_by_test_id("daily-seen")).to_be_visible()
    expect(third.get_by_test_id("daily-play")).to_have_count(0)
