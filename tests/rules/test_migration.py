"""The default pages arrive with a migration that never overwrites what staff edited."""

import importlib

import pytest
from django.apps import apps

from cardsite.rules.defaults import all_defaults
from cardsite.rules.models import FAQ, Page

pytestmark = pytest.mark.django_db

migration = importlib.import_module("cardsite.rules.migrations.0002_default_pages")


def test_the_migration_installed_every_default_page():
    assert Page.objects.count() == len(all_defaults())
    for default in all_defaults():
        page = Page.objects.get(slug=default.slug, language=default.language)
        assert page.title == default.title
        assert page.faqs.count() == len(default.faqs)
        assert page.revisions.count() == 1


def test_running_it_again_keeps_an_edited_page_as_edited():
    page = Page.objects.get(slug="gongzhu", language="de")
    page.title = "Von der Redaktion geändert"
    page.body = "Neu geschrieben."
    page.is_published = False
    page.save()
    page.faqs.all().delete()
    FAQ.objects.create(page=page, question="Eigene Frage?", answer="Eigene Antwort.", order=1)

    migration.load_defaults(apps, None)

    page.refresh_from_db()
    assert page.title == "Von der Redaktion geändert"
    assert page.body == "Neu geschrieben."
    assert page.is_published is False
    assert list(page.faqs.values_list("question", flat=True)) == ["Eigene Frage?"]
    assert Page.objects.count() == len(all_defaults())


def test_running_it_again_restores_only_a_deleted_page():
    Page.objects.filter(slug="privacy", language="en").delete()
    migration.load_defaults(apps, None)
    assert Page.objects.filter(slug="privacy", language="en").exists()
    assert Page.objects.count() == len(all_defaults())
