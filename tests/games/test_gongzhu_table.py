"""Gong Zhu's own table details: what Hint says in the exposure phase, the replay's exposures."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services, views_live
from games.bots import gongzhu as bots
from games.engine import get_game

pytestmark = pytest.mark.django_db
GAME = get_game("gongzhu")


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("ren", password="Kartenspiel-2026")


def exposure_table(owner, fixed_deal, advice_is_empty: bool):
    """A table where the player may expose and Normal's advice is (or is not) to expose
    nothing: the first such deal, found with the engine alone, then dealt at a table."""
    for seed in range(2000):
        state = GAME.new_match(seed=seed, seats=4)
        legal = GAME.legal_actions(state, 0)
        if len(legal) < 2:
            continue
        advice = bots.hint(GAME.observation(state, 0), legal)
        if (not advice["cards"]) == advice_is_empty:
            fixed_deal(seed)
            return services.create_table(owner, "gongzhu", "easy")
    raise AssertionError("no such deal among 2000")


def test_hint_says_so_when_its_advice_is_to_expose_nothing(owner, fixed_deal):
    table = exposure_table(owner, fixed_deal, advice_is_empty=True)
    with translation.override("en"):
        html = views_live.handle(str(table.code), owner, "en", {"action": "hint"}).html
    assert 'data-testid="hint-note"' in html and "Hint: expose nothing." in html
    html = views_live.handle(str(table.code), owner, "de", {"action": "hint"}).html
    assert "Tipp: nichts aufdecken." in html
    table.refresh_from_db()
    assert GAME.observation(GAME.from_json(table.state), 0)["phase"] == "expose"  # never plays


def test_hint_to_expose_cards_ticks_them_without_the_note(owner, fixed_deal):
    table = exposure_table(owner, fixed_deal, advice_is_empty=False)
    html = views_live.handle(str(table.code), owner, "en", {"action": "hint"}).html
    assert 'data-testid="hint-note"' not in html and " checked" in html


def play_out(table, owner, rng, expose: bool):
    """The player exposes all it can (or nothing), then plays at random; the final state."""
    while True:
        services.run_bots(table.code)
        table.refresh_from_db()
        state = GAME.from_json(table.state)
        if GAME.hand_over(state):
            return state
        legal = GAME.legal_actions(state, 0)
        if legal[0]["type"] == "expose":
            move = (
                max(legal, key=lambda a: len(a["cards"]))
                if expose
                else {"type": "expose", "cards": []}
            )
        else:
            move = rng.choice(legal)
        services.submit_action(table.code, owner, move, table.version)


def test_a_replay_says_nothing_was_exposed_only_when_nothing_was(owner):
    rng = random.Random(4)
    client = Client()
    client.force_login(owner)
    seen = set()
    for i in range(12):
        table = services.create_table(owner, "gongzhu", "easy")
        state = play_out(table, owner, rng, expose=i % 2 == 1)
        exposed = any(GAME.observation(state, s)["my_exposure"] for s in range(4))
        with translation.override("en"):  # an /en/ page, whatever an earlier test left active
            url = reverse("games:replay", kwargs={"code": table.code, "number": 1})
        html = client.get(url).content.decode()
        if exposed:
            assert "Exposed:" in html and 'data-testid="no-exposures"' not in html
        else:
            assert 'data-testid="no-exposures"' in html and "Exposed:" not in html
        seen.add(exposed)
        if seen == {True, False}:
            return
    pytest.fail(f"only hands with exposed={seen} came up")
