"""A person's way through a game, page by page, for the journey matrix (test_journeys.py):
what a person does on each page, and what they must see there.

Moves are a person's: the board's own buttons, clicked (Hint, then Play or Pass; a bid; Gong
Zhu's "Expose nothing"), never a message sent behind the page's back. A journey writes down
each fault it meets and goes on, so that one run names every page that fails, not only the
first; the test fails at the end with the whole list.
"""

from __future__ import annotations

import contextlib
import re
from urllib.parse import urlsplit

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.test_gandengyan import skip_deal
from tests.e2e.test_play_together import (
    EDGE,
    READY,
    _moved,
    board_ready,
    gandengyan_act,
    gongzhu_act,
    play_together,
    version,
)

LANGS = ("en", "de")
# Hard weighs every decision of a hand in one worker at the lowest priority: on a busy machine
# that is the slowest step of a journey.
REVIEW_TIMEOUT = 180_000
# What a person may do at the table: their move is asked for.
TURN = ("play", "bid", "expose")

# Every number an SVG attribute of the page holds, as the browser must read it: the numbers
# that are not numbers (a German "622,0" where 622.0 was meant), as "tag attribute=value".
SVG_NUMBERS = r"""() => {
  const number = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?(px|%|em)?$/;
  const single = new Set(['x', 'y', 'x1', 'x2', 'y1', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'dx',
    'dy', 'width', 'height', 'stroke-width', 'font-size', 'opacity', 'fill-opacity',
    'stroke-opacity', 'offset', 'stroke-dashoffset']);
  const bad = [];
  for (const el of document.querySelectorAll('svg, svg *')) {
    for (const a of el.attributes) {
      const v = a.value.trim();
      let ok = true;
      if (a.name === 'viewBox') {
        const parts = v.split(/[\s,]+/);
        ok = parts.length === 4 && parts.every((p) => number.test(p));
      } else if (a.name === 'points') {
        ok = v.split(/\s+/).every((pair) => /^[^,]+,[^,]+$/.test(pair)
          && pair.split(',').every((p) => number.test(p)));
      } else if (a.name === 'stroke-dasharray') {
        ok = v.split(/[\s,]+/).every((p) => number.test(p));
      } else if (single.has(a.name) || /^[-+\d\s.,]+$/.test(v)) {
        ok = v.split(/\s+/).every((p) => number.test(p));
      }
      if (!ok) bad.push(`<${el.tagName} ${a.name}="${a.value}">`);
    }
  }
  return bad;
}"""


def other(lang: str) -> str:
    return LANGS[1 - LANGS.index(lang)]


class Journey:
    """The faults one journey met, each with where it was."""

    def __init__(self, who: str) -> None:
        self.who = who
        self.faults: list[str] = []

    @contextlib.contextmanager
    def step(self, where: str):
        """A check whose failure is written down; the journey goes on after it."""
        try:
            yield
        except AssertionError as e:
            said = " ".join(str(e).split())
            self.faults.append(f"{where}: {said[:400]}")

    def done(self) -> None:
        assert not self.faults, f"{self.who}:\n  " + "\n  ".join(self.faults)


# ---------------------------------------------------------------- at the table


def person_moves(page, what: str) -> None:
    """One move as a person makes it with what the board offers: Gong Zhu's exposure (nothing
    exposed); a bid (the highest offered: the person wants to lead the hand, so that its review
    has plays of theirs to weigh); a card where a play is one card (tapped, and tapped again to
    play it); a lead where a play may take several cards (the lowest card tapped, then Play);
    otherwise Hint's choice (Hint selects, then Play or Pass)."""
    if what == "expose":
        gongzhu_act(page, what)
    elif what == "bid":
        before = version(page)
        bids = page.locator("[data-testid=bids] [data-testid^=bid-]")
        values = [int(b.get_attribute("data-testid")[4:]) for b in bids.all()]
        try:
            page.get_by_test_id(f"bid-{max(values)}").click(timeout=5000)
        except (PlaywrightTimeout, ValueError):
            return  # the board was drawn again meanwhile: the loop looks again
        _moved(page, before)
    elif what != "play":
        return
    elif not page.locator("#board .combo-hand").count():
        gongzhu_act(page, what)
    elif page.get_by_test_id("pass").count() or not _lead_the_lowest_card(page):
        gandengyan_act(page, what)


