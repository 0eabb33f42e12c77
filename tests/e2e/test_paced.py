"""One paced table per game in Chromium, against a daphne with the bots' pauses on (the other
browser tests play without them): the bots' replies to a move, made together with it and sent
to the page ahead, show one at a time, a pause apart, and the page ends at the player's turn. A reload while
they are on their way shows the table as it is shown then, and carries on."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import test_doudizhu as ddz
from tests.e2e import test_gandengyan as gdy
from tests.e2e import test_gongzhu as gz
from tests.e2e.boards import play_the_selection
from tests.servers import daphne, fresh_database

# The bots' replies shown a pause apart (the socket's own timers): the same code on either
# stack, so CI runs it on its first pass only.
pytestmark = pytest.mark.once

# Every version the board shows, with when it first showed (ms, the page's clock).
RECORDER = """
window.__seen = [];
new MutationObserver(() => {
  const board = document.getElementById("board");
  const version = board && Number(board.dataset.version);
  const seen = window.__seen;
  if (version && (!seen.length || seen[seen.length - 1][1] !== version)) {
    seen.push([performance.now(), version]);
  }
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ["data-version"]});
"""
# The bots' pauses are 0.8 s (a move) and 1.6 s (a trick or round taken): well above this.
LEAST_GAP_MS = 500


def next_hand_if_over(page, over: str) -> bool:
    """A hand over (``over`` shows) within the player's first moves, as a random deal may
    have it: the next hand dealt, and True."""
    if not page.locator(over).is_visible():
        return False
    page.get_by_test_id("next-hand").click()
    expect(page.locator(over)).to_have_count(0)
    return True


@pytest.fixture(scope="module")
def paced_url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("paced")
    with fresh_database(tmp) as env, daphne({**env, "GAME_PACING": "1"}, tmp) as url:
        yield url


def gz_wait(page):
    gz.wait_for_turn_or_summary(page)


def gz_turn(page):
    if page.locator("#exposure-form").is_visible():
        page.get_by_test_id("expose-none").click()
        return
    card = page.locator(".hand__card.is-playable").first
    card.click(position=gz.EDGE)
    expect(card).to_have_class(re.compile("is-selected"))
    page.get_by_test_id("play").click()


def gdy_wait(page):
    gdy.wait_for_turn_or_settlement(page)
    gdy.skip_deal(page)


def gdy_turn(page):
    page.get_by_test_id("hint").click()
    page.wait_for_selector("#board[data-hint]")
    if page.locator("#board").get_attribute("data-hint") == "pass":
        page.get_by_test_id("pass").click()
        return
    play_the_selection(page)


def ddz_turn(page):
    ddz.take_turn(page)


def gz_start(page, url):
    page.goto(f"{url}/en/")
    page.get_by_test_id("play-gongzhu").click()
    expect(page).to_have_url(re.compile(r"/en/tables/[0-9a-f-]+/$"))
    expect(page.locator("#board")).to_be_visible()


GAMES = {
    "gongzhu": (gz_start, gz_wait, gz_turn, ".summary__panel"),
    "gandengyan": (
        lambda page, url: gdy.start(page, url, seats="4"),
        gdy_wait,
        gdy_turn,
        "[data-testid=settlement]",
    ),
    "doudizhu": (ddz.start, ddz.wait_for_turn, ddz_turn, "[data-testid=settlement]"),
}


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_bots_replies_show_one_at_a_time_a_pause_apart(page, paced_url, game):
    start, wait, turn, over = GAMES[game]
    page.add_init_script(RECORDER)
    # The replies come ahead, in a message after the move's answer, each marked with its
    # time (games/frames.py, AFTER): the page itself holds them back until then.
    ahead = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda m: ahead.append(m) if "data-after" in m else None),
    )
    start(page, paced_url)
    reloaded = False
    for _ in range(16):
        wait(page)
        if next_hand_if_over(page, over):
            continue
        before = version(page)
        page.evaluate("v => { window.__seen = [[performance.now(), v]]; }", before)
        turn(page)
        expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
        if not reloaded:
            # A reload while the replies are on their way: the table as shown then, and on.
            reloaded = True
            page.reload()
            expect(page.locator("#board")).to_be_visible()
            wait(page)
            continue
        wait(page)
        seen = page.evaluate("window.__seen")[1:]  # the versions after ``before``
        versions = [v for _t, v in seen]
        if len(versions) < 3:
            continue  # the player's move and fewer than two replies: try the next turn
        assert versions == list(range(before + 1, before + 1 + len(versions))), seen
        gaps = [b - a for (a, _v), (b, _w) in zip(seen[:-1], seen[1:], strict=True)]
        assert min(gaps) >= LEAST_GAP_MS, seen
        assert ahead, "the replies were not sent ahead"
        return
    raise AssertionError("no move of the player's drew two replies")
