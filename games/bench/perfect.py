"""Perfect-information players: benchmark-only, the ceiling no honest bot reaches (issue #15).

Each game's bench plug-in names its player ``perfect`` in ``players()`` (kept in
``games/bench/<game>_perfect.py``); ``get_bot`` never
reaches them and no table can seat them, because they cheat: the harness hands them the whole
engine state (``sees_all``, see games/bench/harness.py) where every other bot gets its seat's
observation. Each one runs its game's honest search on the one true deal instead of sampled
deals, so that ``perfect`` against Normal, set beside Hard against Normal, tells how much of
the edge that perfect information would give Hard already has:

- Gong Zhu: as the sampler (games/bots/gongzhu_sampler.py), every legal card is played out to
  the end of the hand with Normal in all four seats, from the true state; the card of the
  best own score less the others' mean (Hard's aim; ``margin=false``: the best own score, the
  sampler's) wins. Normal is deterministic, so one playout per card is the exact value.
  Exposure is Normal's choice.
- Dou Dizhu: Hard's search (games/bots/doudizhu.py) over the true hands: Normal's best few
  candidates, and passing, each played out once with Normal's policy (deterministic). A bid
  is chosen by playing the hand out on the engine with Normal in every seat after each legal
  bid.
- Gan Deng Yan: Hard's search (games/bots/gandengyan_search.py) on the true hands and the
  true stock: each of Normal's best few candidates, and passing, played out once with the
  search's greedy policy (deterministic). ``stock=false`` sees the hands only and deals the
  stock afresh ``samples`` times, as Hard does for every unseen card.

Every budget is a count of playouts, never a clock, and the only randomness is the rng given,
so a state and a seed give the same action on any machine.
"""

from __future__ import annotations


def best(actions: list[dict], values: list[float]) -> dict:
    """The action of the highest value; a tie goes to the earlier one (the heuristic's order)."""
    i = max(range(len(actions)), key=lambda k: (values[k], -k))
    return actions[i]
