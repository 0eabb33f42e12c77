"""The five key points, for the table pages."""

import pytest
from django.template import Context, Template
from django.utils import translation

from cardsite.rules.models import Page
from cardsite.rules.pages import key_points, table_rules

pytestmark = pytest.mark.django_db


def test_it_gives_five_points_in_the_asked_language():
    en = key_points("gongzhu", "en")
    de = key_points("gongzhu", "de")
    assert len(en) == len(de) == 5
    assert "[QS]" in en[1] and "[QS]" in de[1]
    assert "Four players" in en[0] and "Vier Spieler" in de[0]


def test_it_follows_the_active_language_and_renders_cards():
    with translation.override("de"):
        rules = table_rules("doudizhu")
    assert rules.language == "de" and not rules.fallback
    assert rules.url == "/de/rules/doudizhu/"
    assert len(rules.points_html) == 5
    assert 'data-card="BJ"' in "".join(rules.points_html)


def test_it_falls_back_and_says_so():
    Page.objects.filter(slug="gandengyan", language="en").update(is_published=False)
    rules = table_rules("gandengyan", "en")
    assert rules.language == "de" and rules.fallback
    assert rules.url == "/en/rules/gandengyan/"
    Page.objects.filter(slug="gandengyan").delete()
    assert table_rules("gandengyan", "en") is None
    assert key_points("gandengyan", "en") == []


def test_it_knows_only_games():
    with pytest.raises(ValueError):
        table_rules("impressum", "en")


def test_the_template_tag_renders_the_card():
    with translation.override("en"):
        html = Template('{% load rules %}{% table_rules "gongzhu" %}').render(Context({}))
    assert 'data-testid="table-rules"' in html
    assert html.count("<li>") == 5
    assert 'href="/en/rules/gongzhu/"' in html
