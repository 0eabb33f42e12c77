"""The course of the bidding (RULINGS.md, Dou Dizhu: bidding), on the bids alone: the engine
runs it (``rules``), and a bot can run it on for a deal it imagines without any state.

The seat after the dealer opens; each seat passes (0) or bids more than the high bid; a
seat that passed bids no more.
"""

from __future__ import annotations

from games.engine.doudizhu.state import SEATS


def allowed_bids(current: int) -> list[int]:
    """The bids a seat may make over the high bid ``current``: a pass (0) or more."""
    return [0, *range(current + 1, 4)]


def passed(bids: list[tuple[int, int]]) -> set[int]:
    """The seats that passed (a seat that passed bids no more)."""
    return {s for s, v in bids if v == 0}


def after_bid(bids: list[tuple[int, int]], current: int) -> tuple[str, int | None]:
    """Where the bidding stands after ``bids`` (``(seat, value)``, the last one just made),
    the high bid now ``current`` (RULINGS: bidding): ``("landlord", seat)`` (a 3, or two
    passes behind a bid), ``("thrown_in", None)`` (three passes) or ``("next", seat)``."""
    seat, value = bids[-1]
    out = passed(bids)
    if value == 3:
        return "landlord", seat
    if len(out) == SEATS:
        return "thrown_in", None
    if len(out) == SEATS - 1 and current:
        return "landlord", max((v, s) for s, v in bids)[1]
    nxt = (seat + 1) % SEATS
    while nxt in out:
        nxt = (nxt + 1) % SEATS
    return "next", nxt
