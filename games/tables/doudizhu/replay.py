"""Dou Dizhu: a finished hand, bid by bid and round by round, with the kitty."""

from __future__ import annotations

from games.engine.doudizhu import DouDizhuView
from games.tables.base import TableSummary
from games.tables.common import Card
from games.tables.doudizhu.presenter import play_of


def _rounds(plays: list[dict], names: dict) -> list[dict]:
    """The plays grouped into rounds: a round closes after two passes in a row."""
    rounds: list[dict] = []
    current: list = []
    passes = 0
    for entry in plays:
        current.append(play_of(entry, names))
        if entry["cards"] is None:
            passes += 1
            if passes == 2:
                rounds.append(current)
                current, passes = [], 0
        else:
            passes = 0
    if current:
        rounds.append(current)
    return [{"number": i + 1, "plays": r} for i, r in enumerate(rounds)]


def context(table: TableSummary, hand, steps, names) -> dict:
    """From the rebuilt hand (``steps``), or from the logged moves when the rules changed."""
    deal = hand.deal or {}
    bids: list[dict] = []
    if steps is not None:
        redeals = 0
        for seat, action, view in steps:
            if action.get("type") == "bid":
                bids.append({"name": names[seat]["name"], "value": action.get("value")})
                if view["redeals"] > redeals:
                    redeals = view["redeals"]
                    bids.append({"thrown_in": True})
        final: DouDizhuView | None = steps[-1][2] if steps else None  # the last public view
        if final is None:
            plays, landlord, kitty, bid = [], None, [], 0
        else:
            plays, landlord, kitty, bid = (
                final["plays"],
                final["landlord"],
                final["kitty"] or [],
                final["bid"],
            )
    else:
        plays = []
        redeals = 0
        for entry in hand.actions.order_by("seq"):
            action = entry.action
            if action.get("type") == "bid":
                bids.append({"name": names[entry.seat]["name"], "value": action.get("value")})
            elif action.get("type") in ("play", "pass"):
                cards = action.get("cards") if action["type"] == "play" else None
                combo = action.get("combo") or {"kind": "", "low": None, "high": None}
                plays.append({"seat": entry.seat, "cards": cards, "combo": combo})
        landlord = plays[0]["seat"] if plays else None
        kitty = deal.get("kitty") or []
        bid = max((b.get("value") or 0 for b in bids), default=0)
    return {
        "bids": bids,
        "redeals": redeals,
        "first_kitty": [Card(c) for c in deal.get("kitty") or []],
        "kitty": [Card(c) for c in kitty],
        "landlord": names[landlord]["name"] if landlord is not None else "",
        "bid": bid,
        "rounds": _rounds(plays, names),
    }
