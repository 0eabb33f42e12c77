"""Gan Deng Yan in Chromium: the setup card, whole rounds under each draw rule, a joker read
by chip, a refused play, the settlement, the next round, a reload, a 25-card hand on a phone."""

import contextlib
import os
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.boards import play_the_selection
from tests.e2e.keys import hold

# One game's table in the page: the same code on either stack, so CI runs it
# on its first pass only.
pytestmark = pytest.mark.once

# Cards in a hand overlap: a player taps the visible left edge of a card.
EDGE = {"x": 6, "y": 14}
ORDER = "3456789TJQKA2"


def board_state(page):
    return page.evaluate(
        """() => {
        const b = document.getElementById('board');
        return {
          version: b.dataset.version,
          phase: b.dataset.phase,
          hand: [...b.querySelectorAll('.hand__card')].map(e => e.dataset.card),
          playable: [...b.querySelectorAll('.hand__card.is-playable')].map(e => e.dataset.card),
          center: [...b.querySelectorAll('.gdy-center .card')].map(e => e.dataset.card),
          counts: [...b.querySelectorAll('.seat__count')].map(e => e.textContent),
          info: document.querySelector('.gdy-info').textContent.replace(/\\s+/g, ' ').trim(),
          status: document.getElementById('status').textContent.trim(),
        };
    }"""
    )


def code_of(page):
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def start(page, site_url, lang="en", seats="3", draw="all", shot=None):
    page.goto(f"{site_url}/{lang}/")
    page.get_by_test_id("play-gandengyan").click()
    expect(page.get_by_test_id("table-rules")).to_be_visible()
    expect(page.get_by_test_id("seats-3")).to_be_checked()
    page.locator(f"label:has([data-testid=seats-{seats}])").click()
    page.locator(f"label:has([data-testid=draw-{draw}])").click()
    if shot:
        page.screenshot(path=shot, full_page=True)
    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/tables/[0-9a-f-]+/$"))
    expect(page.locator("#board")).to_be_visible()


def skip_deal(page):
    """The deal ends by itself after a moment, or at once with a tap."""
    veil = page.locator("#deal-veil")
    if veil.is_visible():
        with contextlib.suppress(PlaywrightError):
            veil.click(timeout=1500)
    expect(veil).to_be_hidden()


def select(page, cards):
    for card in cards:
        btn = page.locator(f".hand__card[data-card='{card}']")
        btn.click(position=EDGE)
        expect(btn).to_have_class(re.compile("is-selected"))


def wait_for_turn_or_settlement(page):
    page.wait_for_selector(
        "#board[data-synced].is-my-turn [data-testid=play], [data-testid=settlement]",
        state="visible",
    )


def play_round(page, shots=None):
    """Play until the settlement: each turn ask for a Hint (Normal's choice, only selected)
    and play it, choosing the first reading when the selection reads more than one way."""
    shot_follow = shot_draws = False
    for _ in range(150):
        wait_for_turn_or_settlement(page)
        skip_deal(page)
        if page.get_by_test_id("settlement").is_visible():
            return
        version = page.locator("#board").get_attribute("data-version")
        following = page.get_by_test_id("pass").count() > 0
        bright = page.locator(".is-following .hand__card.is-playable").count()
        if (
            following
            and bright
            and shots
            and not shot_follow
            and page.locator(".is-dimmed").count()
        ):
            page.screenshot(path=shots("follow"), full_page=True)
            shot_follow = True
        if shots and not shot_draws and page.get_by_test_id("draws").is_visible():
            page.screenshot(path=shots("draws"), full_page=True)
            shot_draws = True
        page.get_by_test_id("hint").click()
        page.wait_for_selector("#board[data-hint]")
        assert page.locator("#board").get_attribute("data-version") == version  # never plays
        if page.locator("#board").get_attribute("data-hint") == "pass":
            page.get_by_test_id("pass").click()
        else:
            expect(page.locator(".hand__card.is-selected").first).to_be_visible()
            play_the_selection(page)
        expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    raise AssertionError("the round did not end")


def play_round_with_its_log_open(page, shots, loading):
    """Open the round's log (it comes when opened: ``loading`` until then), play the round to
    its settlement (the log grows live meanwhile; the scores sum to zero) and go on to the
    next. The log's locator."""
    log = page.locator("#round-log")
    expect(log).to_contain_text(loading)
    page.get_by_test_id("round-log").locator("summary").click()
    expect(log).not_to_contain_text(loading)
    rows = log.locator(".round-log__row").count()
    play_round(page, shots)
    expect(log.locator(".round-log__row")).not_to_have_count(rows)
    assert log.locator(".round-log__row").count() > rows
    expect(page.get_by_test_id("sum")).to_have_text("0")
    page.screenshot(path=shots("settlement"), full_page=True)
    page.get_by_test_id("next-hand").click()
    return log


