"""The feel of a card table in Chromium (static/js/feel.js): a hidden tab that marks the
player's turn in its title and icon."""

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
