"""Corrected sentences of the shipped pages reach databases made before the correction
(migration 0004), leave what staff rewrote alone, and read right on the pages."""

import importlib

import pytest
from django.apps import apps

from cardsite.rules.defaults import load
from cardsite.rules.models import Page, Revision

pytestmark = pytest.mark.django_db

migration = importlib.import_module("cardsite.rules.migrations.0004_corrected_sentences")

FOUR_WITH_TWO_DE = (
    "Er schlägt nur einen höheren Vierling mit zwei;",
    "Er schlägt nur einen niedrigeren Vierling mit zwei;",
)
FOUR_WITH_TWO_EN = (
    "It only beats a higher four with two; a single bomb beats it.",
    "It only beats a lower four with two; any bomb beats it.",
)
TWO_DE = (
    "und eine 2 schlägt nur eine Bombe.",
    "und eine 2 ist nur mit einer Bombe zu schlagen.",
)


def _texts(page):
    return [page.title, page.lead, page.key_points, page.body] + [
        text for f in page.faqs.all() for text in (f.question, f.answer)
    ]


def _shipped(page):
    """The page as the defaults ship it now, in the same shape as ``_texts``."""
    default = load(page.slug, page.language)
    return [default.title, default.lead, "\n".join(default.key_points), default.body] + [
        text for q, a in default.faqs for text in (q, a)
    ]


def _as_shipped_before():
    """Every page back to its old shipped sentences, as a database from before 0004 holds them."""
    for page in Page.objects.all():
        pairs = [
            (old, new)
            for s, lang, old, new in migration.SENTENCES
            if (s, lang) == (page.slug, page.language)
        ]
        for owner, name in migration._texts(page, list(page.faqs.all())):
            text = getattr(owner, name)
            for old, new in reversed(pairs):
                text = text.replace(new, old)
            setattr(owner, name, text)
            owner.save()


def _sentence_of(slug, language, start):
    return next(
        (old, new)
        for s, lang, old, new in migration.SENTENCES
        if (s, lang) == (slug, language) and start in old
    )


def test_a_database_with_the_old_pages_gets_every_corrected_sentence():
    _as_shipped_before()
    ddz = Page.objects.get(slug="doudizhu", language="de")
    assert FOUR_WITH_TWO_DE[0] in ddz.body and FOUR_WITH_TWO_DE[1] not in ddz.body
    revisions = Revision.objects.count()

    changed = migration.correct(apps)

    # Every page with a corrected sentence (each but the German legal notice, and the pages of
    # any game the tests list beside the shipped ones).
    assert changed == len({(slug, lang) for slug, lang, _old, _new in migration.SENTENCES})
    assert Revision.objects.count() == revisions + changed
    for page in Page.objects.all():
        assert _texts(page) == _shipped(page), page
    ddz.refresh_from_db()
    assert FOUR_WITH_TWO_DE[1] in ddz.body and FOUR_WITH_TWO_DE[0] not in ddz.body
    assert FOUR_WITH_TWO_EN[1] in Page.objects.get(slug="doudizhu", language="en").body
    assert TWO_DE[1] in Page.objects.get(slug="gandengyan", language="de").body
    # Recorded as an edit is: the newest revision holds the corrected page.
    assert ddz.revisions.first().body == ddz.body


def test_a_sentence_staff_rewrote_stays_as_they_wrote_it():
    _as_shipped_before()
    page = Page.objects.get(slug="gandengyan", language="de")
    rewritten = "und eine 2 fällt nur gegen eine Bombe (Redaktion)."
    page.body = page.body.replace(TWO_DE[0], rewritten)
    page.save()
    faq_old, faq_new = _sentence_of("gandengyan", "de", "Der Faktor ist bei 64")
    faq = page.faqs.get(answer__contains=faq_old)
    faq.answer = faq.answer.replace(faq_old, "Bei 64 ist Schluss.")
    faq.save()

    migration.correct(apps)

    page.refresh_from_db()
    assert rewritten in page.body and TWO_DE[1] not in page.body
    faq.refresh_from_db()
    assert "Bei 64 ist Schluss." in faq.answer and faq_new not in faq.answer
    # The sentences nobody touched are corrected all the same.
    assert "Jeder Verlierer zahlt **Restkarten × Multiplikator**." in page.body
    assert "Restkarten × Multiplikator:" in page.key_points


def test_a_fresh_install_is_left_as_it_is():
    revisions = Revision.objects.count()
    assert migration.correct(apps) == 0
    assert Revision.objects.count() == revisions
    for page in Page.objects.all():
        assert _texts(page) == _shipped(page), page


@pytest.mark.parametrize(
    ("path", "new", "old"),
    [
        (
            "/de/rules/doudizhu/",
            "nur einen niedrigeren Vierling mit zwei; jede Bombe",
            "höheren Vierling",
        ),
        (
            "/en/rules/doudizhu/",
            "only beats a lower four with two; any bomb beats it",
            "higher four",
        ),
        ("/de/rules/gandengyan/", "eine 2 ist nur mit einer Bombe zu schlagen", "2 schlägt nur"),
        ("/de/rules/gandengyan/", "Restkarten × Multiplikator", "Faktor"),
        ("/de/rules/doudizhu/", "Eine Partie dauert 1, 3, 5 oder 10 Runden", "Hände"),
        ("/de/rules/gongzhu/", "Das Ende der Partie", "So läuft eine Hand"),
        ("/en/rules/doudizhu/", "face down on the table (the <strong>kitty</strong>)", " — "),
        ("/en/rules/gongzhu/", "Stop a player going for all the hearts", "they pay"),
        ("/de/rules/doudizhu/", "Gebot 1 · 4 Bomben oder Raketen", "4 Bomben<"),
        ("/en/rules/gandengyan/", "Seat 4<small", "Seat 0"),
        ("/de/rules/gandengyan/", "Platz 4 hat nie gelegt", "Platz 0"),
        ("/de/legal/privacy/", "Du kannst dein Konto jederzeit selbst löschen", "löschen lassen"),
        ("/de/legal/privacy/", "Gastspiele von einer IP-Adresse", "Meldest du dich als Gast"),
        (
            "/en/legal/privacy/",
            "the public leaderboards with your display name",
            "write to the address",
        ),
    ],
)
def test_the_pages_read_the_corrected_way(client, path, new, old):
    html = client.get(path).content.decode()
    assert new in html
    assert old not in html
