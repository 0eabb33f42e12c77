"""One bot decision as a value: what a seat may see, and the bot that decides it.

This is what crosses into a worker process for Hard's search, so it needs the engine and the
bots only: a spawned worker never sets Django up (importing the models there fails with
``AppRegistryNotReady``), and a seat's observation is all a bot is allowed to know anyway.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.bots import get_bot


@dataclass(frozen=True)
class BotTask:
    """Everything a bot may see to choose one move, and the table version it is valid for."""

    code: str
    game: str
    seat: int
    level: str
    version: int
    observation: dict
    legal: list[dict]
    rng_seed: str


def choose(task: BotTask) -> dict:
    """The bot's move for a task: pure, deterministic in the task's seed."""
    bot = get_bot(task.game, task.level)
    return bot.act(task.observation, task.legal, random.Random(task.rng_seed))