def rank_order(card):
    return 13 + ("BJ", "RJ").index(card) if card in ("BJ", "RJ") else ORDER.index(card[0])


def arrange(site_shell, code, hands, stock=None, seats=None, table_play=None):
    """Give the seats these hands, the player (seat 0) to lead, or to beat ``table_play``
    (a play's dict, its cards out of every hand and the stock)."""
    on_table = table_play["cards"] if table_play else []
    site_shell(
        "from games.models import Table; "
        f"t = Table.objects.get(code='{code}'); s = t.state; "
        f"new = {[sorted(h, key=rank_order) for h in hands]!r}; "
        f"used = sum(new, []) + {on_table!r}; "
        # The cards taken from elsewhere leave the stock, the cards given back join it.
        "s['stock'] = [c for c in s['stock'] + sum(s['hands'], []) if c not in used]; "
        f"s['hands'] = new; s['turn'] = 0; s['table'] = {table_play!r}; "
        f"s['trick'] = {[table_play] if table_play else []!r}; "
        + (f"s['stock'] = {stock!r}; " if stock is not None else "")
        + "t.state = s; t.bot_due_at = None; t.save(); "
        # The record follows the scene, so the history shows it as recorded.
        "h = t.hands.order_by('number').last(); "
        "h.deal = {'hands': s['hands'], 'stock': s['stock']}; h.save()"
    )


def test_a_guest_plays_rounds_with_a_joker_chip_a_refusal_and_a_reload(
    page, site_url, site_shell, artifacts_dir
):
    def shots(name):
        return os.path.join(artifacts_dir, f"gandengyan-{name}-desktop.png")

    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, site_url, draw="all", shot=shots("setup"))
    code = code_of(page)
    # The deal is shown; a tap skips it.
    expect(page.locator("#board")).to_have_attribute("data-fresh", "1")
    expect(page.locator("#board.is-dealing")).to_have_count(1)
    page.locator("#deal-veil").click()
    expect(page.locator("#board.is-dealing")).to_have_count(0)
    expect(page.locator("#deal-veil")).to_be_hidden()
    skip_deal(page)

    # A selection with a joker that reads two ways, and a refused play.
    arrange(
        site_shell,
        code,
        [
            ["7S", "8H", "KS", "KD", "3C", "BJ"],
            ["4S", "5S", "6S", "TC", "JD"],
            ["4H", "9C", "QH", "QS", "5D"],
        ],
    )
    page.reload()
    skip_deal(page)
    expect(page.get_by_test_id("play")).to_be_visible()
    version = page.locator("#board").get_attribute("data-version")
    select(page, ["7S", "KS"])
    page.get_by_test_id("play").click()
    expect(page.locator("#toast .toast__msg")).to_contain_text("form no play")
    expect(page.locator("#board")).to_have_attribute("data-version", version)
    expect(page.locator(".hand__card.is-selected")).to_have_count(2)  # nothing changed
    page.keyboard.press("Escape")
    expect(page.locator(".hand__card.is-selected")).to_have_count(0)
    # From the keyboard: arrows move between cards, Space selects.
    page.locator(".hand__card[data-card='7S']").focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator(".hand__card[data-card='BJ']")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator(".hand__card.is-selected")).to_have_count(3)
    chips = page.get_by_test_id("reading")
    expect(chips).to_have_count(2)
    expect(chips.nth(0)).to_contain_text("6–8")
    expect(chips.nth(1)).to_contain_text("7–9")
    page.screenshot(path=shots("joker-chips"), full_page=True)
    chips.nth(1).click()
    expect(page.get_by_test_id("joker-tag").first).to_have_text("as 9")
    page.screenshot(path=shots("joker-tag"), full_page=True)

    log = play_round_with_its_log_open(page, shots, loading="Loading")
    expect(page.get_by_test_id("settlement")).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-round", "2")

    # A reload in the middle of a round finds the table exactly as it was.
    wait_for_turn_or_settlement(page)
    skip_deal(page)
    before = board_state(page)
    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-version", before["version"])
    assert board_state(page) == before
    expect(log).to_contain_text("Loading")  # closed after a reload: not sent

    # Leave, and come back from My matches.
    page.get_by_test_id("leave").click()
    page.goto(f"{site_url}/en/matches/")
    expect(page.locator(".list-table tbody tr")).to_contain_text("Gan Deng Yan")
    page.get_by_role("link", name="Details").click()
    expect(page.locator(".chart polyline")).to_have_count(3)
    page.get_by_role("link", name="Replay").first.click()
    expect(page.locator(".gdy-trick").first).to_be_visible()
    page.locator(".gdy-trick__hands summary").first.click()
    page.screenshot(path=shots("replay"), full_page=True)


