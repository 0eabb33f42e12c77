import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Table
from games.registry import table_game
from games.services import seating


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("ren", password="Kartenspiel-2026")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("zoe", password="Kartenspiel-2026")


@pytest.fixture
def fixed_deal(monkeypatch):
    """``fixed_deal(seed)``: every table this test creates afterwards is dealt from ``seed``
    (a test that needs a hand to go a certain way: a random deal now and then ends the hand,
    or the match, before it gets there)."""

    def fix(seed: int) -> None:
        monkeypatch.setattr(seating, "_seed", lambda: seed)

    return fix


@pytest.fixture
def table(owner):
    return services.create_table(owner, "gongzhu", "easy")


def play_until_human(table):
    """Let the bots move until the human (seat 0) must act or the hand is over."""
    services.run_bots(table.code)
    table.refresh_from_db()
    return table


def until_moves_on_their_way(table, user, rng, clock, least=0, play=None, check=None) -> Table:
    """Play a paced table until a move (``user``'s, or a bot's due at its time) has brought
    more than ``least`` bots' moves along that are still on their way: ``user``'s random legal
    moves (through ``play(shown, action)``, else ``services.submit_action``), the driver's at
    their times and each move on its way as its time comes (``clock``), and ``check(shown)``
    on the table as shown before each of them. The table then, as it is (as shown, it is at
    that move)."""
    engine = table_game(table.game).engine
    for _ in range(600):
        raw, shown = Table.objects.get(pk=table.pk), services.get_table(table.code)
        on_their_way = getattr(shown, "next_shown_at", None)
        steps = raw.reveal["steps"] if on_their_way else []
        if steps and shown.version == steps[0][1] and len(steps) > least:
            return raw
        if check:
            check(shown)
        if on_their_way:
            clock.to(on_their_way)
        elif raw.bot_due_at is not None:
            clock.to(raw.bot_due_at)
            services.play_due_bot_move(table.code)
        else:
            state = engine.from_json(shown.state)
            if engine.hand_over(state):
                services.start_next_hand(table.code, user, shown.version)
                continue
            seat = services.seat_of(raw, user)
            action = rng.choice(engine.legal_actions(state, seat))
            if play:
                play(shown, action)
            else:
                services.submit_action(table.code, user, action, shown.version)
    raise AssertionError("no bot's move brought others along")


@pytest.fixture(autouse=True)
async def _stop_the_driver():
    """Each test's event loop ends with it: stop the bot driver's sweep and moves first."""
    yield
    from games import driver

    await driver.stop()
