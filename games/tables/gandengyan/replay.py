"""Gan Deng Yan: a finished round, trick by trick, with every hand and every draw."""

from __future__ import annotations

from games.engine.gandengyan.combos import card_order, readings
from games.tables.base import TableSummary
from games.tables.common import Card
from games.tables.gandengyan.presenter import play_of


def context(table: TableSummary, hand, steps, names) -> dict:
    """Trick by trick with every hand and every draw, from the rebuilt round (``steps``) or,
    when the rules code has changed since, from the logged moves.

    The deal record holds the stock, so each draw's card is known: draws take the stock from
    the top, in order.
    """
    deal = hand.deal or {}
    stock = list(deal.get("stock") or [])
    n = len(deal.get("hands") or [])
    if steps is not None:
        log = steps[-1][2]["log"] if steps else []  # the last public view's
    else:
        log = _log_from_actions(hand, n, (table.options or {}).get("draw", "all"))
    # A new trick starts at the first play or pass after a trick closed.
    tricks = _group_tricks(log, names, stock, deal)
    return {"tricks": tricks, "draw_rule": (table.options or {}).get("draw", "all")}


def _group_tricks(log, names, stock, deal) -> list[dict]:
    hands = [list(h) for h in deal.get("hands") or []]
    tricks: list[dict] = []
    current = None
    drawn = 0
    for entry in log:
        kind = entry["type"]
        if kind in ("play", "pass"):
            if current is None or current["closed"]:
                current = {"plays": [], "winner": "", "draws": [], "closed": False, "hands": []}
                tricks.append(current)
            current["plays"].append(play_of(entry, names))
            if kind == "play":
                for c in entry["cards"]:
                    if c in hands[entry["seat"]]:
                        hands[entry["seat"]].remove(c)
        elif kind in ("trick_won", "round_won") and current is not None:
            current["closed"] = True
            current["winner"] = names[entry["seat"]]["name"]
        elif kind == "draw" and current is not None:
            count = entry.get("count", len(entry.get("cards", [])))
            cards = stock[drawn : drawn + count]
            drawn += count
            hands[entry["seat"]] = sorted(hands[entry["seat"]] + cards, key=card_order)
            current["draws"].append(
                {"name": names[entry["seat"]]["name"], "cards": [Card(c) for c in cards]}
            )
        if current is not None:
            current["hands"] = [
                {"name": names[s]["name"], "cards": [Card(c) for c in h]}
                for s, h in enumerate(hands)
            ]
    return [{**t, "number": i + 1} for i, t in enumerate(tricks)]


def _log_from_actions(hand, seats: int, draw: str) -> list[dict]:
    """The round's log rebuilt from the logged moves alone (no engine): a trick closes after
    n − 1 passes in a row, then the stock pays out by the draw rule."""
    log: list[dict] = []
    passes = 0
    last = None
    stock_left = 10**6
    if hand.deal and hand.deal.get("stock") is not None:
        stock_left = len(hand.deal["stock"])
    for entry in hand.actions.order_by("seq"):
        action = entry.action
        if action.get("type") == "pass":
            log.append({"type": "pass", "seat": entry.seat})
            passes += 1
            if passes == seats - 1 and last is not None:
                log.append({"type": "trick_won", "seat": last})
                drawers = [last] if draw == "winner" else [(last + k) % seats for k in range(seats)]
                for d in drawers:
                    if stock_left <= 0:
                        break
                    stock_left -= 1
                    log.append({"type": "draw", "seat": d, "count": 1})
                passes = 0
        elif action.get("type") == "play":
            combo = action.get("combo")
            if not combo:
                found = readings(action["cards"])
                combo = (
                    found[0].to_dict()
                    if found
                    else {"kind": "single", "low": None, "high": None, "count": 1}
                )
            log.append(
                {"type": "play", "seat": entry.seat, "cards": action["cards"], "combo": combo}
            )
            last = entry.seat
            passes = 0
    return log
