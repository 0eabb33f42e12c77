"""The record of a match: the list of hands, the totals chart, and trick-by-trick replays.

A replay is rebuilt from the seed and the action log. The stored deal and engine version
check it: if the rules code has changed since, or the rebuilt deal differs, the page shows
the record as logged instead of a wrong replay. Only finished hands are replayed; a hand in
progress reveals nothing hidden.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import IllegalAction
from games.models import Table
from games.registry import table_game
from games.summary import summarize
from games.tables.common import Card
from games.templatetags.numbers import signed

CHART_W, CHART_H, PAD = 640, 260, 36
SEAT_COLOURS = ("#0f5132", "#c81e3a", "#1d4ed8", "#b45309")


def match_row(table: Table, user) -> dict:
    summary = summarize(table)
    names = summary.names()
    seat = next((s.index for s in table.seat_list if s.user_id == user.pk), 0)
    hands = [h for h in table.hands.all() if h.ended_at]
    totals = hands[-1].totals if hands else [0] * len(names)
    if table.status == Table.Status.WAITING:
        result = _("waiting for players")
    elif table.status == Table.Status.ACTIVE:
        result = _("running")
    elif table.status == Table.Status.RESIGNED:
        result = _("resigned")
    else:
        top = max(totals)
        result = _("won") if totals[seat] == top and totals.count(top) == 1 else _("lost")
    return {
        "table": summary,
        "opponents": [names[i]["name"] for i in sorted(names) if i != seat],
        "hands": len(hands),
        "total": totals[seat],
        "result": result,
        "running": table.status in (Table.Status.ACTIVE, Table.Status.WAITING),
    }


def chart(table: Table, names: dict) -> dict:
    """An SVG line chart of each seat's cumulative total, hand by hand, with the line that
    ends the match where the game has one (Gong Zhu's −1000)."""
    hands = [h for h in table.hands.all() if h.ended_at]
    seats = len(names)
    series = [[0] * seats] + [h.totals for h in hands]
    out_line = table_game(table.game).info.out_line
    floor = out_line if out_line is not None else -10
    low = min(floor, min(min(t) for t in series))
    high = max(100 if out_line is not None else 10, max(max(t) for t in series))
    span_x = max(1, len(series) - 1)

    def x(i):
        return PAD + (CHART_W - 2 * PAD) * i / span_x

    def y(v):
        return PAD / 2 + (CHART_H - PAD) * (high - v) / (high - low)

    lines = []
    for s in range(seats):
        points = " ".join(f"{x(i):.1f},{y(t[s]):.1f}" for i, t in enumerate(series))
        lines.append(
            {
                "name": names[s]["name"],
                "colour": SEAT_COLOURS[s % 4],
                "points": points,
                "last": series[-1][s],
            }
        )
    ticks = [{"x": f"{x(i):.1f}", "label": i} for i in range(len(series))]
    grid = []
    span = high - low
    step = next((s for s in (5, 10, 25, 50, 100, 250) if span <= s * 8), 500)
    v = (low // step) * step
    while v <= high:
        if v >= low:
            grid.append({"y": f"{y(v):.1f}", "label": signed(v)})
        v += step
    return {
        "width": CHART_W,
        "height": CHART_H,
        "lines": lines,
        "ticks": ticks,
        "grid": grid,
        "out_y": f"{y(out_line):.1f}" if out_line is not None else None,
        "out_label": signed(out_line) if out_line is not None else "",
        "zero_y": f"{y(0):.1f}",
        "left": PAD,
        "right": CHART_W - PAD // 2,  # an integer: a float would be printed "622,0" in German
    }


def match_context(table: Table, user) -> dict:
    summary = summarize(table)
    names = summary.names()
    hands = list(table.hands.all())
    return {
        "table": summary,
        "names": [names[i]["name"] for i in sorted(names)],
        "hands": hands,
        "chart": chart(table, names),
        "running": table.status in (Table.Status.ACTIVE, Table.Status.WAITING),
        "seed": table.seed if table.status != Table.Status.ACTIVE else None,
        "rounds": table_game(table.game).plays_in_rounds,
    }


def replay_steps(
    table: Table,
    number: int,
    deals: list | None = None,
    start: dict | None = None,
    decisions: tuple[int, list] | None = None,
):
    """The hand rebuilt from seed and log: a list of (seat, action, public view) per move,
    or None when the rebuilt deal or the engine version disagree with the record.

    ``deals``: if given, filled with the hand's deals as dealt – the record's, then each new
    deal after one was thrown in (an engine with ``deals_in_hand``: Dou Dizhu's all-pass).
    ``start``: if given, gets the hand's ``dealer`` as the public view said at its start.
    ``decisions``: ``(seat, out)``: ``out`` gets the person's own decisions in that seat, as
    (log seq, the seat's observation then, its legal actions, the action taken), where there
    was more than one thing to do (a computer's moves for the person are left out)."""
    gspec = table_game(table.game)
    game = gspec.engine
    hands = {h.number: h for h in table.hands.all()}
    hand = hands.get(number)
    if hand is None or hand.engine_version != gspec.rules_version:
        return None
    seats = table.seats.count()
    options = table.options or None
    if table.start:  # a deal played again starts from that deal, not from its seed
        state = game.new_match_from_deal(
            table.start["deal"], table.start["dealer"], options, seed=int(table.seed)
        )
    else:
        state = game.new_match(seed=int(table.seed), seats=seats, options=options)
    log = list(table.log.select_related("hand").order_by("seq"))
    by_hand: dict[int, list] = {}
    for entry in log:
        by_hand.setdefault(entry.hand.number, []).append(entry)
    for n in range(1, number + 1):
        if n > 1:
            state = game.next_hand(state)
        if game.dealt(state) != hands[n].deal:
            return None
        if start is not None and n == number:
            start["dealer"] = game.public_view(state)["dealer"]
        steps = []
        count = getattr(game, "deals_in_hand", None)
        dealt = count(state) if count else 1
        if deals is not None and n == number:
            deals[:] = [hands[n].deal]
        for entry in by_hand.get(n, []):
            # Read as the engine reads it: moves logged before every move was (a person's
            # play without its combo) come out in the one shape too.
            try:
                action = game.read(state, entry.seat, entry.action)
            except IllegalAction:
                return None
            own = decisions is not None and n == number and entry.seat == decisions[0]
            if own and not entry.by_computer:
                legal = game.legal_actions(state, entry.seat)
                if len(legal) > 1:
                    seen = game.observation(state, entry.seat)
                    decisions[1].append((entry.seq, seen, legal, action))
            state = game.apply(state, entry.seat, action)
            steps.append((entry.seat, action, game.public_view(state)))
            if count and count(state) > dealt:
                dealt = count(state)
                if deals is not None and n == number:
                    deals.append(game.dealt(state))
        if n == number:
            return steps
    return None


def replay_context(table: Table, number: int, user) -> dict | None:
    hand = table.hands.filter(number=number).first()
    if hand is None:
        return None
    summary = summarize(table)
    names = summary.names()
    context = {
        "table": summary,
        "hand": hand,
        "names": [names[i]["name"] for i in sorted(names)],
        "finished": hand.ended_at is not None,
        "deal": None,
        "verified": False,
    }
    if hand.ended_at is None:
        return context  # a hand in progress: nothing hidden is shown
    deals: list = []
    steps = replay_steps(table, number, deals)
    context["verified"] = steps is not None

    def shown(deal):
        return [
            {"name": names[s]["name"], "cards": [Card(c) for c in cards]}
            for s, cards in enumerate(deal["hands"])
        ]

    # The deal that was played; deals thrown in before it (everyone passed) are listed apart.
    played = deals[-1] if deals else hand.deal
    context["deal"] = shown(played)
    context["thrown_in"] = [shown(d) for d in deals[:-1]]
    hand.deal = played  # what the game's replay reads (the record itself is not changed)
    # Without a trustworthy replay (the rules code changed since), the record as logged.
    context.update(table_game(table.game).present_replay(summary, hand, steps, names))
    return context


def deal_of_hand(table: Table, number: int) -> dict | None:
    """A finished hand's deal as it was played (after any deals thrown in) and its dealer,
    to deal it again: ``{"deal": …, "dealer": …}``, or None if it cannot be rebuilt."""
    hand = table.hands.filter(number=number, ended_at__isnull=False).first()
    if hand is None:
        return None
    deals: list = []
    start: dict = {}
    if replay_steps(table, number, deals, start) is None:
        return None
    return {"hand": hand, "deal": deals[-1] if deals else hand.deal, "dealer": start["dealer"]}
