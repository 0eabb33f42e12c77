"""The feel of a card table in Chromium (static/js/feel.js): a hidden tab that marks the
player's turn in its title and icon; sounds, off until the player turns them on."""

import pytest
from playwright.sync_api import expect

from tests.e2e import test_doudizhu as ddz

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


def turns(page, n: int) -> int:
    """``n`` of the player's turns taken, each until it is theirs again: how many came back
    (a hand that ends stops early)."""
    back = 0
    for _ in range(n):
        ddz.take_turn(page)
        ddz.wait_for_turn(page)
        if page.get_by_test_id("settlement").is_visible():
            break
        back += 1
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

    back = turns(page, 3)
    assert back >= 1
    assert played(page).count("turn.wav") == back
    assert "card.wav" in played(page) or "bomb.wav" in played(page)
    # The files load from the site (its Content-Security-Policy allows them: conftest.py fails
    # a test on any violation).
    page.wait_for_function("window.__audio.every((a) => a.readyState >= 1 || a.error)")
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
