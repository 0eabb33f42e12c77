"""A game for the tests only (``GameInfo.unlisted``) is listed where the tests ask for it and
nowhere else: by default (the site as run, the engine as the acceptance checks call it) the
engine, the registry, the lobby, the navigation, the rule pages and the choices list the real
games alone; the test run (tests/conftest.py) asks the site for the unlisted ones too
(``settings.UNLISTED_GAMES``), and the engine lists them only when asked by argument.

Checked with a game registered here for the purpose, and with every unlisted game the engine
has."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import games.tables
from cardsite.rules.models import game_slugs, page_choices
from games import registry
from games.engine import base, game_names, get_game
from games.engine.base import GameInfo
from tests.conftest import UNLISTED_GAMES

ROOT = Path(__file__).resolve().parents[2]
FAKE = "unlistedfake"
LABEL = "A game that no player sees"


class FakeGame:
    info = GameInfo(name=FAKE, seat_counts=(2,), default_seats=2, unlisted=True, order=99)
    name = info.name
    seat_counts = info.seat_counts


@pytest.fixture
def unlisted(tmp_path, monkeypatch):
    """The unlisted games, each with its name on the site: every one the engine has, and one
    registered here (its engine, and a plug-in with its labels only)."""
    base._load_all()
    package = tmp_path / FAKE
    package.mkdir()
    (package / "__init__.py").write_text(
        f"from games.tables.base import Labels\nLABELS = Labels({LABEL!r}, '', '', '', '')\n"
    )
    monkeypatch.setattr(games.tables, "__path__", [*games.tables.__path__, str(tmp_path)])
    monkeypatch.setitem(base._REGISTRY, FAKE, FakeGame())
    names = sorted(name for name, game in base._REGISTRY.items() if game.info.unlisted)
    return {name: str(registry.table_game(name).labels.name) for name in names}


def listed_anywhere(client, unlisted: dict[str, str]) -> list[str]:
    """Where any of the ``unlisted`` games is listed: the engine, the registry, the choices,
    the rule pages, the lobby and its navigation, the rules index."""
    found = []
    for name in unlisted:
        if name in game_names():
            found.append(f"engine: {name}")
        if name in [g.name for g in registry.table_games()]:
            found.append(f"registry: {name}")
        if name in dict(registry.game_choices()) or name in dict(page_choices()):
            found.append(f"choices: {name}")
        if name in game_slugs():
            found.append(f"rule pages: {name}")
        assert get_game(name).info.unlisted  # the engine has it, asked for by name
    for path in ("/en/", "/en/rules/"):
        html = client.get(path).content.decode()
        found += [f"{path}: {word}" for pair in unlisted.items() for word in pair if word in html]
    return found


@pytest.mark.django_db
def test_by_default_no_unlisted_game_is_listed(client, unlisted, settings):
    assert FAKE in unlisted
    settings.UNLISTED_GAMES = False
    assert listed_anywhere(client, unlisted) == []
    assert len(game_names()) >= 3


def test_the_test_run_lists_them(unlisted, settings):
    assert os.environ[UNLISTED_GAMES] == "1" and settings.UNLISTED_GAMES
    for name in unlisted:
        assert name in game_names(unlisted=True)
        assert get_game(name).info.unlisted
        assert registry.table_game(name).name == name
        assert name in dict(registry.game_choices())
        assert name in game_slugs()


def test_a_process_that_does_not_ask_lists_the_real_games_alone(unlisted):
    """As the site runs (no environment for it) and the acceptance checks call the engine."""
    env = {k: v for k, v in os.environ.items() if k != UNLISTED_GAMES}
    env["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
    code = (
        "import django; django.setup(); from games.engine import game_names; "
        "from games.registry import table_games; "
        "print(' '.join(game_names())); print(' '.join(g.name for g in table_games()))"
    )
    engine, site = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    real = [name for name in game_names(unlisted=True) if name not in unlisted]
    assert engine.split() == site.split() == real and len(real) >= 3
