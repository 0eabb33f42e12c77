import subprocess
import sys

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "heading"),
    [("en", "Play Chinese card games"), ("de", "Chinesische Kartenspiele spielen")],
)
def test_lobby_in_both_languages(client, lang, heading):
    html = client.get(f"/{lang}/").content.decode()
    assert heading in html
    assert f'<html lang="{lang}">' in html
    for slug in ("gongzhu", "gandengyan", "doudizhu"):
        assert f'id="{slug}"' in html


def test_root_redirects_by_cookie(client):
    client.cookies["django_language"] = "de"
    assert client.get("/").url == "/de/"


def test_no_cdn_every_asset_is_local(client):
    html = client.get("/en/").content.decode()
    assert "https://" not in html.replace("https://www.w3.org", "")
    assert "/static/vendor/htmx/htmx-2.0.11.min.js" in html


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "This page is not on the table"), ("de", "Diese Seite liegt nicht auf dem Tisch")],
)
def test_404_page_in_both_languages(client, lang, text):
    response = client.get(f"/{lang}/no-such-page/")
    assert response.status_code == 404
    assert text in response.content.decode()


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "Something went wrong on our side"), ("de", "Bei uns ist etwas schiefgegangen")],
)
def test_500_page_in_both_languages(rf, lang, text):
    from django.utils import translation

    from cardsite.views import error_500

    request = rf.get(f"/{lang}/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    with translation.override(lang):
        response = error_500(request)
    assert response.status_code == 500
    assert text in response.content.decode()


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "You may not open this page"), ("de", "Diese Seite darfst du nicht öffnen")],
)
def test_403_page_in_both_languages(rf, lang, text):
    from django.contrib.auth.models import AnonymousUser
    from django.utils import translation

    from cardsite.views import error_403

    request = rf.get(f"/{lang}/")
    request.user = AnonymousUser()
    with translation.override(lang):
        response = error_403(request)
    assert response.status_code == 403
    assert text in response.content.decode()


@pytest.mark.parametrize(
    ("lang", "text"), [("en", "This form has expired"), ("de", "Dieses Formular ist abgelaufen")]
)
def test_csrf_failure_page_in_both_languages(lang, text, django_user_model):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/{lang}/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    assert text in response.content.decode()


def test_deploy_check_passes_without_warnings():
    env = {
        "DEBUG": "0",
        "SECRET_KEY": "x" * 30 + "-a-long-random-production-secret-key-value",
        "ALLOWED_HOSTS": "cards.example.com",
        "PATH": "/usr/bin:/bin",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    result = subprocess.run(
        [sys.executable, "-c", "import cardsite.settings"],
        env={"DEBUG": "0", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@override_settings(TRUSTED_PROXY_COUNT=2)
def test_client_ip_behind_two_proxies(rf):
    from cardsite.middleware import client_ip

    request = rf.get(
        "/", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.5, 10.0.0.2", REMOTE_ADDR="10.0.0.3"
    )
    assert client_ip(request) == "203.0.113.5"


def test_client_ip_without_proxies_ignores_the_header(rf):
    from cardsite.middleware import client_ip

    request = rf.get("/", HTTP_X_FORWARDED_FOR="1.1.1.1", REMOTE_ADDR="10.0.0.3")
    assert client_ip(request) == "10.0.0.3"
