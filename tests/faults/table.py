"""A Gong Zhu table in Chromium for the fault tests, and what the database says about it."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.e2e.test_gongzhu import EDGE

TURN_OR_SUMMARY = "#board.is-my-turn .hand__card.is-playable, #exposure-form, .summary__panel"

# Numbers the page's sockets and notes which one the last message came from: a (re)connect's
# snapshot re-renders the board, so a test waits for it before it selects a card.
SOCKET_PROBE = """
document.addEventListener("htmx:wsOpen", () => { window.__sockets = (window.__sockets || 0) + 1; });
document.addEventListener("htmx:wsAfterMessage", () => { window.__lastFrom = window.__sockets; });
"""


class Sockets:
    """The page's table sockets as Chromium saw them: opened, and closed (by either side)."""

    def __init__(self, page):
        self.opened = []
        self.closed = []
        page.on("websocket", self._opened)

    def _opened(self, ws):
        if "/tables/" not in ws.url:
            return  # the lobby's, before the table page
        self.opened.append(ws)
        ws.on("close", lambda ws: self.closed.append(ws))


def start_table(page, base: str, lang: str = "en", level: str | None = None) -> str:
    """A guest's new Gong Zhu table, from the lobby, connected; its code."""
    page.add_init_script(SOCKET_PROBE)
    page.goto(f"{base}/{lang}/")
    if level:
        page.locator(f"#gongzhu label:has(input[name=level][value={level}])").click()
    page.get_by_test_id("play-gongzhu").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/tables/[0-9a-f-]+/$"))
    expect(page.locator("#board")).to_be_visible()
    expect_live(page)
    wait_for_snapshot(page, 1)
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def expect_live(page, timeout: float = 20_000) -> None:
    expect(page.get_by_test_id("live-status")).to_have_attribute(
        "data-state", "online", timeout=timeout
    )


def wait_for_snapshot(page, socket: int, timeout: float = 20_000) -> None:
    """Until the page's ``socket``-th table socket (1: the first) has delivered a frame."""
    page.wait_for_function(f"() => (window.__lastFrom || 0) >= {socket}", timeout=timeout)


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def hand_over(page) -> bool:
    return page.locator(".summary__panel").is_visible()


def choose_move(page, timeout: float = 20_000):
    """Wait for the player's turn and pick a move, up to (not including) sending it.

    Returns a function that sends it, or None when the hand is over. The exposure is declined.
    """
    page.wait_for_selector(TURN_OR_SUMMARY, state="visible", timeout=timeout)
    if hand_over(page):
        return None
    if page.locator("#exposure-form").is_visible():
        return page.get_by_test_id("expose-none").click
    card = page.locator(".hand__card.is-playable").first
    card.click(position=EDGE)
    expect(card).to_have_class(re.compile("is-selected"))
    return page.get_by_test_id("play").click


def my_move(page, timeout: float = 20_000) -> bool:
    """The player's next move, once it is their turn; False when the hand is over."""
    send = choose_move(page, timeout)
    if send is None:
        return False
    before = page.locator("#board").get_attribute("data-version")
    send()
    expect(page.locator("#board")).not_to_have_attribute("data-version", before, timeout=timeout)
    return True


def play_to_the_end(page, limit: int = 30) -> None:
    for _ in range(limit):
        if not my_move(page):
            return
    raise AssertionError("the hand did not end")


def wait_until(check, what: str, timeout: float = 20) -> object:
    """Poll ``check`` (the database, a log) until it returns something true, or fail."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout:.0f} s")
        time.sleep(0.02)  # the pause between two polls; the deadline bounds the wait


def log_of_hand(db, code: str, number: int = 1) -> list[tuple[int, int, dict]]:
    return db.execute(
        "SELECT l.seq, l.seat, l.action FROM games_actionlog l "
        "JOIN games_table t ON t.id = l.table_id JOIN games_hand h ON h.id = l.hand_id "
        "WHERE t.code = %s AND h.number = %s ORDER BY l.seq",
        (code, number),
    ).fetchall()


def assert_hand_whole(db, code: str, number: int = 1) -> list[tuple[int, int, dict]]:
    """Nothing lost, nothing doubled: the hand's log runs without a gap, every card was
    played exactly once, 13 by each seat, and the hand is recorded as over."""
    rows = log_of_hand(db, code, number)
    seqs = [seq for seq, _seat, _action in rows]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"gaps or repeats in {seqs}"
    plays = [(seat, action["card"]) for _seq, seat, action in rows if action["type"] == "play"]
    cards = [card for _seat, card in plays]
    assert len(cards) == len(set(cards)) == 52, f"{len(cards)} plays, {len(set(cards))} cards"
    for seat in range(4):
        assert sum(1 for s, _c in plays if s == seat) == 13, f"seat {seat} played ≠ 13 cards"
    ended = db.execute(
        "SELECT h.ended_at FROM games_hand h JOIN games_table t ON t.id = h.table_id "
        "WHERE t.code = %s AND h.number = %s",
        (code, number),
    ).fetchone()[0]
    assert ended is not None, "the hand is not recorded as over"
    return rows
