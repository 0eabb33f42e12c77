"""People for the table tests: a signed-up player (or a guest), and the computer playing their
seat for them to the end of a hand or of a match."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from cardsite.accounts.models import Profile
from games import services
from games.bench.reviews import play_hand_yourself  # noqa: F401 - the tables' person
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
