"""A Gong Zhu match in Chromium: guest start, exposure, a whole hand, reload, sign-up, history."""

import os
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.boards import board_markup
from tests.e2e.keys import hold
from tests.e2e.test_gandengyan import code_of
from tests.e2e.test_phone_landscape import gongzhu_exposure_scene, start

# Cards in a hand overlap: a player taps the visible left edge of a card.
EDGE = {"x": 6, "y": 14}


def board_state(page):
    return page.evaluate(
        """() => {
        const b = document.getElementById('board');
        return {
          version: b.dataset.version,
          phase: b.dataset.phase,
          hand: [...b.querySelectorAll('.hand__card')].map(e => e.dataset.card),
          trick: [...b.querySelectorAll('.trick .card')].map(e => e.dataset.card),
          status: document.getElementById('status').textContent.trim(),
        };
    }"""
    )


# Counts the socket's messages that were patches (games/frames.py: only what changed).
PATCH_COUNTER = """
document.addEventListener("htmx:wsBeforeMessage", (e) => {
  if (e.detail.message.startsWith("<template data-patch")) window.__patches = (window.__patches || 0) + 1;
});
"""


def expose_nothing(page):
    """The exposure form's "Expose nothing", and the form gone."""
    page.get_by_test_id("expose-none").click()
    expect(page.locator("#exposure-form")).to_have_count(0)


def wait_for_turn_or_summary(page):
    # The exposure form too once the socket has spoken (data-synced): in the page's first
    # HTML it is there before the scripts have taken over its submit, and a click then sent
    # it as a plain GET (seen in CI: ?action=expose&version=).
    page.wait_for_selector(
        "#board[data-synced].is-my-turn .hand__card.is-playable, "
        "#board[data-synced] #exposure-form, .summary__panel",
        state="visible",
    )


def play_hand(page, shots=None, keyboard=False):
    """Play until the hand summary appears, always choosing a card the page marks playable."""
    took_trick_shot = False
    used_keyboard = False
    for _ in range(80):
        wait_for_turn_or_summary(page)
        if page.locator(".summary__panel").is_visible():
            if took_trick_shot:
                expect(page.locator("[data-testid=collected]")).to_have_js_property("open", True)
            return
        if page.locator("#exposure-form").is_visible():
            if shots:
                page.screenshot(path=shots("exposure"), full_page=True)
            expose_nothing(page)
            continue
        version = page.locator("#board").get_attribute("data-version")
        playable = page.locator(".hand__card.is-playable")
        dimmed = page.locator(".hand__card.is-dimmed")
        if dimmed.count() and not took_trick_shot:
            # A dimmed card explains why it may not be played, and nothing changes.
            dimmed.first.click(position=EDGE)
            expect(page.locator("#toast .toast__msg")).to_be_visible()
            assert page.locator("#board").get_attribute("data-version") == version
            if shots:
                page.screenshot(path=shots("trick"), full_page=True)
            # The collected cards, opened once, stay open through every frame after it.
            page.locator("[data-testid=collected] summary").click()
            if shots:
                page.screenshot(path=shots("collected"), full_page=True)
            took_trick_shot = True
        card = playable.first
        if keyboard and not used_keyboard:
            # From the keyboard: focus a card, arrows move between cards, Enter selects, Enter plays.
            page.locator(".hand__card").first.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            card.focus()
            page.keyboard.press("Enter")
            expect(card).to_have_class(re.compile("is-selected"))
            page.keyboard.press("Enter")
            expect(page.locator("#board")).not_to_have_attribute("data-version", version)
            used_keyboard = True
            continue
        card.click(position=EDGE)
        expect(card).to_have_class(re.compile("is-selected"))
        page.get_by_test_id("play").click()
        expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    raise AssertionError("the hand did not end")


