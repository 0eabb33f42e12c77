"""The rule pages and legal pages as players see them."""

import pytest

from cardsite.rules.models import GAME_SLUGS, Page

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
    for page in Page.objects.filter(slug__in=GAME_SLUGS):
        assert len(page.points) == 5, page
        assert page.faqs.count() >= 6, page
        assert page.body.count("\n## ") >= 7, page


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_index_lists_the_three_games(client, lang):
    html = client.get(f"/{lang}/rules/").content.decode()
    for game in GAME_SLUGS:
        assert f'href="/{lang}/rules/{game}/"' in html
        assert TITLES[(game, lang)] in html


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
    assert "⟨" in html  # the placeholders the admin fills in are visible


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
    for game in GAME_SLUGS:
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
