"""The rule pages and legal pages as players see them."""

import pytest

from cardsite.rules.defaults import load
from cardsite.rules.models import Page, game_slugs

pytestmark = pytest.mark.django_db

TITLES = {
    ("gongzhu", "en"): "Gong Zhu – Chase the Pig",
    ("gongzhu", "de"): "Gong Zhu – Jagd auf das Schwein",
    ("gandengyan", "en"): "Gan Deng Yan – Staring Eyes",
    ("gandengyan", "de"): "Gan Deng Yan – Große Augen",
    ("doudizhu", "en"): "Dou Dizhu – Fight the Landlord",
    ("doudizhu", "de"): "Dou Dizhu – Kampf gegen den Grundbesitzer",
}


@pytest.mark.parametrize(("game", "lang"), list(TITLES))
def test_it_shows_every_rule_page_in_both_languages(client, game, lang):
    response = client.get(f"/{lang}/rules/{game}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert TITLES[(game, lang)] in html
    assert f'<article class="rules" lang="{lang}"' in html
    assert html.count('class="faq__item"') >= 6
    assert 'class="table-rules__points"' in html
    assert html.count('class="example"') >= 3
    assert 'data-testid="fallback-notice"' not in html
    assert "example-error" not in html
    # Every bracketed card code became a card.
    import re

    assert not re.search(r"\[(?:[2-9TJQKA][SHDC]|BJ|RJ)\]", html)


def test_every_game_page_has_the_sections_the_issue_asks_for():
    for page in Page.objects.filter(slug__in=game_slugs()):
        assert len(page.points) == 5, page
        assert page.faqs.count() >= 6, page
        assert page.body.count("\n## ") >= 7, page


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_index_lists_the_games(client, lang):
    html = client.get(f"/{lang}/rules/").content.decode()
    for game in game_slugs():
        assert f'href="/{lang}/rules/{game}/"' in html
        assert load(game, lang).title in html


@pytest.mark.parametrize(
    ("lang", "slug", "heading"),
    [
        ("de", "impressum", "Impressum"),
        ("en", "impressum", "Legal notice"),
        ("de", "privacy", "Datenschutzerklärung"),
        ("en", "privacy", "Privacy policy"),
    ],
)
def test_it_shows_the_legal_pages(client, lang, slug, heading):
    response = client.get(f"/{lang}/legal/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<h1>{heading}</h1>" in html
    # The defaults' placeholders are the editors' business: the public never sees them.
    assert "⟨" not in html and "⟩" not in html
    assert 'class="not-provided"' in html


NOT_PROVIDED = {"en": ("Not yet provided.", "(not yet provided)"), "de": ("Noch nicht angegeben.", "(noch nicht angegeben)")}  # fmt: skip
EDITORS_NOTE = {"en": "Note for the administrators", "de": "Hinweis für die Verwaltung"}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("slug", ["impressum", "privacy"])
def test_the_public_reads_not_yet_provided_for_each_placeholder(client, player, lang, slug):
    for who in (None, player):  # a visitor, and a signed-in player who is not staff
        if who:
            client.force_login(who)
        html = client.get(f"/{lang}/legal/{slug}/").content.decode()
        assert "⟨" not in html and "⟩" not in html
        assert EDITORS_NOTE[lang] not in html
        assert 'data-testid="placeholder-notice"' not in html
        line, inline = NOT_PROVIDED[lang]
        if slug == "impressum":  # the address: nothing but placeholders, one line
            assert f'<p class="not-provided">{line}</p>' in html
        else:  # who is responsible: a sentence with the gaps said as such
            assert f'<span class="not-provided">{inline}</span>' in html
        # What is no placeholder stays.
        assert {"impressum": {"en": "Consumer dispute", "de": "Verbraucherstreit"},
                "privacy": {"en": "sessionid", "de": "sessionid"}}[slug][lang] in html  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "en"])
def test_staff_see_the_placeholders_and_the_editors_note(client, staff, editor, lang):
    for who in (staff, editor):
        client.force_login(who)
        html = client.get(f"/{lang}/legal/impressum/").content.decode()
        assert '<mark class="placeholder">⟨' in html
        assert EDITORS_NOTE[lang] in html
        assert 'data-testid="placeholder-notice"' in html
        assert 'class="not-provided"' not in html


def test_a_filled_in_page_shows_no_placeholder_and_no_notice(client, staff):
    page = Page.objects.get(slug="impressum", language="en")
    page.body = "## Contact\n\nAda Lovelace, 1 Analytical Row, London\n"
    page.save()
    for who in (None, staff):
        if who:
            client.force_login(who)
        html = client.get("/en/legal/impressum/").content.decode()
        assert "Ada Lovelace, 1 Analytical Row" in html
        assert "not-provided" not in html and 'class="placeholder"' not in html
        assert 'data-testid="placeholder-notice"' not in html


