"""The feel of a card table in Chromium (static/js/feel.js): a hidden tab that marks the
player's turn in its title and icon; sounds, off until the player turns them on; cards that
travel, and a move made while they do taken at once."""

import os

import pytest
from playwright.sync_api import expect

from tests.e2e import test_doudizhu as ddz
from tests.e2e.test_paced import GAMES, next_hand_if_over, version

# What the page does by itself between frames: the database and the channel layer change
# nothing of it (CI runs it on its first pass only).
pytestmark = pytest.mark.once

# A tab in the background, as the page sees it: document.hidden and visibilityState follow
# window.__hidden, and hide(page, on) says so with the event a browser sends.
HIDDEN = """
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", {get() { return window.__hidden; }});
Object.defineProperty(Document.prototype, "visibilityState",
                      {get() { return window.__hidden ? "hidden" : "visible"; }});
"""


def hide(page, on: bool) -> None:
    page.evaluate(
        "on => { window.__hidden = on; document.dispatchEvent(new Event('visibilitychange')); }",
        on,
    )


def icon(page) -> str:
    return page.locator("link[rel=icon]").get_attribute("href")


YOUR_TURN = {"en": "Your turn", "de": "Du bist dran"}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_turn_that_begins_in_a_hidden_tab_marks_its_title_and_icon(page, site_url, lang):
    page.add_init_script(HIDDEN)
    ddz.start(page, site_url, lang=lang)
    ddz.wait_for_turn(page)
    title, plain_icon = page.title(), icon(page)
    assert "●" not in title and "turn" not in plain_icon

    # The player moves, then looks elsewhere; the computer players answer meanwhile.
    hide(page, True)
    ddz.take_turn(page)
    ddz.wait_for_turn(page)
    if page.get_by_test_id("settlement").is_visible():
        pytest.skip("the hand ended on the player's first move")  # a rare deal
    expect(page).to_have_title(f"● {YOUR_TURN[lang]} – {title}")
    assert icon(page).endswith("favicon-turn.svg")

    # Back on the tab: the title and icon are the page's own again; the board still says it.
    hide(page, False)
    expect(page).to_have_title(title)
    assert icon(page) == plain_icon
    expect(page.locator("#board.is-my-turn")).to_be_visible()


# Every media element's play(), as it is called: what it plays, and the element.
PLAYS = """
window.__played = [];
window.__audio = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  window.__played.push(this.src.split("/").pop());
  if (!window.__audio.includes(this)) window.__audio.push(this);
  return play.apply(this, arguments);
};
"""


def played(page) -> list[str]:
    return page.evaluate("window.__played")


def turns(page, n: int, until=None) -> int:
    """``n`` of the player's turns taken, each until it is theirs again: how many came back
    (a hand that ends stops early). With ``until``, turns go on past ``n`` (to a bound) until
    it holds: the bidding alone can take three turns, with no card played."""
    back = 0
    for _ in range(n + (30 if until else 0)):
        ddz.take_turn(page)
        ddz.wait_for_turn(page)
        if page.get_by_test_id("settlement").is_visible():
            if until is None or until() or not page.get_by_test_id("next-hand").is_visible():
                break
            # The hand ended before ``until`` held (a landlord who played it out at once, its
            # plays shown with the tricks they closed): the next hand, and on.
            page.get_by_test_id("next-hand").click()
            ddz.wait_for_turn(page)
        back += 1
        if back >= n and (until is None or until()):
            break
    return back


def test_with_sound_off_nothing_plays(page, site_url):
    page.add_init_script(PLAYS)
    ddz.start(page, site_url)
    ddz.wait_for_turn(page)
    expect(page.get_by_test_id("sound")).to_have_attribute("aria-pressed", "false")
    assert turns(page, 3) >= 1
    assert played(page) == []
    assert page.evaluate("document.querySelectorAll('audio').length") == 0


