"""A player plays a Gong Zhu hand, asks Hard to review it from the summary, watches it being
made and reads the decisions Hard would have made differently."""

import os
import re

from playwright.sync_api import expect

from tests.e2e.test_accessibility import Audit
from tests.e2e.test_gongzhu import play_hand

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}


def test_a_player_reviews_their_hand_with_hard(page, site_url, artifacts_dir):
    audit = Audit()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site_url}/en/")
    page.get_by_test_id("play-gongzhu").click()
    expect(page).to_have_url(re.compile(r"/en/tables/[0-9a-f-]+/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    play_hand(page)
    expect(page.locator(".summary__panel")).to_contain_text("Hand 1")

    # From the summary: the review is asked for and made while the page watches.
    with page.expect_response(lambda r: r.url.endswith("/hands/1/review/")) as first:
        page.get_by_test_id("review-link").click()
    assert 'data-status="queued"' in first.value.text()  # the progress state, first
    expect(page.locator("h1")).to_have_text("Gong Zhu: your decisions in hand 1")
    review = page.get_by_test_id("review")
    expect(review).to_have_attribute("data-status", "done", timeout=90_000)
    decisions = page.get_by_test_id("review-decision")
    expect(decisions.first).to_be_visible()
    assert 1 <= decisions.count() <= 13
    # Playing the first card the page allows, the player made at least one choice Hard would
    # not have: shown with its alternative and what it cost, the costliest listed first.
    alternative = page.get_by_test_id("review-alternative").first
    expect(alternative).to_contain_text(
        re.compile(r"Hard would have played.+: about [\d.]+ points", re.S)
    )
    expect(alternative.locator(".card")).to_have_count(1)
    expect(page.get_by_test_id("review-costliest").locator("li").first).to_be_visible()
    expect(page.get_by_test_id("review-summary")).to_contain_text("Hard would have made")
    page.screenshot(path=os.path.join(artifacts_dir, "review-desktop-en.png"), full_page=True)
    audit.check(page, "review page")

    # Kept with the hand: from the score sheet, in German, at once and the same.
    page.goto(f"{site_url}/de/matches/{code}/")
    page.get_by_role("link", name="Analyse").first.click()
    expect(page.get_by_test_id("review")).to_have_attribute("data-status", "done")
    expect(page.get_by_test_id("review-decision")).to_have_count(decisions.count())
    expect(page.locator("h1")).to_contain_text("deine Entscheidungen")
    for name, size in (("phone", PHONE), ("landscape", LANDSCAPE)):
        page.set_viewport_size(size)
        page.screenshot(path=os.path.join(artifacts_dir, f"review-{name}-de.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
        assert not overflow, f"the review page is wider than a {name}"
    audit.check(page, "review page (de, phone)")
    audit.done()
