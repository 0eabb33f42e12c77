"""The rule pages in a real browser, on a desktop and on a phone, with screenshots."""

import os

import pytest
from playwright.sync_api import expect

from games.engine import game_names

PAGES = [
    ("gongzhu", "en", "Gong Zhu – Chase the Pig"),
    ("gongzhu", "de", "Gong Zhu – Jagd auf das Schwein"),
    ("gandengyan", "en", "Gan Deng Yan – Staring Eyes"),
    ("gandengyan", "de", "Gan Deng Yan – Große Augen"),
    ("doudizhu", "en", "Dou Dizhu – Fight the Landlord"),
    ("doudizhu", "de", "Dou Dizhu – Kampf gegen den Grundbesitzer"),
]


@pytest.mark.parametrize(("game", "lang", "title"), PAGES)
def test_rule_page_on_desktop_and_phone(
    page, phone_page, site_url, artifacts_dir, game, lang, title
):
    page.set_viewport_size({"width": 1280, "height": 900})
    for p, label in ((page, "desktop"), (phone_page, "phone")):
        p.goto(f"{site_url}/{lang}/rules/{game}/")
        expect(p.locator("h1")).to_have_text(title)
        expect(p.locator("html")).to_have_attribute("lang", lang)
        expect(p.locator(".rules-aside .table-rules__points li")).to_have_count(5)
        assert p.locator("figure.example").count() >= 3
        # Cards are named for screen readers.
        first_card = p.locator(".prose .pc").first
        expect(first_card).to_have_attribute("role", "img")
        assert first_card.get_attribute("aria-label")
        # Nothing is wider than the screen.
        overflow = p.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{label}: page is {overflow}px wider than the viewport"
        p.screenshot(
            path=os.path.join(artifacts_dir, f"rules-{game}-{lang}-{label}.png"), full_page=True
        )
        # The top of the page, as a reader first sees it.
        p.screenshot(path=os.path.join(artifacts_dir, f"rules-{game}-{lang}-{label}-top.png"))
    # An FAQ answer opens on click.
    item = page.locator(".faq__item").first
    item.locator("summary").click()
    expect(item.locator(".prose")).to_be_visible()


def test_rules_index_and_legal_pages(page, phone_page, site_url, artifacts_dir):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site_url}/de/")
    page.get_by_role("link", name="Regeln", exact=True).first.click()
    expect(page.locator("h1")).to_have_text("So wird gespielt")
    expect(page.locator(".rules-card")).to_have_count(len(game_names(unlisted=True)))
    page.screenshot(path=os.path.join(artifacts_dir, "rules-index-de-desktop.png"), full_page=True)
    page.locator("footer").get_by_role("link", name="Datenschutz").click()
    expect(page.locator("h1")).to_have_text("Datenschutzerklärung")
    page.screenshot(
        path=os.path.join(artifacts_dir, "legal-privacy-de-desktop.png"), full_page=True
    )
    for p, label in ((phone_page, "phone"),):
        p.goto(f"{site_url}/en/legal/impressum/")
        expect(p.locator("h1")).to_have_text("Legal notice")
        p.screenshot(
            path=os.path.join(artifacts_dir, f"legal-impressum-en-{label}.png"), full_page=True
        )
        p.goto(f"{site_url}/en/rules/")
        p.screenshot(
            path=os.path.join(artifacts_dir, f"rules-index-en-{label}.png"), full_page=True
        )