def test_a_guest_plays_a_hand_reloads_signs_up_and_finds_it_in_the_history(
    page, site_url, artifacts_dir
):
    def shots(name):
        return os.path.join(artifacts_dir, f"gongzhu-{name}-desktop.png")

    page.set_viewport_size({"width": 1280, "height": 900})
    page.add_init_script(PATCH_COUNTER)
    page.goto(f"{site_url}/en/")
    page.get_by_test_id("play-gongzhu").click()
    expect(page).to_have_url(re.compile(r"/en/tables/[0-9a-f-]+/$"))
    expect(page.locator("#board")).to_be_visible()

    play_hand(page, shots, keyboard=True)
    expect(page.locator(".summary__panel")).to_contain_text("Hand 1")
    page.screenshot(path=shots("summary"), full_page=True)
    page.get_by_test_id("next-hand").click()
    expect(page.locator(".summary__panel")).to_have_count(0)

    # Play a few cards of hand 2, then reload: the table is exactly as it was.
    wait_for_turn_or_summary(page)
    if page.locator("#exposure-form").is_visible():
        expose_nothing(page)
    page.wait_for_selector("#board.is-my-turn .hand__card.is-playable")
    before = board_state(page)
    # Most frames were patches, and the board they made is exactly a fresh one's.
    assert page.evaluate("window.__patches || 0") > 10
    markup = board_markup(page)
    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-version", before["version"])
    page.wait_for_selector("#board[data-synced].is-my-turn .hand__card.is-playable")
    assert board_state(page) == before
    assert board_markup(page) == markup

    # Sign up: the guest's match stays with the new account.
    name = f"gz{uuid.uuid4().hex[:6]}"
    page.goto(f"{site_url}/en/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", "Kartenspiel-2026")
    page.fill("#id_password2", "Kartenspiel-2026")
    page.locator("form.stack button[type=submit]").click()
    expect(page.locator(".account-menu summary")).to_contain_text(name)
    page.goto(f"{site_url}/en/matches/")
    expect(page.locator(".list-table tbody tr")).to_have_count(1)
    expect(page.locator(".list-table tbody tr")).to_contain_text("Gong Zhu")
    page.get_by_role("link", name="Details").click()
    expect(page.locator(".chart polyline")).to_have_count(4)
    page.screenshot(path=os.path.join(artifacts_dir, "gongzhu-match-desktop.png"), full_page=True)
    page.get_by_role("link", name="Replay").first.click()
    expect(page.locator(".trick-row")).to_have_count(13)
    expect(page.locator(".deal-cards .card")).to_have_count(52)


@pytest.mark.layout
def test_the_table_on_a_phone(phone_page, site_url, artifacts_dir):
    page = phone_page
    page.goto(f"{site_url}/de/")
    page.get_by_test_id("play-gongzhu").click()
    expect(page.locator("#board")).to_be_visible()
    play_hand(page, lambda n: os.path.join(artifacts_dir, f"gongzhu-{n}-phone.png"))
    page.screenshot(path=os.path.join(artifacts_dir, "gongzhu-summary-phone.png"), full_page=True)


# Once: a match's end as the pages show it, on a desktop and a phone; on PostgreSQL the end of
# a match (its rating, its record) is tests/games' (test_services, test_ratings).
@pytest.mark.once
def test_the_end_of_a_match(page, phone_page, site_url, site_shell, artifacts_dir):
    """Totals far apart before the last hand: whatever happens, the match ends with it."""
    for p, label in ((page, "desktop"), (phone_page, "phone")):
        if label == "desktop":
            p.set_viewport_size({"width": 1280, "height": 900})
        p.goto(f"{site_url}/en/")
        p.get_by_test_id("play-gongzhu").click()
        expect(p.locator("#board")).to_be_visible()
        code = p.url.rstrip("/").rsplit("/", 1)[-1]
        site_shell(
            f"from games.models import Table; t = Table.objects.get(code='{code}'); "
            "t.state['prior_totals'] = [5000, -2000, 40, -300]; t.save()"
        )
        p.reload()
        play_hand(p)
        expect(p.locator(".summary__verdict")).to_have_text("Victory!")
        expect(p.locator(".ranking li.is-out")).to_have_count(1)
        p.screenshot(
            path=os.path.join(artifacts_dir, f"gongzhu-match-end-{label}.png"), full_page=True
        )
        p.get_by_role("button", name="Play again").click()
        expect(p).not_to_have_url(re.compile(code))
        expect(p.locator("#board")).to_be_visible()


