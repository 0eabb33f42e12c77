"""The default pages: a game's from its manifest (``TableGame.rule_page``, the file
``games/tables/<game>/rules.<language>.md``), the legal pages from ``content/<slug>.<language>.md``.

A file starts with a small header (``title:``, ``lead:``, then the key points as ``- `` lines),
then ``---`` and the Markdown body. FAQ entries follow a line ``+++ FAQ``; each starts with a
line ``?? question`` and runs until the next one.

The data migration installs a page only where none exists for its slug and language, so a
later run never overwrites what staff edited.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardsite.rules.models import LEGAL_SLUGS
from games.registry import table_game, table_games

CONTENT = Path(__file__).resolve().parent / "content"
LANGUAGES = ("de", "en")


def slugs() -> list[str]:
    """Every default page: the games' rule pages, then the legal pages."""
    return [*(g.name for g in table_games()), *LEGAL_SLUGS]


@dataclass
class DefaultPage:
    slug: str
    language: str
    title: str
    lead: str
    key_points: list[str]
    body: str
    faqs: list[tuple[str, str]] = field(default_factory=list)


def parse(text: str, slug: str, language: str) -> DefaultPage:
    header, _sep, rest = text.partition("\n---\n")
    body, _sep, faq_text = rest.partition("\n+++ FAQ\n")
    meta: dict[str, str] = {}
    points: list[str] = []
    for line in header.splitlines():
        if line.startswith("- "):
            points.append(line[2:].strip())
        elif ":" in line:
            key, _colon, value = line.partition(":")
            meta[key.strip()] = value.strip()
    faqs: list[tuple[str, list[str]]] = []
    for line in faq_text.splitlines():
        if line.startswith("?? "):
            faqs.append((line[3:].strip(), []))
        elif faqs:
            faqs[-1][1].append(line)
    entries = [(question, "\n".join(lines).strip()) for question, lines in faqs]
    return DefaultPage(
        slug, language, meta["title"], meta.get("lead", ""), points, body.strip(), entries
    )


def load(slug: str, language: str) -> DefaultPage:
    path = (
        CONTENT / f"{slug}.{language}.md"
        if slug in LEGAL_SLUGS
        else table_game(slug).rule_page(language)
    )
    return parse(path.read_text(encoding="utf-8"), slug, language)


def all_defaults() -> list[DefaultPage]:
    return [load(slug, language) for slug in slugs() for language in LANGUAGES]


def install(apps, schema_editor=None) -> int:
    """Create every default page that is missing; leave existing ones alone. Returns the count."""
    Page = apps.get_model("rules", "Page")
    FAQ = apps.get_model("rules", "FAQ")
    Revision = apps.get_model("rules", "Revision")
    created = 0
    for default in all_defaults():
        if Page.objects.filter(slug=default.slug, language=default.language).exists():
            continue
        page = Page.objects.create(
            slug=default.slug,
            language=default.language,
            title=default.title,
            lead=default.lead,
            key_points="\n".join(default.key_points),
            body=default.body,
            is_published=True,
        )
        for order, (question, answer) in enumerate(default.faqs, start=1):
            FAQ.objects.create(page=page, question=question, answer=answer, order=order)
        Revision.objects.create(
            page=page,
            title=page.title,
            lead=page.lead,
            key_points=page.key_points,
            body=page.body,
            faqs=[
                {"question": q, "answer": a, "order": n}
                for n, (q, a) in enumerate(default.faqs, start=1)
            ],
            is_published=True,
        )
        created += 1
    return created
