"""Computer opponents (docs/ENGINE_CONTRACT.md, "Computer opponents").

A bot sees only its seat's observation, the legal actions and an injected ``random.Random``;
it never receives the engine state. Each game's bots live in ``games/bots/<game>.py``, which
exposes ``BOTS = {"easy": ..., "normal": ..., "hard": ...}`` (classes or factories taking
keyword options such as a search budget).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any, Protocol

LEVELS = ("easy", "normal", "hard")


class Bot(Protocol):
    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict: ...


class RandomBot:
    """Picks uniformly among the legal actions: the floor every level is measured against."""

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        return rng.choice(legal_actions)


def plugin(game_name: str) -> ModuleType:
    """The game's bots module ``games.bots.<game>``: the one place the bots find a game. Above
    the bots, the game's manifest (``games.registry.TableGame.bots``) is the only caller."""
    return importlib.import_module(f"games.bots.{game_name}")


def get_bot(game_name: str, level: str, **options: Any) -> Bot:
    if level == "random":
        return RandomBot()
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    return plugin(game_name).BOTS[level](**options)
