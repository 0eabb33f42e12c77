"""A phone on its side (844×390) and the rough edges a new player meets (issue 19), in Chromium.

Every table at the player's turn shows the status line, the trick and every card of the hand
at once, the page scrolled to its top: Gong Zhu's 13 cards, Dou Dizhu's landlord with 20 after
the kitty, Gan Deng Yan's 25-card hand. A settlement opens with its verdict in view, the title
is never cut, ticked exposures survive a reload, the toast hides none of the panels below the
felt, and the keyboard help shows only where there is a keyboard.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_gandengyan import code_of, select, skip_deal

LANDSCAPE = {"width": 844, "height": 390}
EDGE = {"x": 6, "y": 14}  # cards overlap: a player taps the visible left edge
ORDER = "3456789TJQKA2"


@pytest.fixture
def landscape(browser):
    context = browser.new_context(
        viewport=LANDSCAPE, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()


def gongzhu_exposure_scene(code: str) -> str:
    """Code for ``site_shell``: the Gong Zhu table ``code`` back at its hand's exposure phase
    as dealt, seat 0 holding all four exposable cards (the action log of the hand cleared)."""
    return (
        "from games.models import Table, ActionLog; "
        f"t = Table.objects.get(code='{code}'); s = t.state; "
        "h = t.hands.order_by('number').last(); hands = [list(x) for x in h.deal['hands']]; "
        "want = ['AH', 'QS', 'JD', 'TC']\n"
        "for c in want:\n"
        "    k = next(i for i, h in enumerate(hands) if c in h)\n"
        "    if k:\n"
        "        give = next(x for x in hands[0] if x not in want and x != '2S')\n"
        "        hands[0][hands[0].index(give)] = c; hands[k][hands[k].index(c)] = give\n"
        "lead = next(i for i, h in enumerate(hands) if '2S' in h)\n"
        "s.update(hands=hands, phase='expose', pending=[None] * 4, exposed=[[]] * 4, "
        "first_leader=lead, leader=lead, trick=[], tricks=[], taken=[[]] * 4, led='')\n"
        "ActionLog.objects.filter(hand=h).delete(); h.deal = {**h.deal, 'hands': hands}; h.save()\n"
        "t.state = s; t.version += 1; t.bot_due_at = None; t.save()"
    )


def start(page, site_url, site_shell, game, lang="en"):
    # Each test is a new guest, and the whole browser run comes from one address: the
    # guests-per-hour limit starts afresh, so this file's guests take none from the others.
    site_shell(
        "from cardsite.accounts.models import RateCounter; "
        "RateCounter.objects.filter(name__startswith='guest:').delete()"
    )
    page.goto(f"{site_url}/{lang}/")
    page.get_by_test_id(f"play-{game}").click()
    if game != "gongzhu":  # a setup page first
        page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/tables/[0-9a-f-]+/$"))
    page.wait_for_selector("#board[data-synced]")


def boxes(page):
    """The boxes that must be in view, measured in one go (a frame may replace the board),
    with the page scrolled to its top."""
    return page.evaluate(
        """() => {
        window.scrollTo(0, 0);
        const box = e => { const r = e.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
        return {
            scrollY: window.scrollY,
            status: box(document.getElementById('status')),
            centre: box(document.querySelector('#board .trick')),
            cards: [...document.querySelectorAll('#board .hand__card')].map(box),
            title: [...document.querySelectorAll('.table-title')].map(
                e => [e.scrollWidth, e.clientWidth]),
        };
    }"""
    )


def assert_all_in_view(page, cards):
    b = boxes(page)
    assert b["scrollY"] == 0
    assert len(b["cards"]) == cards

    def inside(name, r):
        assert r["top"] >= 0 and r["left"] >= 0, (name, r)
        assert r["bottom"] <= LANDSCAPE["height"] and r["right"] <= LANDSCAPE["width"], (name, r)

    inside("status", b["status"])
    inside("centre", b["centre"])
    for i, card in enumerate(b["cards"]):
        inside(f"card {i}", card)
    assert all(scroll <= client for scroll, client in b["title"]), b["title"]


def rank_order(card):
    return 13 + ("BJ", "RJ").index(card) if card in ("BJ", "RJ") else ORDER.index(card[0])


def arrange_gandengyan(site_shell, code, hands, stock):
    """Seat 0 (the player) leads with these hands; the stock as given."""
    site_shell(
        "from games.models import Table; "
        f"t = Table.objects.get(code='{code}'); s = t.state; "
        f"s['hands'] = {[sorted(h, key=rank_order) for h in hands]!r}; s['stock'] = {stock!r}; "
        "s['turn'] = 0; s['table'] = None; s['trick'] = []; "
        "t.state = s; t.bot_due_at = None; t.save(); "
        "h = t.hands.order_by('number').last(); "
        "h.deal = {'hands': s['hands'], 'stock': s['stock']}; h.save()"
    )


def gandengyan_scene(page, site_url, site_shell, mine, lang="en"):
    start(page, site_url, site_shell, "gandengyan", lang)
    deck = [r + s for s in "SHDC" for r in ORDER] + ["BJ", "RJ"]
    rest = [c for c in deck if c not in mine]
    arrange_gandengyan(site_shell, code_of(page), [mine, rest[:6], rest[6:11]], rest[11:21])
    page.reload()
    skip_deal(page)
    page.wait_for_selector("#board[data-synced].is-my-turn [data-testid=play]")


def gandengyan_settled(page, site_url, site_shell):
    """A Gan Deng Yan round the player ends with their last card (the 3 of spades): its
    settlement on the screen."""
    gandengyan_scene(page, site_url, site_shell, ["3S"])
    page.locator(".hand__card").first.click(position=EDGE)
    page.get_by_test_id("play").click()


def test_gong_zhu_13_cards_fit_a_phone_on_its_side(landscape, site_url, site_shell):
    page = landscape
    start(page, site_url, site_shell, "gongzhu")
    if page.locator("#exposure-form").count():
        page.get_by_test_id("expose-none").click()
    page.wait_for_selector("#board[data-synced].is-my-turn .hand__card.is-playable", timeout=60000)
    # The player's first turn: nobody has finished a trick, so all 13 cards are in hand.
    assert_all_in_view(page, 13)


def test_the_dou_dizhu_landlord_sees_all_20_cards(landscape, site_url, site_shell):
    page = landscape
    start(page, site_url, site_shell, "doudizhu")
    site_shell(
        "from games.models import Table, ActionLog; "
        f"t = Table.objects.get(code='{code_of(page)}'); s = t.state; "
        "h = t.hands.order_by('number').last(); "
        "s.update(hands=h.deal['hands'], kitty=h.deal['kitty'], bids=[[1, 0], [2, 0]], bid=0, "
        "turn=0, phase='bidding', landlord=None, table=None, plays=[], passes=0, "
        "played_count=[0, 0, 0], bombs=0); "
        "ActionLog.objects.filter(hand=h).delete(); "
        "t.state = s; t.version += 1; t.bot_due_at = None; t.save()"
    )
    page.reload()
    page.get_by_test_id("bid-3").click()
    expect(page.get_by_test_id("landlord-badge").first).to_be_visible()
    page.wait_for_selector("#board[data-synced].is-my-turn [data-testid=play]")
    assert_all_in_view(page, 20)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_25_card_gan_deng_yan_hand_fits_a_phone_on_its_side(
    landscape, site_url, site_shell, lang
):
    page = landscape
    deck = [r + s for s in "SHDC" for r in ORDER]
    gandengyan_scene(page, site_url, site_shell, deck[:24] + ["BJ"], lang)
    assert_all_in_view(page, 25)
    # A narrower phone on its side (360 × 740), a selection read two ways: still one row,
    # inside the player's box, the buttons beside it (the line the selection reads and the
    # keys' help once took the buttons' column and squeezed the hand into two rows).
    page.set_viewport_size({"width": 740, "height": 360})
    select(page, ["7S", "8S", "BJ"])
    expect(page.get_by_test_id("reading")).to_have_count(2)
    expect(page.get_by_test_id("selection-reading")).not_to_be_empty()
    b = page.evaluate(
        """() => { const box = e => e.getBoundingClientRect();
        const me = box(document.querySelector('#me'));
        const cards = [...document.querySelectorAll('#board .hand__card:not(.is-selected)')].map(box);
        return {me: [me.left, me.right], lefts: cards.map(r => r.left),
                rights: cards.map(r => r.right), tops: cards.map(r => Math.round(r.top)),
                play: box(document.querySelector('[data-testid=play]')).left}; }"""
    )
    assert len(set(b["tops"])) == 1, b["tops"]
    assert b["me"][0] <= min(b["lefts"]) and max(b["rights"]) <= b["play"] <= b["me"][1], b


def test_a_settlement_opens_with_its_verdict_in_view(landscape, site_url, site_shell):
    page = landscape
    gandengyan_settled(page, site_url, site_shell)
    settlement = page.get_by_test_id("settlement")
    expect(settlement).to_be_visible()
    expect(page.locator("#summary-title")).to_contain_text("Round 1")
    view = page.evaluate(
        """() => {
        const panel = document.querySelector('.summary__panel');
        const h = document.getElementById('summary-title').getBoundingClientRect();
        const next = document.querySelector('[data-testid=next-hand]').getBoundingClientRect();
        const row = panel.querySelector(':scope > .button-row:last-child').getBoundingClientRect();
        return {scrollTop: panel.scrollTop, long: panel.scrollHeight > panel.clientHeight,
                top: h.top, bottom: h.bottom, nextBottom: next.bottom,
                rowBottom: row.bottom, panelBottom: panel.getBoundingClientRect().bottom,
                focused: document.activeElement.dataset.testid};
    }"""
    )
    # Three players' settlement now fits a phone on its side whole (test_table_layout.py);
    # a longer one opens at its top all the same (scrollTop 0).
    assert view["scrollTop"] == 0
    assert view["top"] >= 0 and view["bottom"] <= LANDSCAPE["height"]
    assert view["nextBottom"] <= LANDSCAPE["height"]  # the next round's button stays in reach
    # The buttons' row ends where the panel does: no text scrolls by under it.
    assert abs(view["rowBottom"] - view["panelBottom"]) <= 1, view
    assert view["focused"] == "next-hand"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_title_is_never_cut_on_a_phone(phone_page, site_url, site_shell, lang):
    page = phone_page
    for game in ("gandengyan", "doudizhu"):
        start(page, site_url, site_shell, game, lang)
        title = page.locator(".table-title")
        expect(title).to_have_text({"gandengyan": "Gan Deng Yan", "doudizhu": "Dou Dizhu"}[game])
        assert title.evaluate("e => e.scrollWidth <= e.clientWidth")
        # Leave table keeps its words for screen readers.
        expect(page.get_by_test_id("leave")).to_have_accessible_name(
            {"en": "Leave table", "de": "Tisch verlassen"}[lang]
        )


def test_ticked_exposures_survive_a_reload(page, site_url, site_shell):
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, site_url, site_shell, "gongzhu")
    # The scene: a fresh hand's exposure phase, the player holding all four exposable cards.
    # From the hand as dealt: a player without an exposable card has no choice to make, so
    # the bots may have led already.
    site_shell(gongzhu_exposure_scene(code_of(page)))
    page.reload()
    page.wait_for_selector("#board[data-synced] #exposure-form")
    options = page.locator(".exposure__option")
    expect(options).to_have_count(4)
    for card in ("QS", "TC"):
        page.locator(f".exposure__option:has(input[value={card}])").click()
    ticked = "[...document.querySelectorAll('#exposure-form input:checked')].map(e => e.value)"
    assert sorted(page.evaluate(ticked)) == ["QS", "TC"]
    page.reload()
    page.wait_for_selector("#board[data-synced] #exposure-form")
    assert sorted(page.evaluate(ticked)) == ["QS", "TC"]
    # Unticked again, and reloaded: the storage follows the latest choice.
    page.locator(".exposure__option:has(input[value=QS])").click()
    page.reload()
    page.wait_for_selector("#board[data-synced] #exposure-form")
    assert page.evaluate(ticked) == ["TC"]
    page.get_by_test_id("expose-confirm").click()
    expect(page.locator("#exposure-form")).to_have_count(0)
    expect(page.locator(".me__exposed .card")).to_have_count(1)


def test_the_toast_hides_none_of_the_panels_below_the_felt(landscape, site_url, site_shell):
    page = landscape
    start(page, site_url, site_shell, "gongzhu")
    if page.locator("#exposure-form").count():
        page.get_by_test_id("expose-none").click()
    page.wait_for_selector("#board[data-synced].is-my-turn .hand__card.is-playable", timeout=60000)
    page.evaluate("window.CardTable.toast('A message for the player')")
    expect(page.locator("#toast .toast__msg")).to_be_visible()
    overlaps = page.evaluate(
        """() => {
        const t = document.querySelector('#toast .toast__msg').getBoundingClientRect();
        const hit = e => { const r = e.getBoundingClientRect();
            return r.width && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom; };
        return [...document.querySelectorAll(
            '#board .felt, #board .me, #board .hand__card, #board .action-bar .btn, #status')]
            .filter(hit).map(e => e.className || e.id);
    }"""
    )
    assert overlaps == []


def test_the_keys_are_told_only_where_there_is_a_keyboard(browser, page, site_url, site_shell):
    page.set_viewport_size({"width": 1280, "height": 800})
    deck = [r + s for s in "SHDC" for r in ORDER]
    gandengyan_scene(page, site_url, site_shell, deck[:8])
    expect(page.locator(".keys-help")).to_be_visible()
    table = page.url
    # The same table on a touch screen as wide as a small desktop window: the player's session.
    context = browser.new_context(viewport=LANDSCAPE, is_mobile=True, has_touch=True)
    context.add_cookies(page.context.cookies())
    try:
        touch = context.new_page()
        touch.goto(table)
        touch.wait_for_selector("#board[data-synced].is-my-turn [data-testid=play]")
        expect(touch.locator(".keys-help")).to_have_count(1)
        expect(touch.locator(".keys-help")).to_be_hidden()
    finally:
        context.close()


def test_a_landlord_badge_stays_inside_its_seat_on_a_narrow_phone(phone_page, site_url, site_shell):
    """ "Grundbesitzer" on the right-hand seat of a 360 px phone (upright): inside its box."""
    page = phone_page
    start(page, site_url, site_shell, "doudizhu", lang="de")
    site_shell(
        "from games.models import Table; from games.engine.doudizhu import rules; "
        "from games.registry import table_game; "
        f"t = Table.objects.get(code='{code_of(page)}'); "
        "t.state = table_game('doudizhu').engine.to_json("
        "rules.new_match_fixed(seed=int(t.seed), landlord=1, bid=2)); "
        "t.version += 1; t.bot_due_at = None; t.save()"
    )
    page.reload()
    page.wait_for_selector("#board[data-synced]")
    badge = page.locator(".seat .badge--landlord")
    expect(badge).to_have_text("Grundbesitzer")
    seat, box = page.locator(".seat:has(.badge--landlord)").bounding_box(), badge.bounding_box()
    assert seat["x"] <= box["x"] and box["x"] + box["width"] <= seat["x"] + seat["width"]
