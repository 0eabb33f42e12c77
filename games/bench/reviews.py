"""Hand reviews as load: finished hands whose reviews a benchmark asks for while it measures.

``loadbench --reviews K`` plays K hands of the first reviewed game (Gong Zhu) as a person (the person's own moves, as the
review weighs them) for one signed-in user before it measures, then asks each daphne process
for their reviews at the start of the measuring window, so the low-priority review worker is
busy throughout while the live tables' bots think and move.
"""

from __future__ import annotations

import random
import urllib.request

from games import services
from games.models import Table
from games.registry import table_game, table_games


def play_hand_yourself(table: Table, user, level: str = "easy", seed: int = 7) -> Table:
    """The person plays their own seat to the end of the current hand, choosing as the
    ``level`` bot would, through the same call as the table's page; the computer the rest."""
    gspec = table_game(table.game)
    game, bot = gspec.engine, gspec.bot(level)
    rng = random.Random(seed)
    for _ in range(400):
        table = services.get_table(table.code)
        state = services.load_state(table)
        if game.hand_over(state) or not table.is_active:
            return table
        seat = services.seat_of(table, user)
        if seat in game.to_move(state):
            action = bot.act(game.observation(state, seat), game.legal_actions(state, seat), rng)
            services.submit_action(table.code, user, action, table.version)
        else:
            services.run_bots(table.code, limit=1)  # plays a bot's move however soon it is due
    raise AssertionError("the hand did not end")


def finished_hands(user, count: int, game: str | None = None) -> list[str]:
    """``count`` tables at which ``user`` played hand 1 themselves: their codes. The game is
    by default the first whose manifest gives reviews a budget of their own."""
    if game is None:
        game = next(g.name for g in table_games() if g.review_samples)
    codes = []
    with services.pacing(False):
        for i in range(count):
            table = services.create_table(user, game, "easy")
            codes.append(str(play_hand_yourself(table, user, seed=i).code))
    return codes


def ask_for_reviews(urls: list[str], codes: list[str], cookie: str) -> int:
    """Open each hand's review page once, round-robin over the servers (each asks its own
    review worker); the number of pages that answered."""
    answered = 0
    for i, code in enumerate(codes):
        request = urllib.request.Request(
            f"{urls[i % len(urls)]}/en/matches/{code}/hands/1/review/",
            headers={"Cookie": cookie},
        )
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - 127.0.0.1
            answered += response.status == 200
    return answered