def _lead_the_lowest_card(page) -> bool:
    """Leading: tap the lowest card and play it. False where the page refused it (the
    selection is cleared again)."""
    skip_deal(page)
    before = version(page)
    card = page.locator("#board .hand__card").first
    try:
        card.click(position=EDGE, timeout=3000)
        expect(card).to_have_class(re.compile("is-selected"), timeout=2000)
        page.get_by_test_id("play").click(timeout=3000)
        expect(page.locator("#board")).not_to_have_attribute("data-version", before, timeout=4000)
    except (AssertionError, PlaywrightTimeout):
        page.keyboard.press("Escape")
        return False
    return True


def to_their_turn(people: dict) -> None:
    """Play on until one of the people is asked for a move (the hand goes on meanwhile)."""
    play_together(
        people, person_moves, until=lambda: any(p.evaluate(READY) in TURN for p in people.values())
    )


def play_the_hand(people: dict) -> None:
    """Every person plays their seat until each page shows the hand's summary."""
    play_together(people, person_moves)
    for page in people.values():
        expect(page.locator(".summary__panel")).to_be_visible()


def start_alone(page, site_url: str, game: str, lang: str) -> str:
    """From the lobby in ``lang``: the game's Play button (and its setup's Start, if it has
    one). The table's address."""
    page.goto(f"{site_url}/{lang}/")
    page.get_by_test_id(f"play-{game}").click()
    start = page.get_by_test_id("start")
    expect(page.locator("#board").or_(start)).to_be_visible()
    if start.is_visible():
        start.click()
    expect(page).to_have_url(re.compile(rf"/{lang}/tables/[0-9a-f-]+/$"))
    board_ready(page)
    return page.url


def seat_plan(info) -> list[str]:
    """The "Play with friends" form's seats after the host's: an invited person first, then the
    computers of the game's usual table, and no seat beyond it."""
    return [
        "person" if i == 1 else "normal" if i < info.default_seats else "none"
        for i in range(1, max(info.seat_counts))
    ]


def _reachable(locator) -> bool:
    try:
        locator.click(trial=True, timeout=1000)
    except PlaywrightTimeout:
        return False
    return True


def leave_the_match(page) -> None:
    """The table's Options menu: resign (confirmed), which ends and rates a match against the
    computer and shows its score sheet. Where a hand's summary covers the menu, the person
    closes it with Escape, and failing that deals the next hand (the one way out there is)."""
    options = page.locator(".table-menu summary")
    if not _reachable(options):
        page.keyboard.press("Escape")
    if not _reachable(options):
        before = version(page)
        page.get_by_test_id("next-hand").click()
        expect(page.locator("#board")).not_to_have_attribute("data-version", before)
    page.once("dialog", lambda dialog: dialog.accept())
    options.click()
    page.locator(".table-menu form[action$='/resign/'] button").click()
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f-]+/$"))


# ---------------------------------------------------------------- what each page must show


def their_turn_at_the_table(page) -> None:
    """A table to play: the board, the person's cards, and their move asked for."""
    board_ready(page)
    expect(page.locator("#board .hand__card").first).to_be_visible()
    assert page.evaluate(READY) in TURN, "the table does not ask for the person's move"


