"""A fixed cast: a player, a staff member without the pages permission, and an editor."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

PASSWORD = "Kartenspiel-2026"


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user("player", "player@example.com", PASSWORD)


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("staff", password=PASSWORD, is_staff=True)


@pytest.fixture
def editor(db):
    user = get_user_model().objects.create_user("editor", password=PASSWORD, is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="rules",
            codename__in=[
                "view_page",
                "change_page",
                "view_faq",
                "add_faq",
                "change_faq",
                "delete_faq",
                "view_revision",
            ],
        )
    )
    return user


class Examples(HTMLParser):
    """Collects the data-* attributes of every worked example in a page."""

    def __init__(self):
        super().__init__()
        self.found: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "figure" and "example" in (attrs.get("class") or "").split():
            self.found.append({k[5:]: v for k, v in attrs.items() if k.startswith("data-")})


def examples_in(html: str) -> list[dict]:
    parser = Examples()
    parser.feed(html)
    return parser.found


class FormData(HTMLParser):
    """What a browser would submit for the admin's change form, as it stands."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, str] = {}
        self._textarea = None
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button", "file"):
            if attrs.get("type") == "checkbox":
                if "checked" in attrs:
                    self.data[name] = attrs.get("value") or "on"
            else:
                self.data[name] = attrs.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in attrs:
            self.data[self._select] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += data


def form_data(html: str) -> dict[str, str]:
    parser = FormData()
    parser.feed(html)
    # A textarea's first newline is eaten by the browser as well.
    return {k: (v[1:] if v.startswith("\n") else v) for k, v in parser.data.items()}
