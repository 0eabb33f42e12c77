"""Accessibility, measured: axe-core's WCAG 2.1 A/AA rules find nothing, in Chromium.

axe-core is vendored (``tests/e2e/vendor/``, see its README) and injected into each page; every
page and every state of every table a player meets is checked: the lobby, the rule and legal
pages, the account pages and My matches, the waiting room of a table for people, and each game
mid-hand with its dialogs (Gong Zhu's exposure and hand summary, Gan Deng Yan's and Dou Dizhu's
settlements, Dou Dizhu's bidding).
"""

import json
import re
import subprocess
from pathlib import Path

from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_doudizhu import play_hand as play_doudizhu_hand
from tests.e2e.test_doudizhu import seat_zero_bids
from tests.e2e.test_gongzhu import play_hand as play_gongzhu_hand
from tests.e2e.test_phone_landscape import (
    EDGE,
    ORDER,
    code_of,
    gandengyan_scene,
    gongzhu_exposure_scene,
    start,
)
from tests.e2e.test_play_together import sign_up

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

RUN_AXE = """async (tags) => {
    const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
    return result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html,
                                  summary: n.failureSummary})),
    }));
}"""


def violations(page) -> list[dict]:
    # A page is judged at rest: a card still travelling or fading in (static/js/feel.js) is
    # drawn half transparent for a moment, which no one reads.
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running')", timeout=10_000
    )
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated by the driver, not added as a <script>: the page's Content-Security-Policy
        # refuses an inline script.
        page.evaluate(AXE.read_text())
    return page.evaluate(RUN_AXE, TAGS)


def readable(where: str, found: list[dict]) -> str:
    lines = [f"{where}: {len(found)} axe-core violation(s)"]
    for v in found:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:6]:
            lines.append(f"    {node['target']}: {node['html'][:160]}")
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"      {summary[:300]}")
        if len(v["nodes"]) > 6:
            lines.append(f"    … and {len(v['nodes']) - 6} more")
    return "\n".join(lines)


class Audit:
    """Checks pages as a test goes and fails at its end with everything found, page by page."""

    def __init__(self):
        self.failures: list[str] = []
        self.checked: list[str] = []

    def check(self, page, where: str):
        found = violations(page)
        self.checked.append(where)
        if found:
            self.failures.append(readable(where, found))

    def done(self):
        assert not self.failures, (
            "\n\n".join(self.failures) + "\n\nchecked: " + json.dumps(self.checked)
        )


def test_the_lobby_rule_and_legal_pages(page, site_url):
    audit = Audit()
    for lang in ("en", "de"):
        page.goto(f"{site_url}/{lang}/")
        expect(page.locator("#live-status")).to_have_attribute("data-state", "login")
        audit.check(page, f"lobby ({lang})")
    for path in ("rules/", "rules/gongzhu/", "rules/gandengyan/", "rules/doudizhu/"):
        page.goto(f"{site_url}/en/{path}")
        audit.check(page, path)
    for path in ("legal/impressum/", "legal/privacy/"):
        page.goto(f"{site_url}/de/{path}")
        audit.check(page, path)
    page.goto(f"{site_url}/en/no-such-page/")
    audit.check(page, "404")
    audit.done()


def test_the_account_pages_and_my_matches(page, site_url, site_shell):
    audit = Audit()
    for path in ("accounts/login/", "accounts/signup/"):
        page.goto(f"{site_url}/en/{path}")
        audit.check(page, path)
    # A guest's match, then signing up: My matches lists it, the match page shows it.
    start(page, site_url, site_shell, "gongzhu")
    sign_up(page, site_url, "axe")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "online")
    audit.check(page, "lobby, signed in")
    page.goto(f"{site_url}/en/accounts/profile/")
    audit.check(page, "accounts/profile/")
    page.goto(f"{site_url}/en/matches/")
    expect(page.locator(".list-table tbody tr")).to_have_count(1)
    audit.check(page, "matches/")
    page.get_by_role("link", name="Details").click()
    audit.check(page, "a match")
    page.goto(f"{site_url}/de/accounts/login/")
    audit.check(page, "accounts/login/ (de)")
    audit.done()


def test_the_waiting_room_of_a_table_for_people(page, site_url, site_shell):
    audit = Audit()
    site_shell(
        "from cardsite.accounts.models import RateCounter; "
        "RateCounter.objects.filter(name__startswith='guest:').delete()"
    )
    page.goto(f"{site_url}/en/tables/new/gongzhu/")
    expect(page.get_by_test_id("new-table")).to_be_visible()
    audit.check(page, "a new table for people")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("waiting-room")).to_be_visible()
    page.wait_for_selector("#board[data-synced]")
    audit.check(page, "the waiting room")
    audit.done()


