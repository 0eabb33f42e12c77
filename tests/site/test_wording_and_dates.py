"""One date format per language on every page, and one wording per thing (issue 19): Gan Deng
Yan's German subtitle, the spelling of email, the lobby's invitation to a visitor."""

import datetime
import re
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from cardsite.asgi import application
from cardsite.rules.defaults import load
from games.tables.gandengyan import LABELS

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
ORIGIN = (b"origin", b"http://testserver")
WHEN = datetime.datetime(2026, 12, 1, 6, 42, tzinfo=datetime.UTC)  # 07:42 in Berlin
EXPECTED = {"de": ("01.12.2026, 07:42", "01.12.2026"), "en": ("1 Dec 2026, 07:42", "1 Dec 2026")}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_one_date_format_per_language(lang):
    local = timezone.localtime(WHEN)
    with translation.override(lang):
        shown = {
            name: formats.date_format(local, name)
            for name in ("DATETIME_FORMAT", "SHORT_DATETIME_FORMAT")
        }
        dates = {formats.date_format(local, n) for n in ("DATE_FORMAT", "SHORT_DATE_FORMAT")}
    assert set(shown.values()) == {EXPECTED[lang][0]}
    assert dates == {EXPECTED[lang][1]}


def test_templates_name_only_the_sites_formats():
    """Every date on a page goes through DATE_FORMAT or DATETIME_FORMAT ('c' is for scripts)."""
    used = set()
    for path in TEMPLATES.rglob("*.html"):
        used |= set(re.findall(r"\|date:['\"]([^'\"]*)['\"]", path.read_text()))
    assert used and used <= {"DATE_FORMAT", "DATETIME_FORMAT", "c"}, used


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["de", "en"])
def test_my_matches_and_the_match_page_show_the_same_date(alice, lang):
    from games import services

    table = services.create_table(alice, "gongzhu")
    type(table).objects.filter(pk=table.pk).update(created_at=WHEN)
    client = Client()
    client.force_login(alice)
    with translation.override(lang):
        mine = client.get(reverse("games:my_matches")).content.decode()
        match = client.get(reverse("games:match", kwargs={"code": table.code})).content.decode()
    assert EXPECTED[lang][0] in mine
    assert EXPECTED[lang][0] in match


@pytest.mark.django_db
def test_gan_deng_yan_has_one_german_subtitle(client):
    """The lobby's card and the rule page's title name the game alike."""
    subtitle = load("gandengyan", "de").title.split(" – ", 1)[1]
    with translation.override("de"):
        assert str(LABELS.subtitle) == subtitle == "Große Augen"
    with translation.override("en"):
        assert str(LABELS.subtitle) == load("gandengyan", "en").title.split(" – ", 1)[1]
    with translation.override("de"):  # the request's language ends with the test
        lobby = client.get("/de/").content.decode()
    assert "Große Augen" in lobby and "Starrende Augen" not in lobby


def user_facing_texts(lang):
    """The catalog's msgstrs, the rule and legal pages' defaults in that language."""
    po = (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").read_text()
    texts = re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', po, re.M)
    for md in (ROOT / "cardsite" / "rules" / "content").glob(f"*.{lang}.md"):
        texts.append(md.read_text())
    return "\n".join(texts)


def test_one_spelling_of_email_per_language():
    english = user_facing_texts("en")
    assert re.search(r"\bemail\b", english, re.I)
    assert not re.search(r"\be-mail", english, re.I)
    german = user_facing_texts("de")
    assert "E-Mail" in german
    assert not re.search(r"\b(?:e-mail|email|eMail)\b", german)  # only "E-Mail"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("lang", "invitation"),
    [("en", "Play now"), ("de", "Jetzt spielen")],
)
async def test_the_lobby_invites_a_visitor_to_play(lang, invitation):
    comm = WebsocketCommunicator(application, f"/ws/{lang}/lobby/", headers=[ORIGIN])
    connected, _ = await comm.connect()
    assert connected
    text = await comm.receive_from()
    assert invitation in text and "live updates" not in text and "Live-Updates" not in text
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_without_a_player_is_told_to_log_in():
    code = "00000000-0000-0000-0000-000000000000"
    comm = WebsocketCommunicator(application, f"/ws/en/tables/{code}/", headers=[ORIGIN])
    connected, _ = await comm.connect()
    assert connected
    text = await comm.receive_from()
    assert "Log in to get live updates." in text and "Play now" not in text
    await comm.disconnect()