def test_placeholders_are_recognised_by_their_angle_brackets():
    from cardsite.rules.render import render

    text = (
        "> **Note:** fill in everything in ⟨angle brackets⟩.\n\n"
        "⟨Name⟩  \n⟨Street⟩\n\n"
        "> A quote without any.\n\n"
        "Mail: ⟨a@example.org⟩, or call.\n\n"
        "Text and `⟨code⟩` stay.\n"
    )
    public = str(render(text, placeholders=False).html)
    assert "Note:" not in public and "A quote without any." in public
    assert public.count('<p class="not-provided">') == 1
    assert 'Mail: <span class="not-provided">(not yet provided)</span>, or call.' in public
    assert "<code>⟨code⟩</code>" in public
    staff = render(text)
    assert staff.placeholders == 4
    assert str(staff.html).count('<mark class="placeholder">') == 4


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_privacy_page_names_what_the_site_stores(client, lang):
    html = client.get(f"/{lang}/legal/privacy/").content.decode()
    for word in ("sessionid", "csrftoken", "django_language"):
        assert word in html
    words = {
        "de": ["Benutzername", "E-Mail", "Hash", "Anzeigename", "Sprache", "Partie"],
        "en": ["Username", "Email", "hash", "Display name", "language", "game"],
    }[lang]
    for word in words:
        assert word in html, word


@pytest.mark.parametrize(
    ("lang", "links"), [("de", ["Impressum", "Datenschutz"]), ("en", ["Legal notice", "Privacy"])]
)
def test_the_footer_links_the_legal_pages_and_the_header_the_rules(client, lang, links):
    html = client.get(f"/{lang}/").content.decode()
    assert f'href="/{lang}/legal/impressum/">{links[0]}</a>' in html
    assert f'href="/{lang}/legal/privacy/">{links[1]}</a>' in html
    assert f'href="/{lang}/rules/"' in html
    for game in game_slugs():
        assert f'href="/{lang}/rules/{game}/"' in html


@pytest.mark.parametrize("path", ["/en/rules/chess/", "/en/legal/nothing/", "/de/legal/gongzhu/"])
def test_unknown_pages_are_404(client, path):
    assert client.get(path).status_code == 404


def test_a_missing_language_falls_back_with_a_notice(client):
    Page.objects.filter(slug="gandengyan", language="de").delete()
    response = client.get("/de/rules/gandengyan/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="fallback-notice"' in html
    assert "Diese Seite gibt es noch nicht auf Deutsch" in html
    assert TITLES[("gandengyan", "en")] in html
    assert '<article class="rules" lang="en"' in html
    # The English page itself is unaffected.
    assert (
        'data-testid="fallback-notice"' not in client.get("/en/rules/gandengyan/").content.decode()
    )


def test_an_unpublished_page_is_not_shown_to_players(client, player):
    Page.objects.filter(slug="doudizhu", language="en").update(
        is_published=False, title="Secret draft"
    )
    client.force_login(player)
    # The other language stands in, with the notice …
    html = client.get("/en/rules/doudizhu/").content.decode()
    assert "Secret draft" not in html
    assert TITLES[("doudizhu", "de")] in html
    assert 'data-testid="fallback-notice"' in html
    # … a player's ?preview changes nothing …
    assert "Secret draft" not in client.get("/en/rules/doudizhu/?preview=1").content.decode()
    # … and with both languages unpublished the page is gone.
    Page.objects.filter(slug="doudizhu").update(is_published=False)
    assert client.get("/en/rules/doudizhu/").status_code == 404
    assert client.get("/de/rules/doudizhu/").status_code == 404
    assert 'href="/en/rules/doudizhu/"' not in client.get("/en/rules/").content.decode()


def test_an_editor_previews_an_unpublished_page(client, editor, staff):
    Page.objects.filter(slug="privacy", language="en").update(
        is_published=False, title="Draft policy"
    )
    client.force_login(staff)  # staff, but without the pages permission
    assert "Draft policy" not in client.get("/en/legal/privacy/?preview=1").content.decode()
    client.force_login(editor)
    html = client.get("/en/legal/privacy/?preview=1").content.decode()
    assert "Draft policy" in html
    assert 'data-testid="preview-notice"' in html
    # Without ?preview even an editor sees what players see.
    assert "Draft policy" not in client.get("/en/legal/privacy/").content.decode()
