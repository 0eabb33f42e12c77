"""What the markup did with event attributes, which the Content-Security-Policy forbids, the
static scripts do (site.js): a menu that sends its form as soon as a choice is made
(data-autosubmit) and a form that asks before it is sent (data-confirm). That no page of the
browser tests breaks the policy is checked for every test (tests/e2e/conftest.py)."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.journeys import start_alone
from tests.e2e.test_play_together import board_ready, create_table, sign_up, version

# The page's content security policy: the same code on either stack, so CI runs it
# on its first pass only.
pytestmark = pytest.mark.once


def test_the_level_menu_sends_itself_and_resigning_asks_first(page, site_url):
    table = start_alone(page, site_url, "gongzhu", "en")
    options = page.locator(".table-menu summary")
    options.click()
    before = version(page)
    page.locator("#level-select").select_option("hard")
    expect(page.locator("#board")).not_to_have_attribute("data-version", before)
    page.reload()
    board_ready(page)
    expect(page.locator("#level-select")).to_have_value("hard")

    asked = []
    resign = page.locator(".table-menu form[action$='/resign/'] button")
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    options.click()
    resign.click()
    assert asked == ["Resign this match? It ends now and stays in your history."]
    expect(page.locator("#board")).to_be_visible()
    assert page.url == table  # declined: still at the table, the match goes on
    page.once("dialog", lambda dialog: dialog.accept())
    if not resign.is_visible():
        options.click()
    resign.click()
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f-]+/$"))


def test_the_host_gives_a_seat_to_the_computer_from_its_menu(page, site_url):
    sign_up(page, site_url, "csp")
    create_table(page, site_url, "gongzhu", ["person", "person", "person"])
    seat = page.get_by_test_id("waiting-seat-1")
    expect(seat).to_have_class(re.compile(r"\bis-open\b"))
    page.get_by_test_id("seat-set-1").select_option("hard")
    expect(seat).not_to_have_class(re.compile(r"\bis-open\b"))
    expect(page.get_by_test_id("seat-set-1")).to_have_value("hard")
