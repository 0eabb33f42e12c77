"""The words at the tables, in German and English (the outside review's language points):
one term per thing, the catalog's corrections, scores with their sign, German decimals, and
a seat that passed reads "Gepasst" while the button still says "Passen"."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from cardsite.jinja import environment
from games import services
from games.messages import refusal
from games.reviews import _points
from tests.games.test_doudizhu_table import play_the_hand

# (context, msgid, German): a representative part of the catalog's corrections.
GERMAN = [
    (None, "You are the landlord.", "Du bist Grundbesitzer."),
    (None, "pair run", "Paarstraße"),
    (
        None,
        "A 2 never goes into a straight or a pair run.",
        "Eine 2 gehört nie in eine Straße oder Paarstraße.",
    ),
    (None, "Start this round", "Runde starten"),
    (None, "Average per hand", "Schnitt pro Runde"),
    (None, "Hands played", "Gespielte Runden"),
    (None, "Hand score:", "Ergebnis der Runde:"),
    (None, "Nothing was exposed this hand.", "In dieser Runde wurde nichts aufgedeckt."),
    (None, "Four-colour deck", "Vierfarbiges Blatt"),
    (None, "The bidding is over: play or pass.", "Das Reizen ist vorbei: Spiel aus oder passe."),
    (None, "Your bid: 1, 2 or 3 points, or pass.", "Biete 1, 2 oder 3 Punkte – oder passe."),
    (None, "Let me think…", "Moment, ich überlege …"),
    (
        None,
        "That move does not fit this phase of the hand.",
        "Dieser Zug passt nicht zur aktuellen Phase der Runde.",
    ),
    (
        None,
        "What each peasant pays or gets: bid × 2 per bomb or rocket (× 2 for spring or anti-spring)",
        "Was jeder Bauer zahlt oder bekommt: Gebot × 2 je Bombe oder Rakete (× 2 bei Frühling oder Anti-Frühling)",
    ),
    (
        None,
        "Enter the same password as before, for verification.",
        "Gib zur Bestätigung dasselbe Passwort noch einmal ein.",
    ),
    (
        None,
        "The example needs hands, played and scores for every seat.",
        "Das Beispiel braucht „hands“, „played“ und „scores“ für jeden Platz.",
    ),
    (
        None,
        "Pass automatically when nothing can beat the table",
        "Automatisch passen, wenn nichts den Tisch schlägt",
    ),
    (
        None,
        "Choose a turn timer: off, 30 seconds, 1 minute or 2 minutes.",
        "Wähle eine Zugzeit: keine, 30 Sekunden, 1 Minute oder 2 Minuten.",
    ),
    ("seat has passed", "Pass", "Gepasst"),
    (None, "Pass", "Passen"),
    ("score chip", "Hand", "Diese Runde"),
]


@pytest.mark.parametrize(("context", "msgid", "german"), GERMAN)
def test_the_german_catalog_says_it_the_corrected_way(context, msgid, german):
    with translation.override("de"):
        said = pgettext(context, msgid) if context else gettext(msgid)
    assert said == german


@pytest.mark.parametrize(("n", "german"), [(1, "1 Spiel eingeworfen"), (3, "3 Spiele eingeworfen")])
def test_a_thrown_in_deal_is_counted_as_a_spiel(n, german):
    with translation.override("de"):
        said = ngettext("%(n)s deal thrown in", "%(n)s deals thrown in", n) % {"n": n}
    assert said == german


@pytest.mark.parametrize(
    ("lang", "code", "params", "said"),
    [
        (
            "de",
            "does_not_beat",
            {"kind": "airplane"},
            "Das schlägt den Zug auf dem Tisch nicht (Flugzeug).",
        ),
        (
            "en",
            "wrong_kind",
            {"kind": "airplane"},
            "Follow with the same kind (airplane), a bomb or the rocket.",
        ),
        ("en", "bad_reaction", {}, "That reaction is not available at this table."),
        ("en", "malformed", {}, "That move was not understood. Please reload the page."),
        ("en", "bad_timer", {}, "Choose a turn timer: off, 30 seconds, 1 minute or 2 minutes."),
    ],
)
def test_refusals_read_as_sentences(lang, code, params, said):
    with translation.override(lang):
        game = "doudizhu" if code in ("does_not_beat", "wrong_kind") else None
        assert refusal(code, params, game) == said


def test_english_writes_percent_without_a_space_and_german_with_one():
    from games.tables.common import share

    msgid = "%(count)s of %(total)s (%(percent)s%%)"
    values = {"count": 3, "total": 12, "percent": 25}
    with translation.override("en"):
        assert share(3, 12) == "3 of 12 (25%)"
    with translation.override("en"):
        assert gettext(msgid) % values == "3 of 12 (25%)"
    with translation.override("de"):
        assert gettext(msgid) % values == "3 von 12 (25\u00a0%)"  # kept together on a line


@pytest.mark.parametrize(("value", "shown"), [(-1000, "−1000"), (200, "+200"), (0, "0")])
def test_signed_prints_a_real_minus_and_a_plus_in_both_template_languages(value, shown):
    django = Template("{% load numbers %}{{ v|signed }}").render(Context({"v": value}))
    jinja = environment().from_string("{{ v|signed }}").render(v=value)
    assert django == jinja == shown


def test_review_points_use_the_languages_decimal_mark():
    with translation.override("de"):
        assert _points(2.5) == "2,5"
        assert _points(12.4) == "12"
    with translation.override("en"):
        assert _points(2.5) == "2.5"


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("mei", password="Kartenspiel-2026")


def test_a_seat_that_passed_reads_gepasst_and_the_button_passen(user, fixed_deal):
    """A whole Dou Dizhu hand in German: the boards mark passed seats "Gepasst", the replay's
    tricks too, and the Pass button keeps its verb. A fixed deal: on a random one the hand
    can end before any board the person is sent shows a seat that passed (CI met one)."""
    fixed_deal(20261207)
    table = services.create_table(user, "doudizhu", "easy", {"hands": 3})
    rng = random.Random(2)

    def now_and_then_a_pass(legal, plays):
        return rng.choice(plays) if plays and rng.random() < 0.5 else rng.choice(legal)

    boards = "".join(play_the_hand(table, user, now_and_then_a_pass, lang="de"))
    assert 'badge--pass">Gepasst</span>' in boards
    assert 'badge--pass">Passen</span>' not in boards
    assert 'data-testid="pass" aria-keyshortcuts="P">Passen</button>' in boards
    client = Client()
    client.force_login(user)
    with translation.override("de"):
        url = reverse("games:replay", kwargs={"code": table.code, "number": 1})
    replay = client.get(url).content.decode()
    assert 'badge--pass">Gepasst</span>' in replay and 'badge--pass">Passen<' not in replay


def test_the_gong_zhu_score_chip_is_this_rounds_score(user, client):
    table = services.create_table(user, "gongzhu", "easy")
    client.force_login(user)
    with translation.override("de"):
        url = reverse("games:table", kwargs={"code": table.code})
    html = client.get(url).content.decode()
    assert ">Diese Runde 0</span>" in html
    assert ">Runde 0</span>" not in html


@pytest.mark.parametrize(
    ("lang", "says", "not_said"),
    [
        (
            "de",
            ["gegen Computergegner werden gelöscht", "„gelöschter Spieler“"],
            "deine Partien werden entfernt",
        ),
        (
            "en",
            ["matches against computer players will be removed", "“deleted player”"],
            "match history",
        ),
    ],
)
def test_the_delete_page_says_what_stays(user, client, lang, says, not_said):
    client.force_login(user)
    with translation.override(lang):
        url = reverse("accounts:delete")
    html = client.get(url).content.decode()
    for words in says:
        assert words in html
    assert not_said not in html


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["pair of aces", "three 7s with a pair", "bomb of 10s", "pair of jacks"]),
        ("de", ["Paar A", "Drilling 7 mit Paar", "Bombe 10", "Paar J"]),
    ],
)
def test_cards_of_one_rank_are_named_as_each_language_says_them(lang, expected):
    """English said "pair of As", "three Js" (L23); German keeps the faces' letters."""
    from games.tables.doudizhu.messages import combo_label as doudizhu
    from games.tables.gandengyan.messages import combo_label as gandengyan

    with translation.override(lang):
        names = [
            doudizhu({"kind": "pair", "low": "A", "high": "A", "count": 2}),
            doudizhu({"kind": "trio_pair", "low": "7", "high": "7", "count": 5}),
            doudizhu({"kind": "bomb", "low": "T", "high": "T", "count": 4}),
            gandengyan({"kind": "pair", "low": "J", "high": "J", "count": 2}),
        ]
    assert names == expected


def test_players_with_the_same_total_share_their_place():
    """A match's final ranking showed two tied players 2nd and 3rd (findings 1.11)."""
    from games.tables.common import standings

    rows = standings([{"total": t} for t in (-40, 120, -40, 30, -40)])
    assert [(r["total"], r["place"]) for r in rows] == [
        (120, 1),
        (30, 2),
        (-40, 3),
        (-40, 3),
        (-40, 3),
    ]
    from django.conf import settings

    for name in ("gongzhu", "doudizhu"):
        summary = (settings.BASE_DIR / "templates" / "games" / name / "_summary.jinja").read_text()
        assert 'value="{{ r.place }}"' in summary  # the list's numbers are the places


@pytest.mark.django_db
def test_the_footer_promises_fair_shuffling_in_german(client):
    """'Faire Karten' (L16) for 'Fair deals': it is the shuffling that is fair."""
    page = client.get("/de/").content.decode()
    assert "Faires Mischen" in page and "Faire Karten" not in page
