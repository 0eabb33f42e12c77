"""Hard opponents through the real server: their search runs in daphne's worker pool.

Every playable game, a whole hand against Hard bots, as a guest picks them in the lobby (the
freeze this guards against: spawned workers that could not load the bots' task).
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import test_doudizhu as doudizhu
from tests.e2e import test_gandengyan as gandengyan
from tests.e2e import test_gongzhu as gongzhu

# The computer players' whole hands: the same code on either stack, so CI runs it
# on its first pass only.
pytestmark = pytest.mark.once


def hard_seats(page):
    levels = page.locator(".seat__level")
    expect(levels.first).to_be_visible()
    assert {t.strip().lower() for t in levels.all_inner_texts()} == {"hard"}


def test_a_whole_gongzhu_hand_against_hard_bots(page, site_url):
    page.goto(f"{site_url}/en/")
    page.locator("#gongzhu label:has(input[name=level][value=hard])").click()
    page.get_by_test_id("play-gongzhu").click()
    expect(page).to_have_url(re.compile(r"/en/tables/[0-9a-f-]+/$"))
    hard_seats(page)
    gongzhu.play_hand(page)
    expect(page.locator(".summary__panel")).to_contain_text("Hand 1")


def test_a_whole_gandengyan_round_against_hard_bots(page, site_url):
    page.goto(f"{site_url}/en/")
    page.get_by_test_id("play-gandengyan").click()
    page.locator("label:has(input[name=level][value=hard])").click()
    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/tables/[0-9a-f-]+/$"))
    hard_seats(page)
    gandengyan.play_round(page)
    expect(page.get_by_test_id("settlement")).to_be_visible()


def test_a_whole_doudizhu_hand_against_hard_bots(page, site_url):
    page.goto(f"{site_url}/en/")
    page.get_by_test_id("play-doudizhu").click()
    page.locator("label:has([data-testid=hands-1])").click()
    page.locator("label:has(input[name=level][value=hard])").click()
    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/tables/[0-9a-f-]+/$"))
    hard_seats(page)
    doudizhu.play_hand(page)
    expect(page.get_by_test_id("settlement")).to_be_visible()
