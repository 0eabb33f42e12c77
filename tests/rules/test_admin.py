"""Only staff with the pages permission edit pages; every save records its editor."""

import pytest

from cardsite.rules.models import Page, Revision
from tests.rules.conftest import form_data

pytestmark = pytest.mark.django_db


def _page():
    return Page.objects.get(slug="gongzhu", language="en")


def _change_url(page):
    return f"/admin/rules/page/{page.pk}/change/"


def test_it_sends_an_ordinary_user_to_the_admin_login(client, player):
    client.force_login(player)
    for url in ("/admin/rules/page/", _change_url(_page())):
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith("/admin/login/")
    response = client.post(_change_url(_page()), {"title": "Hacked"})
    assert response.status_code == 302
    assert _page().title != "Hacked"


def test_it_refuses_staff_without_the_permission(client, staff):
    client.force_login(staff)
    assert client.get("/admin/rules/page/").status_code == 403
    assert client.get(_change_url(_page())).status_code == 403
    assert client.post(_change_url(_page()), {"title": "Hacked"}).status_code == 403
    assert _page().title != "Hacked"


def test_it_lets_an_editor_change_a_page_and_records_who_did(client, editor):
    client.force_login(editor)
    page = _page()
    form = client.get(_change_url(page))
    assert form.status_code == 200
    data = form_data(form.content.decode())
    data["title"] = "Gong Zhu – the rules"
    data["faqs-0-answer"] = data["faqs-0-answer"] + " Edited."
    data["_save"] = "Save"
    response = client.post(_change_url(page), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    page.refresh_from_db()
    assert page.title == "Gong Zhu – the rules"
    assert page.updated_by == editor
    assert page.faqs.count() == 9
    revision = page.revisions.first()
    assert revision.editor == editor
    assert revision.title == "Gong Zhu – the rules"
    assert revision.faqs[0]["answer"].endswith("Edited.")
    assert "Gong Zhu – the rules" in client.get("/en/rules/gongzhu/").content.decode()


def test_it_insists_on_five_key_points(client, editor):
    client.force_login(editor)
    page = _page()
    data = form_data(client.get(_change_url(page)).content.decode())
    data["key_points"] = "Only one point"
    data["_save"] = "Save"
    response = client.post(_change_url(page), data)
    assert response.status_code == 200
    assert "exactly 5 key points" in response.content.decode()


def test_the_list_filters_by_game_and_language_and_links_a_preview(client, editor):
    client.force_login(editor)
    html = client.get("/admin/rules/page/?slug__exact=doudizhu&language__exact=de").content.decode()
    assert "Kampf gegen den Grundbesitzer" in html
    assert "Chase the Pig" not in html
    assert 'href="/de/rules/doudizhu/?preview=1"' in html
    html = client.get("/admin/rules/page/?kind=legal").content.decode()
    assert "Impressum" in html and "Fight the Landlord" not in html


def test_the_history_is_there(client, editor, django_user_model):
    admin = django_user_model.objects.create_superuser("boss", password="Kartenspiel-2026")
    client.force_login(admin)
    page = _page()
    assert client.get(f"/admin/rules/page/{page.pk}/history/").status_code == 200
    revision = Revision.objects.filter(page=page).first()
    assert client.get(f"/admin/rules/revision/{revision.pk}/change/").status_code == 200
    assert client.get("/admin/rules/revision/add/").status_code == 403


def test_an_editor_restores_an_earlier_version(client, editor):
    client.force_login(editor)
    page = _page()
    first = page.revisions.get()
    data = form_data(client.get(_change_url(page)).content.decode())
    data.update(title="Broken", body="Oops", _save="Save")
    data["faqs-0-DELETE"] = "on"
    assert client.post(_change_url(page), data).status_code == 302
    page.refresh_from_db()
    assert page.title == "Broken" and page.faqs.count() == 8

    response = client.post(
        "/admin/rules/revision/",
        {"action": "restore_revision", "_selected_action": [first.pk]},
        follow=True,
    )
    assert response.status_code == 200
    page.refresh_from_db()
    assert page.title == first.title and page.body == first.body
    assert page.faqs.count() == 9 and page.updated_by == editor
    assert page.revisions.count() == 3


def test_staff_without_the_permission_cannot_restore(client, staff):
    from django.contrib.auth.models import Permission

    staff.user_permissions.add(Permission.objects.get(codename="view_revision"))
    client.force_login(staff)
    page = _page()
    first = page.revisions.get()
    page.title = "Changed"
    page.save()
    client.post(
        "/admin/rules/revision/",
        {"action": "restore_revision", "_selected_action": [first.pk]},
    )
    page.refresh_from_db()
    assert page.title == "Changed"
