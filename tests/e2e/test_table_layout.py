"""What a player must see at once, on a phone upright, a phone on its side and a desktop: the
hand while deciding what to expose, a summary that gives way to the table's menu, and the
lines under a hand that must not be cut."""

import pytest

from tests.e2e.test_phone_landscape import code_of, gongzhu_exposure_scene, start

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
