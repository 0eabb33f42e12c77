"""What a player must see at once, on a phone upright, a phone on its side and a desktop: the
hand while deciding what to expose, a summary that gives way to the table's menu, and the
lines under a hand that must not be cut."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_gandengyan import EDGE, select
from tests.e2e.test_phone_landscape import (
    code_of,
    gandengyan_scene,
    gandengyan_settled,
    gongzhu_exposure_scene,
    start,
)

VIEWS = {
    "phone": {"width": 360, "height": 740},
    "landscape": {"width": 844, "height": 390},
    "desktop": {"width": 1280, "height": 900},
}


@pytest.fixture(params=list(VIEWS))
def view(request, browser):
    """A page at one of the three sizes (a phone with touch, a desktop with a mouse)."""
    size = VIEWS[request.param]
    phone = request.param != "desktop"
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
    yield context.new_page(), size
    context.close()


def in_view(page, selector):
    """The boxes of ``selector`` on screen, and the window's height."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].map((e) => {
            const r = e.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
        })""",
        selector,
    )


@pytest.mark.layout
def test_the_hand_is_in_view_while_deciding_what_to_expose(view, site_url, site_shell):
    page, size = view
    start(page, site_url, site_shell, "gongzhu")
    site_shell(gongzhu_exposure_scene(code_of(page)))
    page.reload()
    page.wait_for_selector("#board[data-synced] #exposure-form")
    # The page may bring the form and the hand into view (once it has loaded): wait for the
    # hand's last card to be on screen, then look at everything.
    page.wait_for_function(
        """() => { const c = [...document.querySelectorAll('#board .hand__card')].pop();
            return c && c.getBoundingClientRect().bottom <= innerHeight; }""",
        timeout=5000,
    )
    cards = in_view(page, "#board .hand__card")
    assert len(cards) == 13
    # Every card of the hand, whole, and the exposure's options and buttons, on one screen.
    for box in cards + in_view(page, "#exposure-form .exposure__option, #exposure-form .btn"):
        assert box["top"] >= 0 and box["bottom"] <= size["height"], (box, size)


@pytest.mark.layout
def test_a_summary_gives_way_to_the_menu_hides_with_escape_and_comes_back(
    view, site_url, site_shell
):
    """Gan Deng Yan's settlement (every game's summary is the same dialog): the table's menu
    stays in reach (above it, or once it is hidden), Esc and × hide it, a button shows it
    again, and the focus follows."""
    page, size = view
    gandengyan_settled(page, site_url, site_shell)
    panel = page.locator(".summary__panel")
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("next-hand")).to_be_focused()
    again = page.get_by_test_id("summary-open")
    expect(again).to_be_hidden()
    if size["height"] > 500:
        # The panel stays below the table's bar, whose menu opens over the summary.
        bar = page.locator(".table-toolbar").bounding_box()
        assert panel.bounding_box()["y"] >= bar["y"] + bar["height"]
        page.locator(".table-menu summary").click()
        leave = page.locator(".table-menu__panel .btn--danger")
        expect(leave).to_be_visible()
        box = leave.bounding_box()
        hit = page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y).closest('.table-menu__panel')",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert hit, "the summary covers the table's menu"
        page.keyboard.press("Escape")  # closes the menu first
        expect(leave).to_be_hidden()
        expect(panel).to_be_visible()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(again).to_be_visible()
    expect(again).to_be_focused()
    expect(page.locator("#board .felt")).to_be_visible()
    page.locator(".table-menu summary").click()  # the menu is there, Leave in it
    expect(page.locator(".table-menu__panel .btn--danger")).to_be_visible()
    page.keyboard.press("Escape")
    again.click()
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("next-hand")).to_be_focused()
    page.get_by_test_id("summary-close").click()
    expect(panel).to_be_hidden()
    # A whole board again (as a reconnect brings it): the summary stays as the player left it.
    page.evaluate(
        """() => { document.getElementById('board').removeAttribute('data-synced');
            document.getElementById('resync-form').requestSubmit(); }"""
    )
    page.wait_for_selector("#board[data-synced]", state="attached")
    expect(panel).to_be_hidden()
    expect(again).to_be_visible()
    again.click()
    expect(page.get_by_test_id("next-hand")).to_be_focused()
    page.get_by_test_id("next-hand").click()
    expect(panel).to_have_count(0)
    expect(again).to_have_count(0)


@pytest.mark.layout
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_keys_help_is_never_cut(browser, site_url, site_shell, lang):
    """A window as small as a phone on its side, with a mouse and a keyboard: a selection that
    reads two ways (its chips over the hand, the line that reads it under), the keys' help
    line is whole in view or not there at all."""
    size = VIEWS["landscape"]
    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        deck = [r + s for s in "SHDC" for r in "3456789TJQKA2"]
        gandengyan_scene(page, site_url, site_shell, deck[:10] + ["BJ"], lang)
        select(page, ["7S", "8S", "BJ"])
        expect(page.get_by_test_id("reading")).to_have_count(2)
        expect(page.get_by_test_id("selection-reading")).not_to_be_empty()
        help_line = page.evaluate(
            """() => { window.scrollTo(0, 0); const e = document.querySelector('.keys-help');
            const r = e.getBoundingClientRect();
            return {shown: e.checkVisibility(), top: r.top, bottom: r.bottom,
                    scroll: e.scrollWidth, client: e.clientWidth}; }"""
        )
        if help_line["shown"]:
            assert help_line["scroll"] <= help_line["client"], help_line
            assert help_line["top"] >= 0 and help_line["bottom"] <= size["height"], help_line
    finally:
        context.close()


@pytest.mark.layout
def test_the_stock_icon_and_the_settlement_sentence_keep_their_room(view, site_url, site_shell):
    """Gan Deng Yan: the stock's icon (a small stack, its second card a shadow) does not touch
    the word after it; the settlement's sentence under the scores is not under its buttons."""
    page, size = view
    gandengyan_scene(page, site_url, site_shell, ["3S"])
    gap = page.evaluate(
        """() => { const icon = document.querySelector('#info-stock .info-chip__stack');
        const range = document.createRange(); range.selectNodeContents(icon.parentNode);
        range.setStartAfter(icon);
        const words = [...range.getClientRects()].filter((r) => r.width)[0];
        return words.left - (icon.getBoundingClientRect().right + 3); }"""
    )
    assert gap >= 4, gap  # 3 px of shadow, then at least 4 px of room
    page.locator(".hand__card").first.click(position=EDGE)
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("settlement")).to_be_visible()
    boxes = page.evaluate(
        """() => { const panel = document.querySelector('.summary__panel');
        const box = (e) => e.getBoundingClientRect();
        const row = box(panel.querySelector(':scope > .button-row:last-child'));
        const sentence = box(panel.querySelector('.breakdown-wrap + p'));
        return {sentence: sentence.bottom, row: row.top,
                long: panel.scrollHeight > panel.clientHeight}; }"""
    )
    # Whole above the buttons as the panel opens, unless the panel is longer than the window
    # (a phone upright: its text scrolls under the buttons). On a phone on its side the three
    # players' settlement fits whole.
    if size == VIEWS["landscape"]:
        assert not boxes["long"], boxes
    if not boxes["long"]:
        assert boxes["sentence"] <= boxes["row"], boxes


@pytest.mark.layout
def test_the_review_link_is_never_under_the_summary_s_buttons(view, site_url, site_shell):
    """The review of the hand, brought into view in its summary, is there to be clicked (it
    lay half under the button row that stays at the panel's bottom)."""
    page, _size = view
    gandengyan_settled(page, site_url, site_shell)
    link = page.get_by_test_id("review-link")
    expect(link).to_be_visible()
    hit = link.evaluate(
        """(a) => { a.scrollIntoView({block: 'nearest'}); const r = a.getBoundingClientRect();
        const at = (x, y) => document.elementFromPoint(x, y) === a;
        return at(r.left + 2, r.top + 2) && at(r.right - 2, r.bottom - 2); }"""
    )
    assert hit, "the review link lies under the summary's buttons"