def test_a_held_key_plays_or_passes_once(page, site_url, site_shell):
    """Enter and P held down repeat their keydowns: the play or the pass is sent once (each
    repeat was another frame, refused as out of turn)."""
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, site_url, seats="2", draw="all")
    code = code_of(page)
    four = {
        "type": "play",
        "seat": 1,
        "cards": ["4S"],
        "combo": {"kind": "single", "low": "4", "high": "4", "count": 1},
    }

    def frames(action):
        return len([f for f in sent if f'"action":"{action}"' in f])

    # Enter on a card: the other seat's 4 of spades to beat, with the 5 of hearts. (Each
    # scene is set on the player's turn: no bot's move is under way to overwrite it.)
    skip_deal(page)
    wait_for_turn_or_settlement(page)
    arrange(site_shell, code, [["5H", "9D", "JC"], ["KS", "QC", "TD"]], table_play=four)
    page.reload()
    skip_deal(page)
    wait_for_turn_or_settlement(page)
    select(page, ["5H"])
    page.locator(".hand__card[data-card='5H']").focus()
    hold(page, "Enter")
    expect(page.locator(".hand__card[data-card='5H']")).to_have_count(0)
    assert frames("play") == 1, sent
    # P: the same position, passed.
    wait_for_turn_or_settlement(page)
    arrange(site_shell, code, [["5H", "9D", "JC"], ["KS", "QC", "TD"]], table_play=four)
    page.reload()
    skip_deal(page)
    wait_for_turn_or_settlement(page)
    version = page.locator("#board").get_attribute("data-version")
    page.locator("body").focus()
    hold(page, "p")
    expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    assert frames("pass") == 1, sent


@pytest.mark.parametrize("held_back", ["table", "feel"])
def test_the_round_log_opened_before_the_page_is_ready_comes_once_it_is(page, site_url, held_back):
    """A log opened while the page's scripts are still starting is asked for once the socket is
    open, stays open, and the page stays where it is. Held back here: table.js (the log opened
    before it listens; the first board closed it again), or feel.js, which runs between table.js
    and htmx's start (table.js listens, htmx has not taken the page: the form's submission
    loaded the page again with its fields in the address, the log closed)."""
    held = []
    script = re.compile(rf"/static/js/{held_back}\.[^/]*js$")
    page.route(script, lambda route: held.append(route))
    start(page, site_url, draw="all")
    assert held, f"{held_back}.js was not asked for"
    url = page.url
    page.get_by_test_id("round-log").locator("summary").click()
    held[0].continue_()
    page.unroute(script)
    skip_deal(page)
    expect(page.locator("#round-log")).not_to_contain_text("Loading")
    expect(page.get_by_test_id("round-log")).to_have_attribute("open", "")
    assert page.url == url


def test_hint_with_the_round_log_open_keeps_its_selection(page, site_url):
    """A hint's board comes whole (the page's own taps are unknown to a patch): the round's
    log in it is open again, and that must not ask the socket for the board once more, which
    would draw it without the hint's cards."""
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, site_url, draw="all")
    skip_deal(page)
    page.get_by_test_id("round-log").locator("summary").click()
    expect(page.locator("#round-log")).not_to_contain_text("Loading")
    for _ in range(40):
        wait_for_turn_or_settlement(page)
        assert not page.get_by_test_id("settlement").is_visible(), "no play hinted in a round"
        skip_deal(page)
        hand = [c.get_attribute("data-card") for c in page.locator(".hand__card").all()]
        page.locator(".hand__card").last.click(position=EDGE)  # the player's own tap
        before = len(sent)
        page.get_by_test_id("hint").click()
        page.wait_for_selector("#board[data-hint]")
        if page.locator("#board").get_attribute("data-hint") == "play":
            break
        page.get_by_test_id("pass").click()
    else:
        raise AssertionError("no play hinted in 40 turns")
    # The selection's reading is asked after the board settles: once it is read, the board
    # (and its log's toggle) has long been handled.
    expect(page.get_by_test_id("selection-reading")).not_to_be_empty()
    expect(page.locator("#board")).to_have_attribute("data-hint", "play")
    picked = [c.get_attribute("data-card") for c in page.locator(".hand__card.is-selected").all()]
    assert picked and set(picked) <= set(hand)
    assert not [f for f in sent[before:] if '"part"' in f], sent[before:]
    # A click elsewhere on the board (the board names its hint: data-hint) is no Hint: the
    # log closes and opens again, and only that is said.
    hints = len([f for f in sent if '"hint"' in f])
    page.get_by_test_id("round-log").locator("summary").click()
    page.get_by_test_id("round-log").locator("summary").click()
    expect(page.locator("#round-log")).not_to_contain_text("Loading")
    expect(page.get_by_test_id("selection-reading")).not_to_be_empty()
    assert len([f for f in sent if '"hint"' in f]) == hints
    assert [
        c.get_attribute("data-card") for c in page.locator(".hand__card.is-selected").all()
    ] == picked
    play_the_selection(page)
    for card in picked:  # played (a card drawn after the trick is another)
        expect(page.locator(f".hand__card[data-card='{card}']")).to_have_count(0)


