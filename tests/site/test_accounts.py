import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import translation

from cardsite.accounts.models import profile_for
from tests.site.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def url(name, lang="en", **kwargs):
    with translation.override(lang):
        return reverse(name, kwargs=kwargs or None)


def test_it_signs_up_and_logs_in(client):
    response = client.post(
        url("accounts:signup"),
        {"username": "carol", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="carol")
    assert user.email == ""
    assert profile_for(user).language == "en"
    assert client.get(url("lobby")).context["user"] == user


def test_it_refuses_signup_with_mismatched_passwords(client):
    response = client.post(
        url("accounts:signup", "de"),
        {"username": "carol", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert "nicht identisch" in response.content.decode()
    assert not get_user_model().objects.filter(username="carol").exists()


def test_it_logs_in_and_out(client, alice):
    response = client.post(url("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(url("lobby")).context["user"] == alice
    assert client.get(url("accounts:logout")).status_code == 405  # POST only
    client.post(url("accounts:logout"))
    assert not client.get(url("lobby")).context["user"].is_authenticated


def test_login_redirects_to_the_profile_language(client, alice):
    prof = profile_for(alice)
    prof.language = "de"
    prof.save()
    response = client.post(url("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == "/de/"
    assert response.cookies["django_language"].value == "de"


def test_too_many_failed_logins_are_refused_per_username(client, alice):
    for _ in range(5):
        response = client.post(url("accounts:login"), {"username": "alice", "password": "wrong"})
        assert "Please enter a correct username" in response.content.decode()
    # Now even the right password is refused, with a clear message.
    response = client.post(url("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200
    assert "Too many failed attempts" in response.content.decode()
    assert not response.context["user"].is_authenticated


def test_too_many_failed_logins_are_refused_per_address(client, alice, bob):
    for i in range(20):
        client.post(url("accounts:login"), {"username": f"nobody{i}", "password": "wrong"})
    response = client.post(url("accounts:login", "de"), {"username": "bob", "password": PASSWORD})
    assert "Zu viele Fehlversuche" in response.content.decode()


def test_the_address_comes_from_the_trusted_proxy(client, alice, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for i in range(20):
        client.post(
            url("accounts:login"),
            {"username": f"nobody{i}", "password": "wrong"},
            HTTP_X_FORWARDED_FOR="203.0.113.9",
        )
    # Another client behind the same proxy is not blocked; the forged leftmost entry is ignored.
    response = client.post(
        url("accounts:login"),
        {"username": "alice", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.7",
    )
    assert response.status_code == 302


def test_a_successful_login_resets_the_username_count(client, alice):
    for _ in range(4):
        client.post(url("accounts:login"), {"username": "alice", "password": "wrong"})
    assert (
        client.post(url("accounts:login"), {"username": "alice", "password": PASSWORD}).status_code
        == 302
    )
    client.post(url("accounts:logout"))
    for _ in range(4):
        client.post(url("accounts:login"), {"username": "alice", "password": "wrong"})
    assert (
        client.post(url("accounts:login"), {"username": "alice", "password": PASSWORD}).status_code
        == 302
    )


def test_it_resets_a_forgotten_password_by_email(client, alice):
    response = client.post(url("accounts:password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/\S+)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    assert response.context["validlink"]
    new = "Neues-Passwort-77"
    response = client.post(
        response.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)
    # The link works once.
    assert not client.get(link, follow=True).context["validlink"]


def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    response = client.post(
        url("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "Anderes-Pw-99",
            "new_password2": "Anderes-Pw-99",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("Anderes-Pw-99")


def test_password_change_requires_login(client):
    response = client.get(url("accounts:password_change"))
    assert response.status_code == 302
    assert "/login/" in response.url


def test_it_saves_the_profile_and_switches_language(client, alice):
    client.force_login(alice)
    response = client.post(url("accounts:profile"), {"display_name": "Ada", "language": "de"})
    assert response.status_code == 302
    assert response.url == "/de/accounts/profile/"
    assert response.cookies["django_language"].value == "de"
    prof = profile_for(alice)
    assert (prof.display_name, prof.language) == ("Ada", "de")


def test_it_deletes_the_account_with_the_password(client, alice):
    client.force_login(alice)
    response = client.post(url("accounts:delete"), {"password": "wrong"})
    assert response.status_code == 200
    assert get_user_model().objects.filter(pk=alice.pk).exists()
    response = client.post(url("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=alice.pk).exists()
    assert not client.get(url("lobby")).context["user"].is_authenticated


def test_delete_requires_login(client):
    assert client.post(url("accounts:delete"), {"password": "x"}).status_code == 302


def test_language_switch_sets_cookie_and_profile(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("set_language"), {"language": "de", "next": "/en/accounts/profile/"}
    )
    assert response.status_code == 302
    assert response.url == "/de/accounts/profile/"
    assert response.cookies["django_language"].value == "de"
    assert profile_for(alice).language == "de"


@pytest.mark.parametrize("browser_language", ["en", "de"])
@pytest.mark.parametrize("target", ["en", "de"])
@pytest.mark.parametrize(
    "page",
    [("lobby", {}), ("rules:index", {}), ("rules:game", {"game": "doudizhu"}), ("table", {})],
)
def test_language_switch_goes_to_the_same_page_in_either_language_from_either_browser(
    client, alice, browser_language, target, page
):
    """The switch works towards the browser's own language too (it reloaded the German page
    for an English browser, and did nothing on an English page for a German one)."""
    from games import services

    name, kwargs = page
    if name == "table":
        name, kwargs = "games:table", {"code": services.create_table(alice, "gongzhu", "easy").code}
    client.force_login(alice)
    source = "de" if target == "en" else "en"
    with translation.override(source):
        here = reverse(name, kwargs=kwargs) + "?x=1"
    with translation.override(target):
        there = reverse(name, kwargs=kwargs) + "?x=1"
    assert here != there
    response = client.post(
        reverse("set_language"),
        {"language": target, "next": here},
        HTTP_ACCEPT_LANGUAGE=browser_language,
    )
    assert response.status_code == 302 and response.url == there
    assert client.get(there, HTTP_ACCEPT_LANGUAGE=browser_language).status_code == 200


def test_language_switch_ignores_foreign_next(client):
    response = client.post(
        reverse("set_language"), {"language": "de", "next": "https://evil.example/"}
    )
    assert response.url == "/de/"


def test_admin_is_at_admin(client, django_user_model):
    staff = django_user_model.objects.create_superuser("root", "r@example.com", PASSWORD)
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


def test_the_tables_sound_toggle_is_kept_with_the_account(client, alice):
    assert profile_for(alice).sound is False  # off until the player turns it on
    client.force_login(alice)
    assert client.get(url("accounts:sound")).status_code == 405  # POST only
    assert client.post(url("accounts:sound"), {"on": "1"}).status_code == 204
    assert profile_for(alice).sound is True
    client.post(url("accounts:sound"), {"on": "0"})
    assert profile_for(alice).sound is False


def test_the_sound_toggle_without_an_account_keeps_nothing(client):
    assert client.post(url("accounts:sound"), {"on": "1"}).status_code == 204
