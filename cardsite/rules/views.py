"""The rules index, a game's rule page and the legal pages."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils import translation

from cardsite.rules.models import LEGAL_SLUGS, game_slugs
from cardsite.rules.pages import can_preview, find_page, table_rules
from cardsite.rules.render import render as render_markdown


def _show(request, slug: str, template: str):
    language = translation.get_language()
    preview = "preview" in request.GET and can_preview(request.user)
    found = find_page(slug, language, preview=preview)
    if found is None:
        raise Http404(slug)
    page = found.page
    # ⟨Placeholders⟩ the editors still have to fill in: staff see them, the public reads
    # "not yet provided".
    staff = request.user.is_active and request.user.is_staff
    # Card names and example labels follow the page's language, also when it is a fallback.
    with translation.override(page.language):
        body = render_markdown(page.body, toc=True, placeholders=staff)
        faqs = [
            (faq, render_markdown(faq.answer, placeholders=staff).html) for faq in page.faqs.all()
        ]
        points = table_rules(slug, page.language).points_html if page.is_game else []
    context = {
        "page": page,
        "body": body,
        "faqs": faqs,
        "points": points,
        "fallback": found.fallback,
        "preview": preview,
        "can_edit": request.user.has_perm("rules.change_page"),
        "staff_placeholders": staff and body.placeholders,
    }
    return render(request, template, context)


def index(request):
    language = translation.get_language()
    games = []
    for slug in game_slugs():
        found = find_page(slug, language)
        if found is not None:
            games.append({"slug": slug, "found": found, "rules": table_rules(slug, language)})
    return render(request, "rules/index.html", {"games": games})


def game(request, game: str):
    if game not in game_slugs():
        raise Http404(game)
    return _show(request, game, "rules/page.html")


def legal(request, slug: str):
    if slug not in LEGAL_SLUGS:
        raise Http404(slug)
    return _show(request, slug, "legal/page.html")
