"""People for the table tests: a signed-up player (or a guest), and the computer playing their
seat for them to the end of a hand or of a match."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from cardsite.accounts.models import Profile
from games import services
from games.models import Table


def player(name: str = "ren", display: str = "", guest: bool = False):
    user = get_user_model().objects.create_user(name, password="Kartenspiel-2026")
    Profile.objects.create(user=user, is_guest=guest, display_name=display)
    return user


def finish_hand(table: Table, user) -> Table:
    """The computer plays the person's seat too, to the end of the current hand."""
    table.seats.filter(user=user).update(autoplay=True)
    Table.objects.filter(pk=table.pk).update(bot_due_at=timezone.now())  # its turn, now
    services.run_bots(table.code)
    table.seats.filter(user=user).update(autoplay=False)
    table.refresh_from_db()
    return table


def play_out(table: Table) -> Table:
    """The computer plays seat 0's person to the end of the match, hand after hand."""
    user = table.seats.get(index=0).user
    for _ in range(40):
        table = finish_hand(table, user)
        if not table.is_active:
            return table
        services.start_next_hand(table.code, user, table.version)
    raise AssertionError("the match did not end")


def play_hand_yourself(table: Table, user, level: str = "easy") -> Table:
    """The person plays their own seat to the end of the current hand, choosing as the
    ``level`` bot would, through the same call as the table's page; the computer the rest."""
    import random

    from games.bots import get_bot
    from games.registry import table_game

    game = table_game(table.game).engine
    bot = get_bot(table.game, level)
    rng = random.Random(7)
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
            Table.objects.filter(pk=table.pk).update(bot_due_at=timezone.now())
            services.run_bots(table.code, limit=1)
    raise AssertionError("the hand did not end")
