import pytest
from django.contrib.auth import get_user_model

from games import services


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("ren", password="Kartenspiel-2026")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("zoe", password="Kartenspiel-2026")


@pytest.fixture
def table(owner):
    return services.create_table(owner, "gongzhu", "easy")


def play_until_human(table):
    """Let the bots move until the human (seat 0) must act or the hand is over."""
    services.run_bots(table.code)
    table.refresh_from_db()
    return table


@pytest.fixture(autouse=True)
async def _stop_the_driver():
    """Each test's event loop ends with it: stop the bot driver's sweep and moves first."""
    yield
    from games import driver

    await driver.stop()