def shell(site_shell, code: str) -> str:
    """``site_shell`` saying what went wrong when the scene cannot be set."""
    try:
        return site_shell(code)
    except subprocess.CalledProcessError as exc:
        raise AssertionError(f"setting the scene failed:\n{exc.stderr}") from None


def test_a_gong_zhu_table_its_exposure_and_its_summary(page, site_url, site_shell):
    audit = Audit()
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, site_url, site_shell, "gongzhu")
    # The exposure phase of the hand as dealt (bots may have led already), the player
    # holding all four exposable cards.
    shell(site_shell, gongzhu_exposure_scene(code_of(page)))
    page.reload()
    page.wait_for_selector("#board[data-synced] #exposure-form")
    page.locator(".exposure__option:has(input[value=QS])").click()
    audit.check(page, "Gong Zhu: exposure")
    page.get_by_test_id("expose-confirm").click()
    expect(page.locator("#exposure-form")).to_have_count(0)
    page.wait_for_selector("#board[data-synced].is-my-turn .hand__card.is-playable", timeout=60000)
    page.locator(".hand__card.is-playable").first.click(position=EDGE)
    audit.check(page, "Gong Zhu: the player's turn, a card selected")
    version = page.locator("#board").get_attribute("data-version")
    page.get_by_test_id("play").click()
    expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    play_gongzhu_hand(page)
    expect(page.locator(".summary__panel")).to_contain_text("Hand 1")
    audit.check(page, "Gong Zhu: the hand summary")
    audit.done()


def test_a_gan_deng_yan_table_and_its_settlement(page, site_url, site_shell):
    audit = Audit()
    page.set_viewport_size({"width": 1280, "height": 900})
    deck = [r + s for s in "SHDC" for r in ORDER]
    gandengyan_scene(page, site_url, site_shell, deck[:8] + ["BJ"])
    page.locator(".hand__card").first.click(position=EDGE)
    audit.check(page, "Gan Deng Yan: the player's turn, a card selected")
    gandengyan_scene(page, site_url, site_shell, ["3S"])
    page.locator(".hand__card").first.click(position=EDGE)
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("settlement")).to_be_visible()
    audit.check(page, "Gan Deng Yan: the settlement")
    audit.done()


def test_a_dou_dizhu_table_bidding_playing_and_settling(page, site_url, site_shell):
    audit = Audit()
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, site_url, site_shell, "doudizhu")
    seat_zero_bids(site_shell, code_of(page))
    page.reload()
    expect(page.get_by_test_id("bids")).to_be_visible()
    page.wait_for_selector("#board[data-synced]")
    audit.check(page, "Dou Dizhu: bidding")
    page.get_by_test_id("bid-3").click()
    page.wait_for_selector("#board[data-synced].is-my-turn [data-testid=play]")
    page.get_by_test_id("hint").first.click()
    page.wait_for_selector("#board[data-hint]")
    audit.check(page, "Dou Dizhu: the landlord's turn, a hint selected")
    play_doudizhu_hand(page)
    expect(page.get_by_test_id("settlement")).to_be_visible()
    audit.check(page, "Dou Dizhu: the settlement")
    expect(page).to_have_url(re.compile(r"/tables/"))
    audit.done()


def test_learning_and_the_deal_of_the_day(page, site_url):
    """The lessons' page and a lesson's table with its guide; today's deals, a day's page
    before playing, past deals, and a deal of the day's table."""
    audit = Audit()
    for lang in ("en", "de"):
        page.goto(f"{site_url}/{lang}/learn/")
        audit.check(page, f"learn ({lang})")
    page.get_by_test_id("learn-gongzhu").click()
    expect(page.locator("#guide.guide--mine")).to_be_visible()
    audit.check(page, "a lesson's table, its guide at the first step (de)")
    page.goto(f"{site_url}/en/daily/")
    audit.check(page, "today's deals")
    page.goto(f"{site_url}/en/daily/history/")
    audit.check(page, "past deals")
    page.goto(f"{site_url}/en/daily/gandengyan/{timezone.localdate().isoformat()}/")
    expect(page.get_by_test_id("daily-closed")).to_be_visible()
    audit.check(page, "a day's page before playing its deal")
    page.goto(f"{site_url}/en/daily/")
    page.get_by_test_id("daily-play-gongzhu").click()
    expect(page.get_by_test_id("daily-banner")).to_be_visible()
    expect(page.locator("#board")).to_be_visible()
    audit.check(page, "a deal of the day's table")
    audit.done()
