"""The Content-Security-Policy (django-csp, cardsite/settings.py) on the site's main pages: the
header is there, allows scripts and styles from the site only (no 'unsafe-inline', no
'unsafe-eval'), and the pages hold nothing it would block: no inline script, no event
attribute (onclick=…), no style attribute, no <style> element. The browser tests check the
rest (tests/e2e/conftest.py: a test fails on any violation its pages report)."""

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from games.registry import table_games

pytestmark = pytest.mark.django_db


class Inline(HTMLParser):
    """What in a page the policy would block: (tag, attribute or element) pairs."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append((tag, f"{name}={attrs[name]!r}"))
        if tag == "style":
            self.found.append((tag, "<style>"))
        # A script without src runs inline; a JSON data block (type application/json) is
        # not a script and the policy leaves it alone.
        if tag == "script" and "src" not in attrs and attrs.get("type") != "application/json":
            self.found.append((tag, "inline script"))


def pages(alice):
    """(name, url) of the main pages, a table of each game among them."""
    from games import services

    tables = {g.name: services.create_table(alice, g.name, "easy") for g in table_games()}
    first = next(iter(tables.values()))
    return [
        ("home", "/"),
        ("lobby", reverse("lobby")),
        ("rules", reverse("rules:index")),
        ("rules of a game", reverse("rules:game", args=[first.game])),
        ("history", reverse("games:my_matches")),
        ("score sheet", reverse("games:match", kwargs={"code": first.code})),
        ("leaderboard", reverse("games:leaderboard")),
        ("login", reverse("accounts:login")),
        ("signup", reverse("accounts:signup")),
        ("admin login", reverse("admin:login")),
    ] + [
        (f"table {game}", reverse("games:table", kwargs={"code": t.code}))
        for game, t in tables.items()
    ]


@pytest.fixture
def answers(alice):
    """Each main page's response (the login pages as a visitor, the others as alice)."""
    visitor, player = Client(), Client()
    player.force_login(alice)
    return {
        name: (visitor if "login" in name or name == "signup" else player).get(url)
        for name, url in pages(alice)
    }


def test_every_main_page_has_the_policy(answers):
    for name, response in answers.items():
        assert response.status_code in (200, 302), name
        policy = response.headers.get("Content-Security-Policy", "")
        directives = dict(
            (d.split(" ", 1) + [""])[:2] for d in (p.strip() for p in policy.split(";")) if d
        )
        assert directives.get("default-src") == "'self'", (name, policy)
        for kind in ("script-src", "style-src"):
            assert directives.get(kind, "").split()[0] == "'self'", (name, policy)
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, (name, policy)
        assert directives.get("object-src") == "'none'", (name, policy)
        assert directives.get("frame-ancestors") == "'none'", (name, policy)
        assert "'self'" in directives.get("connect-src", ""), (name, policy)


def test_no_main_page_holds_what_the_policy_blocks(answers):
    for name, response in answers.items():
        if response.status_code != 200:
            continue
        parser = Inline()
        parser.feed(response.content.decode())
        assert parser.found == [], name
