"""What the site needs to know about each game beyond the engine contract.

One small record per game: seats, default options, how long a person needs to take in a
move, and what a deal looked like (for the hand record). A new game adds one entry here and
its templates; the machinery (services, driver, consumer, history) stays the same.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from games.engine import get_game

# Pauses for a person to follow the bots (seconds): a card, and a closed trick left in view.
MOVE_PAUSE = 0.8
TRICK_PAUSE = 1.6


@dataclass(frozen=True)
class GameSpec:
    name: str
    seats: int
    default_options: dict[str, Any] = field(default_factory=dict)
    playable: bool = False  # a table page exists for it

    @property
    def engine(self):
        return get_game(self.name)

    @property
    def rules_version(self) -> str:
        module = importlib.import_module(f"games.engine.{self.name}")
        return f"{self.name}-{getattr(module, 'RULES_VERSION', 1)}"

    def dealt_cards(self, state) -> list[list[str]]:
        """Each seat's cards as dealt (called right after the deal)."""
        game = self.engine
        return [list(game.observation(state, s)["hand"]) for s in range(self.seats)]

    def pause_after(self, before: dict, after: dict) -> float:
        """How long the table should rest before the next bot move, given two public views."""
        trick = after.get("trick") or {}
        if after.get("last_trick") and not trick.get("plays"):
            return TRICK_PAUSE
        return MOVE_PAUSE


SPECS: dict[str, GameSpec] = {
    "gongzhu": GameSpec("gongzhu", seats=4, playable=True),
}


def spec(name: str) -> GameSpec:
    return SPECS[name]
