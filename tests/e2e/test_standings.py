"""Ratings in Chromium: a player finds their rating and its course from the account menu, the
leaderboard from the navigation, in English and German, on a desktop and a phone."""

from __future__ import annotations

import os
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.test_accessibility import Audit

SCENE = """
import random
from django.contrib.auth import get_user_model
from cardsite.accounts.models import Profile
from games import ratings, services
rng = random.Random(3)
tag = "{tag}"
users = []
for name in ["Mei", "Jonas", "Lina", "Kai"]:
    u = get_user_model().objects.create_user(f"{{name.lower()}}-{{tag}}", password="Kartenspiel-2026")
    Profile.objects.create(user=u, display_name=f"{{name}} {{tag[:3]}}")
    users.append(u)
for n in range(40):  # ten rated matches each: ratings settle, the leaderboards list them
    u = users[n % 4]
    for game in ("gongzhu", "doudizhu"):
        t = services.create_table(u, game, ("easy", "normal", "hard")[n % 3])
        seats = t.seats.count()
        totals = [rng.randint(-60, 60) + 20 * (3 - n % 4) * (s == 0) for s in range(seats)]
        ratings.rate(t, totals)
# …and a whole Dou Dizhu match played out by the computer for Mei: its hands give her figures.
t = services.create_table(users[0], "doudizhu", "normal")
t.seats.filter(index=0).update(autoplay=True)
for _ in range(40):
    services.run_bots(t.code)
    t.refresh_from_db()
    if not t.is_active:
        break
    services.start_next_hand(t.code, users[0], t.version)
"""


@pytest.mark.layout
def test_a_player_finds_their_ratings_and_the_leaderboard(
    page, phone_page, site_url, site_shell, artifacts_dir
):
    audit = Audit()  # axe-core, WCAG 2.1 A and AA, on every page of the test
    tag = uuid.uuid4().hex[:6]
    site_shell(SCENE.format(tag=tag))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site_url}/en/accounts/login/")
    page.fill("#id_username", f"mei-{tag}")
    page.fill("#id_password", "Kartenspiel-2026")
    page.locator("form.stack button[type=submit]").click()
    expect(page.locator(".account-menu summary")).to_be_visible()

    page.locator(".account-menu summary").click()
    page.get_by_role("link", name="My ratings").click()
    expect(page.locator("h1")).to_have_text(f"Mei {tag[:3]}")
    gongzhu = page.get_by_test_id("standing-gongzhu")
    expect(gongzhu.get_by_test_id("rating-gongzhu")).to_have_text(re.compile(r"^\d{3,4}$"))
    expect(gongzhu).to_contain_text("after 10 rated matches")
    expect(gongzhu.locator("svg.chart polyline")).to_have_count(1)
    expect(page.get_by_test_id("standing-gandengyan")).to_contain_text("No rating yet")
    expect(page.get_by_test_id("facts-doudizhu")).to_contain_text("Won as landlord")
    page.screenshot(
        path=os.path.join(artifacts_dir, "ratings-player-desktop-en.png"), full_page=True
    )
    audit.check(page, "player page")

    page.get_by_role("navigation", name="Games").get_by_role("link", name="Leaderboards").click()
    board = page.get_by_test_id("leaderboard")
    expect(board.locator(f"tbody tr:has-text('Mei {tag[:3]}')")).to_have_class("is-own")
    page.screenshot(
        path=os.path.join(artifacts_dir, "ratings-leaderboard-desktop-en.png"), full_page=True
    )
    audit.check(page, "leaderboard")
    page.get_by_role("link", name="Dou Dizhu").last.click()
    expect(page).to_have_url(re.compile(r"/en/leaderboard/doudizhu/$"))
    expect(page.get_by_test_id("leaderboard")).to_contain_text(f"Jonas {tag[:3]}")

    # In German, on a phone: the same pages, in its words.
    phone_page.goto(f"{site_url}/de/leaderboard/gongzhu/")
    expect(phone_page.locator("h1")).to_have_text("Bestenlisten")
    expect(phone_page.get_by_test_id("leaderboard")).to_contain_text("Platz")
    phone_page.screenshot(
        path=os.path.join(artifacts_dir, "ratings-leaderboard-phone-de.png"), full_page=True
    )
    audit.check(phone_page, "leaderboard (de, phone)")
    phone_page.get_by_test_id("leaderboard").get_by_role("link", name=f"Mei {tag[:3]}").click()
    expect(phone_page.get_by_test_id("standing-gongzhu")).to_contain_text(
        "nach 10 gewerteten Partien"
    )
    expect(phone_page.get_by_test_id("standing-gandengyan")).to_contain_text("Noch keine Wertung")
    phone_page.screenshot(
        path=os.path.join(artifacts_dir, "ratings-player-phone-de.png"), full_page=True
    )
    audit.check(phone_page, "player page (de, phone)")
    audit.done()


# Once: the pages of a deal played again; on PostgreSQL the deal played again is
# tests/games/test_same_deal.py's.
@pytest.mark.once
def test_the_same_deal_played_again_from_the_history(page, site_url, artifacts_dir):
    from tests.e2e.test_gongzhu import play_hand

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site_url}/en/")
    page.get_by_test_id("play-gongzhu").click()
    expect(page).to_have_url(re.compile(r"/en/tables/[0-9a-f-]+/$"))
    first = page.url
    play_hand(page)
    expect(page.locator(".summary__panel")).to_contain_text("Hand 1")

    # From the score sheet to the hand's replay, and its deal played again.
    page.goto(first.replace("/tables/", "/matches/"))
    page.get_by_role("link", name="Replay").first.click()
    mine = page.locator(".deal-grid > div").first.locator(".card")
    cards = sorted(mine.evaluate_all("els => els.map(e => e.dataset.card)"))
    assert len(cards) == 13
    page.get_by_test_id("same-deal").click()
    expect(page).to_have_url(re.compile(r"/en/tables/[0-9a-f-]+/$"))
    assert page.url != first
    expect(page.locator("#board[data-synced]")).to_have_count(1)
    held = sorted(
        page.locator("#board .hand__card").evaluate_all("els => els.map(e => e.dataset.card)")
    )
    assert held == cards  # the same thirteen cards

    play_hand(page)
    comparison = page.get_by_test_id("same-deal")
    expect(comparison).to_contain_text("The first time")
    expect(comparison.locator("tbody tr")).to_have_count(4)
    expect(page.get_by_test_id("next-hand")).to_have_count(0)  # one hand only
    page.screenshot(path=os.path.join(artifacts_dir, "same-deal-desktop-en.png"), full_page=True)