@pytest.mark.layout
def test_a_disabled_play_button_looks_disabled(page, site_url):
    page.goto(f"{site_url}/en/")
    page.get_by_test_id("play-gongzhu").click()
    for _ in range(3):
        wait_for_turn_or_summary(page)
        if not page.locator("#exposure-form").is_visible():
            break
        expose_nothing(page)
    play = page.get_by_test_id("play")
    expect(play).to_be_disabled()
    assert play.evaluate("e => parseFloat(getComputedStyle(e).opacity)") < 0.6
    card = page.locator(".hand__card.is-playable").first
    card.click(position=EDGE)
    expect(play).to_be_enabled()
    assert play.evaluate("e => parseFloat(getComputedStyle(e).opacity)") == 1


# Once (this and the next): what the page does with Hint and with a form swapped under a
# click, the same whatever the database and the channel layer.
@pytest.mark.once
def test_hint_pressed_again_suggests_another_card_and_play_plays_the_one_shown(page, site_url):
    """The first Hint is Normal's card; each further press on the same board the next legal
    card, round and round (as in the games of several cards), after the player's own tap."""
    page.set_viewport_size({"width": 1280, "height": 900})
    hints = []  # the hint frames the page sends
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda payload: hints.append(payload) if '"action":"hint"' in payload else None,
        ),
    )
    page.goto(f"{site_url}/en/")
    page.get_by_test_id("play-gongzhu").click()
    for _ in range(60):
        wait_for_turn_or_summary(page)
        assert not page.locator(".summary__panel").is_visible(), "never two cards to choose from"
        if page.locator("#exposure-form").is_visible():
            expose_nothing(page)
            continue
        if page.locator(".hand__card.is-playable").count() >= 2:
            break
        version = page.locator("#board").get_attribute("data-version")
        page.locator(".hand__card.is-playable").first.click(position=EDGE)
        page.get_by_test_id("play").click()
        expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    version = page.locator("#board").get_attribute("data-version")
    selected = page.locator(".hand__card.is-selected")
    page.locator(".hand__card.is-playable").last.click(position=EDGE)  # the player's own tap
    page.get_by_test_id("hint").click()
    page.wait_for_selector("#board[data-hint]")
    expect(selected).to_have_count(1)
    first = selected.get_attribute("data-card")
    page.keyboard.press("h")  # the key asks as the button does
    expect(selected).not_to_have_attribute("data-card", first)
    expect(selected).to_have_count(1)
    second = selected.get_attribute("data-card")
    # A held H repeats its keydown: the repeats ask for nothing, the press does.
    hold(page, "h")
    expect(selected).not_to_have_attribute("data-card", second)
    expect(selected).to_have_count(1)
    third = selected.get_attribute("data-card")
    assert len(hints) == 3, hints  # the button, then H twice
    assert page.locator("#board").get_attribute("data-version") == version  # a hint never plays
    page.get_by_test_id("play").click()
    expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    expect(page.locator(f".hand__card[data-card='{third}']")).to_have_count(0)
    expect(page.locator(f".hand__card[data-card='{second}']")).to_have_count(1)


@pytest.mark.once
def test_a_click_on_a_form_swapped_in_a_moment_ago_is_not_lost(page, site_url, site_shell):
    """A board the socket has just swapped in whose exposure form htmx has not yet taken in
    hand (a busy machine's few milliseconds; the clone below has none of htmx's handlers):
    "Expose nothing" clicked then is still sent, once, and the exposure is made."""
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, site_url, site_shell, "gongzhu")
    site_shell(gongzhu_exposure_scene(code_of(page)))
    page.reload()
    page.wait_for_selector("#board[data-synced] #exposure-form")
    version = page.locator("#board").get_attribute("data-version")
    page.evaluate(
        "() => { const f = document.getElementById('exposure-form');"
        " f.replaceWith(f.cloneNode(true)); }"
    )
    page.get_by_test_id("expose-none").click()
    expect(page.locator("#exposure-form")).to_have_count(0)
    expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    expect(page.locator(".me__exposed")).to_have_count(0)
    # Sent once: no refusal (a second sending would be refused as stale).
    expect(page.locator("#toast .toast__msg").filter(has_text=re.compile(r"\S"))).to_have_count(0)
