"""Two moves at once for the same turn (two tabs, two processes): exactly one is applied.

Each pair is sent from two threads released together, each with its own database
connection, through the live handler; the row lock and the version decide.
"""

from __future__ import annotations

import random
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games import services, views_live
from games.models import ActionLog
from games.registry import table_game, table_games

pytestmark = pytest.mark.django_db(transaction=True)
PLAYABLE = [g.name for g in table_games() if g.playable]


def at_once(*calls):
    """Run each call in its own thread, all released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            results[i] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.mark.parametrize("game", PLAYABLE)
def test_of_two_moves_sent_at_once_exactly_one_is_applied(game, fixed_deal):
    # Fixed deals: with random ones, a Gong Zhu hand now and then ends the whole match (every
    # card exposed doubles), and the second move of a pair is then refused as too late for
    # the match rather than as stale.
    fixed_deal(20261201)
    owner = get_user_model().objects.create_user("ren", password="Kartenspiel-2026")
    gspec = table_game(game)
    rng = random.Random(game)
    pairs = 0
    table = services.create_table(owner, game, "easy")
    for _ in range(40):
        services.run_bots(table.code)
        table.refresh_from_db()
        state = gspec.engine.from_json(table.state)
        if gspec.engine.hand_over(state):
            table = services.create_table(owner, game, "easy")
            continue
        legal = gspec.engine.legal_actions(state, 0)
        first = rng.choice(legal)
        second = first if pairs % 2 == 0 else rng.choice(legal)  # the same move, or another
        frames = [
            {**gspec.frame_for(move), "version": str(table.version)} for move in (first, second)
        ]
        before = ActionLog.objects.filter(table=table, seat=0).count()
        replies = at_once(
            *(
                lambda f=f, code=str(table.code): views_live.handle(code, owner, "en", f).html
                for f in frames
            )
        )
        applied = ActionLog.objects.filter(table=table, seat=0).count() - before
        assert applied == 1, f"{applied} of two moves applied"
        assert sum("moved on" in r for r in replies) == 1, "the other must be told it is stale"
        pairs += 1
    assert pairs >= 20
