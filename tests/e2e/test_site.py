"""The foundation in a real browser: accounts, languages and the live channel."""

import os
import re
import uuid

import pytest
from playwright.sync_api import expect


def _signup(page, site_url, username, password="Kartenspiel-2026"):
    page.goto(f"{site_url}/en/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.get_by_role("button", name="Sign up").click()
    return password


def test_sign_up_log_out_log_in_switch_language_and_go_live(page, site_url, artifacts_dir):
    username = f"ada{uuid.uuid4().hex[:6]}"
    password = _signup(page, site_url, username)
    expect(page.locator(".flash")).to_contain_text("Your account is ready")
    expect(page).to_have_url(re.compile(r"/en/$"))

    # The live channel connects and greets the player by name.
    expect(page.locator("#live-status")).to_have_attribute("data-state", "online")
    expect(page.locator("#live-status")).to_contain_text(f"connected as {username}")

    # Log out.
    page.locator(".account-menu summary").click()
    page.get_by_test_id("logout").click()
    expect(page.locator(".flash")).to_contain_text("logged out")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()

    # Log in again.
    page.get_by_role("link", name="Log in").click()
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("form.stack button[type=submit]").click()
    expect(page.locator(".account-menu summary")).to_contain_text(username)

    # Switch to German: the lobby and the live channel speak German.
    page.locator(".lang-switch button[value=de]").click()
    expect(page).to_have_url(re.compile(r"/de/$"))
    expect(page.locator("h1")).to_have_text("Chinesische Kartenspiele spielen")
    expect(page.locator("#live-status")).to_contain_text(f"verbunden als {username}")
    expect(page.locator("html")).to_have_attribute("lang", "de")

    # The choice is remembered: the bare root goes to German, and so does a new login.
    page.goto(f"{site_url}/")
    expect(page).to_have_url(re.compile(r"/de/$"))

    # And back to English.
    page.locator(".lang-switch button[value=en]").click()
    expect(page).to_have_url(re.compile(r"/en/$"))
    expect(page.locator("h1")).to_have_text("Play Chinese card games")


def test_anonymous_lobby_is_invited_to_play(page, site_url):
    page.goto(f"{site_url}/en/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "login")
    expect(page.locator("#live-status")).to_contain_text("Play now")
    expect(page.locator("#live-status")).not_to_contain_text("Log in")


@pytest.mark.layout
def test_screenshots_desktop_and_phone(page, phone_page, site_url, artifacts_dir):
    username = f"shot{uuid.uuid4().hex[:6]}"
    for p, label in ((page, "desktop"), (phone_page, "phone")):
        if label == "desktop":
            p.set_viewport_size({"width": 1280, "height": 860})
        p.goto(f"{site_url}/en/accounts/signup/")
        p.screenshot(path=os.path.join(artifacts_dir, f"signup-{label}.png"), full_page=True)
        p.goto(f"{site_url}/de/")
        p.screenshot(path=os.path.join(artifacts_dir, f"lobby-anon-de-{label}.png"), full_page=True)
    _signup(page, site_url, username)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "online")
    page.screenshot(path=os.path.join(artifacts_dir, "lobby-desktop.png"), full_page=True)
    page.goto(f"{site_url}/en/accounts/profile/")
    page.screenshot(path=os.path.join(artifacts_dir, "profile-desktop.png"), full_page=True)
    # The phone logs in with the same account (its own browser context).
    phone_page.goto(f"{site_url}/en/accounts/login/")
    phone_page.fill("#id_username", username)
    phone_page.fill("#id_password", "Kartenspiel-2026")
    phone_page.locator("form.stack button[type=submit]").click()
    expect(phone_page.locator("#live-status")).to_have_attribute("data-state", "online")
    phone_page.screenshot(path=os.path.join(artifacts_dir, "lobby-phone.png"), full_page=True)
    phone_page.goto(f"{site_url}/en/accounts/profile/")
    phone_page.screenshot(path=os.path.join(artifacts_dir, "profile-phone.png"), full_page=True)


def test_the_page_reconnects_after_a_clean_close(page, site_url):
    """The htmx ws extension retries only after 1006/1011/1012/1013; our script after any
    close that is not 44xx (a server restart or a proxy timeout closes cleanly with 1000/1001)."""
    _signup(page, site_url, f"re{uuid.uuid4().hex[:6]}")
    status = page.locator("#live-status")
    expect(status).to_have_attribute("data-state", "online")
    page.evaluate(
        """() => {
        const elt = document.querySelector('[ws-connect]');
        window.__opens = 0;
        elt.addEventListener('htmx:wsOpen', () => { window.__opens += 1; });
        elt['htmx-internal-data'].webSocket.socket.close(1000);
    }"""
    )
    expect(status).to_have_attribute("data-state", "online", timeout=15000)
    page.wait_for_function("() => window.__opens >= 1", timeout=15000)