def review_figures(page) -> None:
    """The review is made and shows figures for the person's decisions. A play of their cards
    among the decisions is not required: whether Hard weighs one depends on the deal (a
    peasant whose partner and landlord play the hand out may only have passed). In Dou Dizhu
    the person bids the most, so they mostly lead the hand and play."""
    review = page.get_by_test_id("review")
    expect(review).to_have_attribute(
        "data-status", re.compile("^(done|failed)$"), timeout=REVIEW_TIMEOUT
    )
    if review.get_attribute("data-status") != "done":
        raise AssertionError(f"the review page says {' '.join(review.inner_text().split())!r}")
    # The summary counts the decisions in words where there is one ("the one decision it
    # weighed"): the figures are the decisions'. A Dou Dizhu peasant whose landlord bid
    # first and played the hand out (a spring) may have had no choice at all: the page says so.
    summary, empty = page.get_by_test_id("review-summary"), page.get_by_test_id("review-empty")
    expect(summary.or_(empty)).to_be_visible()
    if empty.is_visible():
        expect(empty).not_to_be_empty()
        return
    expect(summary).not_to_be_empty()
    expect(page.get_by_test_id("review-decision").first).to_contain_text(re.compile(r"\d"))


def replay_of_the_deal(page) -> None:
    """The replay: the deal's cards and the offer to play it again."""
    expect(page.locator(".deal-grid .card").first).to_be_visible()
    expect(page.get_by_test_id("same-deal")).to_be_visible()


def chart(selector: str):
    """The page's chart (``selector``) with its line, and every SVG number a number."""

    def look(page) -> None:
        drawn = page.locator(selector)
        expect(drawn.first).to_be_visible()
        expect(drawn.first.locator("polyline").first).to_be_attached()
        bad = page.evaluate(SVG_NUMBERS)
        assert not bad, f"{len(bad)} SVG numbers do not parse, e.g. {', '.join(bad[:3])}"

    return look


# ---------------------------------------------------------------- the language switch


def _in_language(page) -> tuple[str, str]:
    """The page's language prefix and the rest of its path."""
    path = urlsplit(page.url).path
    found = re.match(r"^/([a-z]{2})(/.*)$", path)
    assert found, path
    return found.group(1), found.group(2)


def switch_language(journey: Journey, page, where: str, to: str, *, table: bool = False) -> None:
    """The header's switch to ``to``: the same page, now in ``to`` (its address, <html lang>,
    the switch's current language and the navigation's words); at a table, the table at the
    same version. Where the switch fails, the person goes on to the page in ``to`` by its
    address."""
    lang, rest = _in_language(page)
    words = page.locator(".main-nav").inner_text()
    before = version(page) if table else None
    with page.expect_navigation():
        page.locator(f".lang-switch button[value='{to}']").click()
    if table:
        board_ready(page)
    with journey.step(f"{where}: the switch {lang.upper()} → {to.upper()}"):
        assert _in_language(page) == (to, rest), f"it led to {urlsplit(page.url).path}"
        expect(page.locator("html")).to_have_attribute("lang", to)
        expect(page.locator(f".lang-switch button[value='{to}']")).to_have_attribute(
            "aria-current", "true"
        )
        assert page.locator(".main-nav").inner_text() != words, "the words stayed the same"
        if table:
            assert version(page) == before, f"the table moved from {before} to {version(page)}"
    if _in_language(page) != (to, rest):
        page.goto(f"{urlsplit(page.url)._replace(path=f'/{to}{rest}', query='').geturl()}")
        if table:
            board_ready(page)


def both_languages(journey: Journey, page, where: str, look, *, table: bool = False) -> None:
    """``look`` at the page in its language; then, as a person who came by a link (the site
    remembers no language for them), the switch to the other language, ``look`` there, and
    the switch back."""
    lang, _rest = _in_language(page)
    with journey.step(f"{where} ({lang})"):
        look(page)
    page.context.clear_cookies(name="django_language")
    switch_language(journey, page, where, other(lang), table=table)
    with journey.step(f"{where} ({other(lang)})"):
        look(page)
    switch_language(journey, page, where, lang, table=table)