def test_with_sound_on_the_turn_sound_plays_once_per_turn_and_the_choice_is_kept(
    page, browser_in, site_url
):
    page.add_init_script(PLAYS)
    ddz.start(page, site_url)
    ddz.wait_for_turn(page)
    toggle = page.get_by_test_id("sound")
    with page.expect_response(lambda r: r.url.endswith("/accounts/sound/")) as saved:
        toggle.click()
    assert saved.value.status == 204
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert played(page) == []  # nothing before something happens

    def a_card_sounded():
        return "card.wav" in played(page) or "bomb.wav" in played(page)

    back = turns(page, 3, until=a_card_sounded)
    assert back >= 1
    assert played(page).count("turn.wav") == back
    assert a_card_sounded()
    # The files load from the site (its Content-Security-Policy allows them: conftest.py fails
    # a test on any violation).
    page.wait_for_function("() => window.__audio.every((a) => a.readyState >= 1 || a.error)")
    assert page.evaluate("window.__audio.every((a) => !a.error)")

    # The device remembers it, and so does the account: the same guest in another browser.
    page.reload()
    expect(page.get_by_test_id("sound")).to_have_attribute("aria-pressed", "true")
    other = browser_in("en")
    other.context.add_cookies(page.context.cookies())
    other.goto(page.url)
    expect(other.get_by_test_id("sound")).to_have_attribute("aria-pressed", "true")
    # Turned off there: off on that device, and for the account.
    other.get_by_test_id("sound").click()
    expect(other.get_by_test_id("sound")).to_have_attribute("aria-pressed", "false")


# The first card a computer player lays on the table from now on: its centre on screen at
# every frame while it moves, and its seat's centre and box (window.__travel).
TRAVEL = r"""() => {
  window.__travel = null;
  const sel = '#trick .trick__card:not(.trick__card--bottom) .card, #center .combo-play[data-seat] .card';
  // By its card: a region drawn again (a trick that closes) brings the same cards anew.
  const seen = new Set([...document.querySelectorAll(sel)].map((e) => e.dataset.card));
  const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
  const obs = new MutationObserver(() => {
    const card = [...document.querySelectorAll(sel)].find((e) => !seen.has(e.dataset.card) &&
      (!e.closest('.combo-play') || document.getElementById('seat-' + e.closest('.combo-play').dataset.seat)));
    if (!card) return;
    obs.disconnect();
    const mover = card.closest('.trick__card') || card;
    const slot = /trick__card--(\w+)/.exec(mover.className);
    const seat = slot ? document.querySelector('#board .seat--' + slot[1])
      : document.getElementById('seat-' + card.closest('.combo-play').dataset.seat);
    const r = seat.getBoundingClientRect();
    const t = window.__travel = {seat: centre(r), box: [r.left, r.top, r.right, r.bottom], at: [], done: false};
    const step = () => {
      t.at.push(centre(mover.getBoundingClientRect()));
      if (mover.isConnected && mover.getAnimations().length) requestAnimationFrame(step);
      else t.done = true;
    };
    step();
  });
  obs.observe(document.body, {subtree: true, childList: true});
}"""

# Every call of Element.animate, as it is called: what moves (its classes, whether it is a
# hand's card or the kitty's), its centre on screen then, and its first and last transform.
MOTIONS = """
window.__motions = [];
const animateOf = Element.prototype.animate;
Element.prototype.animate = function (frames) {
  const r = this.getBoundingClientRect();
  window.__motions.push({
    cls: String(this.className), hand: this.classList.contains('hand__card'),
    kitty: !!this.closest('#info-kitty'), at: [r.left + r.width / 2, r.top + r.height / 2],
    first: frames[0].transform || '', last: frames[frames.length - 1].transform || '',
    opacity: frames[frames.length - 1].opacity,
  });
  return animateOf.apply(this, arguments);
};
"""


def motions(page, kind: str) -> list[dict]:
    return page.evaluate(f"window.__motions.filter((m) => {kind})")


