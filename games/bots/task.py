"""One bot decision as a value: what a seat may see, and the bot that decides it.

This is what crosses into a worker process for Hard's search, so it needs the engine and the
bots only: a spawned worker never sets Django up (importing the models there fails with
``AppRegistryNotReady``), and a seat's observation is all a bot is allowed to know anyway.
"""

from __future__ import annotations

import os
import random
import threading
import time
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
    # The move the seat must make, if its table follows a script (a guided first hand):
    # made as it is, without asking the bot.
    scripted: dict | None = None


def choose(task: BotTask) -> dict:
    """The bot's move for a task: pure, deterministic in the task's seed."""
    if task.scripted is not None:
        return task.scripted
    bot = get_bot(task.game, task.level)
    return bot.act(task.observation, task.legal, random.Random(task.rng_seed))


def leave_with_parent() -> None:
    """A worker process's start: it goes when its server process goes, however that ends.

    A pool's workers wait on a pipe from their parent; a parent killed outright (SIGKILL, out
    of memory) never closes it, so without this they would wait, or go on thinking, for ever.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="worker-parent-watch", daemon=True).start()
