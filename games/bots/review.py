"""One decision of a finished hand weighed by Hard: what a player chose beside what Hard would.

Like ``games.bots.task``, this is what crosses into the review worker, so it holds the engine's
and the bots' values only: the seat's observation at the time (never the hidden cards), the
legal actions, the action taken and a seed. Hard weighs its own shortlist and the action
taken on the same sampled deals, with the budget the game's manifest gives reviews
(``Decision.samples``, larger than at the table).
"""

from __future__ import annotations

import contextlib
import os
import random
from dataclasses import dataclass

from games.bots import get_bot
from games.bots.task import leave_with_parent
from games.engine.base import Observation


@dataclass(frozen=True)
class Decision:
    """One decision of one seat: what it saw, what it could do and what it did."""

    game: str
    observation: Observation  # the game's own type (its engine's ``observation_type``)
    legal: list[dict]
    taken: dict
    seed: str
    # Deals sampled for it (the manifest's review budget); None: Hard's budget at the table.
    samples: int | None = None


def weigh(decision: Decision) -> dict | None:
    """Hard's view of a decision: ``{"taken", "best", "values", "loss"}`` with ``values`` a
    list of ``[action, expected points]`` (best first) and ``loss`` what the action taken
    gave away against Hard's best, in points; None where Hard does not weigh this kind of
    decision (a bid, an exposure, a single legal action)."""
    bot = get_bot(decision.game, "hard")
    shortlist = bot.shortlist(decision.observation, decision.legal)
    if shortlist is None:
        return None
    actions = list(shortlist)
    if decision.taken not in actions:
        actions.append(decision.taken)
    if len(actions) < 2:
        return None
    rng = random.Random(decision.seed)
    values = bot.evaluate(decision.observation, actions, rng, decision.samples)
    if values is None:
        return None
    ranked = sorted(zip(actions, values, strict=True), key=lambda p: -p[1])
    best, best_value = ranked[0]
    taken_value = values[actions.index(decision.taken)]
    if taken_value >= best_value:
        best = decision.taken  # the choice was as good as Hard's own
    return {
        "taken": decision.taken,
        "best": best,
        "values": [[a, round(v, 2)] for a, v in ranked],
        "loss": round(max(0.0, best_value - taken_value), 2),
    }


def lowest_priority() -> None:
    """A review worker's start: it yields the CPU to everything else (live tables, the pool
    that thinks for Hard at them): ``SCHED_IDLE`` where the system has it, else nice 19. And
    it goes when its server process goes, however that ends (a worker left behind would go
    on weighing decisions no one will read)."""
    leave_with_parent()
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(19)
