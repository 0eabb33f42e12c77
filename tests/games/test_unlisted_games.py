"""A game for the tests only (``GameInfo.unlisted``) is listed where the tests ask for it and
nowhere else: by default (the site as run, the engine as the acceptance checks call it) the
engine, the registry, the lobby, the navigation, the rule pages and the choices list the real
games alone; the test run (tests/conftest.py) asks for the unlisted ones too.

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
from games.engine.base import UNLISTED_GAMES, GameInfo

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
        with pytest.raises(KeyError):
            get_game(name)
    for path in ("/en/", "/en/rules/"):
        html = client.get(path).content.decode()
        found += [f"{path}: {word}" for pair in unlisted.items() for word in pair if word in html]
    return found


@pytest.mark.django_db
def test_by_default_no_unlisted_game_is_listed(client, unlisted, monkeypatch):
    assert FAKE in unlisted
    monkeypatch.delenv(UNLISTED_GAMES)
    assert listed_anywhere(client, unlisted) == []
    assert len(game_names()) >= 3


def test_the_test_run_lists_them(unlisted):
    assert os.environ[UNLISTED_GAMES] == "1"
    for name in unlisted:
        assert name in game_names()
        assert get_game(name).info.unlisted
        assert registry.table_game(name).name == name
        assert name in dict(registry.game_choices())
        assert name in game_slugs()


def test_a_process_that_does_not_ask_lists_the_real_games_alone(unlisted):
    """As the site runs and the acceptance checks call the engine: no environment for it."""
    env = {k: v for k, v in os.environ.items() if k != UNLISTED_GAMES}
    code = "from games.engine import game_names; print(' '.join(game_names()))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    real = [name for name in game_names() if name not in unlisted]
    assert out == real and len(out) >= 3