@pytest.mark.layout
def test_winner_draws_on_a_phone_in_german(phone_page, site_url, artifacts_dir):
    page = phone_page

    def shots(name):
        return os.path.join(artifacts_dir, f"gandengyan-{name}-phone.png")

    start(page, site_url, lang="de", draw="winner", shot=shots("setup"))
    expect(page.locator(".gdy-info")).to_contain_text("Gewinner zieht")
    play_round_with_its_log_open(page, shots, loading="Wird geladen")
    expect(page.locator("#board")).to_have_attribute("data-round", "2")


@pytest.mark.layout
def test_a_25_card_hand_wraps_on_a_phone(phone_page, site_url, site_shell, artifacts_dir):
    page = phone_page
    start(page, site_url, seats="2", draw="all")
    code = code_of(page)
    deck = [r + s for s in "SHDC" for r in ORDER]
    mine = deck[:24] + ["BJ"]
    arrange(site_shell, code, [mine, deck[24:30]], stock=deck[30:40])
    page.reload()
    skip_deal(page)
    expect(page.locator(".hand__card")).to_have_count(25)
    # Measured in one go: a frame from the socket may replace the board at any moment.
    edges = page.evaluate(
        """() => [...document.querySelectorAll('.gdy-hand, .hand__card')].map(e => {
            const r = e.getBoundingClientRect(); return [r.left, r.right]; })"""
    )
    assert all(left >= 0 and right <= 360 for left, right in edges)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(
        path=os.path.join(artifacts_dir, "gandengyan-25-cards-phone.png"), full_page=True
    )
    select(page, ["7S", "8S", "BJ"])
    expect(page.get_by_test_id("reading")).to_have_count(2)
    page.screenshot(path=os.path.join(artifacts_dir, "gandengyan-joker-chips-phone.png"))
    page.set_viewport_size({"width": 740, "height": 360})
    page.screenshot(
        path=os.path.join(artifacts_dir, "gandengyan-25-cards-landscape.png"), full_page=True
    )
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(
        path=os.path.join(artifacts_dir, "gandengyan-25-cards-desktop.png"), full_page=True
    )


def test_four_seats_sit_right_top_left_and_settings_start_a_new_session(
    page, site_url, artifacts_dir
):
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, site_url, seats="4", draw="winner")
    first = code_of(page)
    for seat, where in ((1, "right"), (2, "top"), (3, "left")):
        expect(page.get_by_test_id(f"seat-{seat}")).to_have_class(re.compile(f"seat--{where}"))
    skip_deal(page)
    page.screenshot(path=os.path.join(artifacts_dir, "gandengyan-4-seats-desktop.png"))
    # Changing the players starts a new session, after a confirmation.
    page.locator(".table-menu summary").click()
    page.get_by_test_id("change-settings").click()
    expect(page.get_by_test_id("replaces-note")).to_be_visible()
    expect(page.get_by_test_id("seats-4")).to_be_checked()
    page.locator("label:has([data-testid=seats-2])").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("start").click()
    expect(page).not_to_have_url(re.compile(first))
    expect(page.locator(".seat")).to_have_count(1)
    page.goto(f"{site_url}/en/matches/")
    expect(page.locator(".list-table tbody tr")).to_have_count(2)


def test_a_hinted_joker_play_that_reads_two_ways_plays_as_it_stands(page, site_url, site_shell):
    """9♥ 10♣ and the red joker read as 8–10 or 9–J: Hint selects them with its reading (its
    chip marked), and Play plays that reading (it asked to choose one)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, site_url, seats="3", draw="all")
    skip_deal(page)
    wait_for_turn_or_settlement(page)
    arrange(
        site_shell,
        code_of(page),
        [["9H", "TC", "RJ"], ["4S", "5S", "6S", "QC", "JD"], ["4H", "9C", "QH", "QS", "5D"]],
    )
    page.reload()
    skip_deal(page)
    wait_for_turn_or_settlement(page)
    page.get_by_test_id("hint").click()
    page.wait_for_selector("#board[data-hint=play]")
    expect(page.locator(".hand__card.is-selected")).to_have_count(3)
    chips = page.get_by_test_id("reading")
    expect(chips).to_have_count(2)
    expect(page.locator(".reading-chip.is-suggested")).to_have_count(1)
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("settlement")).to_be_visible()
    expect(page.locator("#toast .toast__msg")).to_have_count(0)