def translation(transform: str) -> tuple[float, float]:
    x, y = transform.split("translate(", 1)[1].split(")", 1)[0].split(",")
    return float(x.strip().removesuffix("px")), float(y.strip().removesuffix("px"))


def slow_motion(page, rate: float) -> None:
    """Every animation of the page at ``rate`` times its speed (Chrome's DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": rate})


def distance(a, b) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def until_a_bot_card(page, game, check) -> None:
    """The player's turns, until a computer player's card reaches the table after one of them:
    then ``check(page)``, with __travel recording that card."""
    start, wait, turn, over = GAMES[game]
    for _ in range(16):
        wait(page)
        if next_hand_if_over(page, over):
            continue
        page.evaluate(TRAVEL)
        before = version(page)
        # From the page's foot: a frame that shortens the page scrolls it (the card's start
        # is where its seat is on screen now, not where it was before the scroll).
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        turn(page)
        expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
        wait(page)
        if page.evaluate("window.__travel"):
            check(page)
            return
    raise AssertionError("no computer player's card reached the table")


@pytest.mark.parametrize("game", list(GAMES))
def test_a_computer_players_card_travels_from_its_seat_to_its_place(page, site_url, game):
    GAMES[game][0](page, site_url)
    slow_motion(page, 0.25)

    def travelled(page):
        page.wait_for_function("() => window.__travel.done", timeout=15000)
        t = page.evaluate("window.__travel")
        path, seat = t["at"], t["seat"]
        rest = path[-1]
        whole = distance(seat, rest)
        assert whole > 40, t  # a seat and the table are apart on screen
        # It starts at its seat (whose box may have grown or moved by the play: the cards it
        # shows; on CI's loaded pass a Gan Deng Yan card started 53 px above the grown box of
        # a seat at the top, a third of its way to the table) ...
        left, top, right, bottom = t["box"]
        margin = 0.4 * whole
        assert left - margin <= path[0][0] <= right + margin, t
        assert top - margin <= path[0][1] <= bottom + margin, t
        # ... passes between (a move, not a fade) ...
        assert any(0.25 * whole < distance(p, rest) < 0.75 * whole for p in path), t
        # ... and rests at its place, where the board puts it.
        mover = (
            "#trick .trick__card:not(.trick__card--bottom), #center .combo-play[data-seat] .card"
        )
        assert page.evaluate("(s) => document.querySelector(s).getAnimations().length", mover) == 0

    until_a_bot_card(page, game, travelled)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_move_made_while_cards_travel_is_taken_at_once(page, site_url, game):
    start, wait, turn, _over = GAMES[game]
    start(page, site_url)
    slow_motion(page, 0.02)  # a card's way takes some 20 s

    def move_now(page):
        assert page.evaluate("document.getAnimations().some((a) => a.playState === 'running')")
        before = version(page)
        turn(page)
        expect(page.locator("#board")).not_to_have_attribute(
            "data-version", str(before), timeout=5000
        )

    until_a_bot_card(page, game, move_now)


@pytest.mark.parametrize("game", list(GAMES))
def test_with_reduced_motion_nothing_moves(page, site_url, game):
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(MOTIONS)
    GAMES[game][0](page, site_url)
    until_a_bot_card(page, game, lambda page: None)
    assert page.evaluate("window.__motions.length") == 0


def test_a_closed_trick_gathers_and_goes_to_the_seat_that_won_it(page, site_url):
    """Gong Zhu: once a closed trick leaves the table, copies of its four cards, drawn where
    they lay, move to the winner's place (the seat to move next, or the player's own) and
    fade, and are gone once they arrive."""
    page.add_init_script(MOTIONS)
    start, wait, turn, over = GAMES["gongzhu"]
    start(page, site_url)
    for _ in range(20):
        wait(page)
        if next_hand_if_over(page, over):
            continue
        before = version(page)
        turn(page)
        expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
        if motions(page, "m.cls.includes('feel-ghost')"):
            break
    ghosts = motions(page, "m.cls.includes('feel-ghost')")
    assert len(ghosts) == 4, ghosts
    # They meet at one place: a seat's, or the player's own.
    ends = [
        (g["at"][0] + translation(g["last"])[0], g["at"][1] + translation(g["last"])[1])
        for g in ghosts
    ]
    assert max(distance(ends[0], e) for e in ends) < 6, ends
    assert all(distance(g["at"], ends[0]) > 40 for g in ghosts), ghosts  # they travel
    assert all(g["opacity"] == 0 for g in ghosts)
    places = page.evaluate(
        "() => [...document.querySelectorAll('#board .seat[data-seat], #board #me')].map((e) =>"
        " { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"
    )
    x, y = ends[0]
    assert any(x0 - 30 <= x <= x1 + 30 and y0 - 30 <= y <= y1 + 30 for x0, y0, x1, y1 in places), (
        ends[0],
        places,
    )
    page.wait_for_function("() => !document.querySelector('.feel-ghost')")


def test_a_new_hand_fans_in(page, site_url):
    """Gong Zhu's next hand: each card of the new hand comes in from the table's middle."""
    page.add_init_script(MOTIONS)
    start, wait, turn, over = GAMES["gongzhu"]
    start(page, site_url)
    for _ in range(40):
        wait(page)
        if page.locator(over).is_visible():
            break
        before = version(page)
        turn(page)
        expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
    page.evaluate("() => { window.__motions = []; }")
    next_hand_if_over(page, over)
    wait(page)
    fanned = motions(page, "m.hand")
    assert len(fanned) == page.locator("#board .hand__card").count() == 13, fanned
    assert all(
        "rotate(-12deg)" in m["first"] and m["last"].startswith("translate(0px, 0px)")
        for m in fanned
    ), fanned


def test_the_kitty_turns_over_when_the_landlord_takes_it(page, site_url):
    """Dou Dizhu: the kitty lies face down through the bidding; when it is shown, each of
    its three cards turns over."""
    page.add_init_script(MOTIONS)
    for _ in range(8):  # a deal where the player bids (a first bid of 3 takes it at once)
        ddz.start(page, site_url)
        ddz.wait_for_turn(page)
        if page.locator("#board").get_attribute("data-phase") == "bidding":
            break
    for _ in range(12):
        ddz.wait_for_turn(page)
        if page.locator("#board").get_attribute("data-phase") != "bidding":
            break
        ddz.take_turn(page)
    expect(page.locator("#info-kitty .back")).to_have_count(0)
    turned = motions(page, "m.kitty")
    assert len(turned) == 3, turned
    assert all("rotateY(90deg)" in m["first"] for m in turned), turned


SHOT_SIZES = {"phone": (360, 740), "desktop": (1280, 900)}


@pytest.mark.skipif(
    not os.environ.get("FEEL_SHOTS"), reason="screenshots on request (FEEL_SHOTS=<dir>)"
)
@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("size", list(SHOT_SIZES))
def test_screenshots_of_a_card_on_its_way(browser_in, site_url, game, size):
    """A sequence of screenshots while a computer player's card travels (slowed ten times),
    into FEEL_SHOTS, never into the repository: for a person to look at."""
    out = os.environ["FEEL_SHOTS"]
    os.makedirs(out, exist_ok=True)
    w, h = SHOT_SIZES[size]
    page = browser_in("en", viewport={"width": w, "height": h})
    GAMES[game][0](page, site_url)
    slow_motion(page, 0.1)

    def shots(page):
        # The table in view (the player's taps may have scrolled a phone's page to the hand).
        page.evaluate("() => document.querySelector('#board').scrollIntoView()")
        for n in range(8):
            page.screenshot(path=f"{out}/{game}-{size}-{n}.png")
            if page.evaluate("window.__travel.done"):
                break
        assert n >= 1, "the card rested before a second screenshot"

    until_a_bot_card(page, game, shots)
