"""Finding the page a player should see, and the five key points other pages show.

A page missing or unpublished in the requested language falls back to the other language;
the caller shows a notice. Only staff allowed to edit pages see unpublished ones (preview).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString

from cardsite.rules.models import Page, game_slugs
from cardsite.rules.render import render_inline


@dataclass(frozen=True)
class Found:
    page: Page
    fallback: bool  # True when the page is in another language than the one asked for


def languages_for(language: str) -> list[str]:
    """The asked-for language first, then the others in the site's order."""
    codes = [code for code, _name in settings.LANGUAGES]
    return [language] + [code for code in codes if code != language]


def can_preview(user) -> bool:
    return bool(
        user
        and user.is_active
        and user.is_staff
        and (user.has_perm("rules.change_page") or user.has_perm("rules.view_page"))
    )


def find_page(slug: str, language: str, preview: bool = False) -> Found | None:
    pages = Page.objects.filter(slug=slug)
    if not preview:
        pages = pages.filter(is_published=True)
    by_language = {page.language: page for page in pages}
    for code in languages_for(language):
        if code in by_language:
            return Found(by_language[code], fallback=code != language)
    return None


@dataclass(frozen=True)
class TableRules:
    """The "table rules" card: a game's five key points, ready for a template."""

    game: str
    title: str
    language: str
    points: list[str]
    points_html: list[SafeString]
    url: str
    fallback: bool


def table_rules(game: str, language: str | None = None) -> TableRules | None:
    """The five key points of ``game`` in ``language`` (default: the active one).

    Falls back to the other language when needed (``fallback`` says so); None when the
    game has no published page at all.
    """
    if game not in game_slugs():
        raise ValueError(f"not a game: {game!r}")
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    found = find_page(game, language)
    if found is None:
        return None
    page = found.page
    with translation.override(page.language):
        points_html = [render_inline(point) for point in page.points]
    with translation.override(language):
        url = reverse("rules:game", args=[game])
    return TableRules(
        game=game,
        title=page.title,
        language=page.language,
        points=page.points,
        points_html=points_html,
        url=url,
        fallback=found.fallback,
    )


def key_points(game: str, language: str | None = None) -> list[str]:
    """The five key points as plain Markdown lines (card codes like ``[QS]`` left as they are)."""
    rules = table_rules(game, language)
    return rules.points if rules else []
