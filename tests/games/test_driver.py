"""The bot driver with Hard's real worker pool: spawned workers that know no Django."""

import logging
import os
import signal
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import driver, services
from games.engine import get_game
from games.models import ActionLog, Table
from tests.servers import ROOT

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def hard_table_with_a_bot_due(game_name):
    """A Hard table where a bot is to move: the player moves (paced) until one is."""
    from django.conf import settings

    game = get_game(game_name)
    user = get_user_model().objects.create_user("ren", password="Kartenspiel-2026")
    table = services.create_table(user, game_name, "hard")
    settings.GAME_PACING = True  # the bots' replies are left due, not played inline
    try:
        for _ in range(30):
            table = Table.objects.get(pk=table.pk)
            if table.bot_due_at is not None:
                Table.objects.filter(pk=table.pk).update(bot_due_at=timezone.now())  # due now
                return table
            state = game.from_json(table.state)
            services.submit_action(table.code, user, game.legal_actions(state, 0)[0], table.version)
    finally:
        settings.GAME_PACING = False
    raise AssertionError("no bot move came due")


@sync_to_async
def bot_moves_after(table):
    return list(
        ActionLog.objects.filter(table=table, seq__gt=table.version).values_list("seq", "seat")
    )


@pytest.mark.parametrize("game_name", ["gongzhu", "gandengyan"])
async def test_it_plays_hard_moves_in_spawned_workers(game_name):
    table = await hard_table_with_a_bot_due(game_name)
    # The driver's own path: claim, think in the process pool, apply.
    await driver._driver._advance(str(table.code))
    moves = await bot_moves_after(table)
    assert moves and all(seat != 0 for _, seat in moves)
    assert [seq for seq, _ in moves] == list(
        range(table.version + 1, table.version + 1 + len(moves))
    )


class KillingPool(ProcessPoolExecutor):
    """A real pool whose workers are killed (SIGKILL) the moment a move is handed to them."""

    def submit(self, fn, /, *args, **kwargs):
        future = super().submit(fn, *args, **kwargs)
        for process in list(self._processes.values()):
            os.kill(process.pid, signal.SIGKILL)
        return future


async def test_a_killed_worker_is_replaced_and_the_move_made_once(monkeypatch, caplog):
    import multiprocessing

    table = await hard_table_with_a_bot_due("gongzhu")
    the_driver = driver.Driver()
    monkeypatch.setattr(driver, "_driver", the_driver)
    the_driver.pool = KillingPool(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    killing = the_driver.pool
    with caplog.at_level(logging.WARNING, logger="games.driver"):
        await the_driver._advance(str(table.code))
    assert the_driver.pool is not killing  # replaced by a fresh pool
    assert "bot worker died while thinking" in caplog.text
    assert f"table {table.code}" in caplog.text
    moves = await bot_moves_after(table)
    # The move the killed worker was given was made, once; the bots then played on.
    assert moves and moves[0][0] == table.version + 1
    assert len({seq for seq, _ in moves}) == len(moves)
    await the_driver.stop()


def test_a_bot_decision_imports_no_django():
    """What a worker unpickles needs the engine and the bots only (no settings, no apps)."""
    code = """
import pickle, sys, random
from games.bots.task import BotTask, choose
from games.engine import get_game
game = get_game("gongzhu")
state = game.new_match(seed=5, seats=4)
seat = game.to_move(state)[0]
task = BotTask("x", "gongzhu", seat, "hard", 1, game.observation(state, seat),
               game.legal_actions(state, seat), "5:1")
task, fn = pickle.loads(pickle.dumps((task, choose)))
assert fn(task) in task.legal
assert not [m for m in sys.modules if m.startswith("django")], "django was imported"
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO")}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize(
    "pool",
    ["games.driver.Driver()._pool()", "games.reviews.ReviewQueue()._pool()"],
    ids=["hard-pool", "review-worker"],
)
def test_a_worker_goes_when_its_server_process_is_killed(pool):
    """A server process killed outright (no drain) leaves none of its workers behind: neither
    the pool that thinks for Hard nor the review worker."""
    import time

    script = (
        "import os, django\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'cardsite.settings')\n"
        "django.setup()\n"
        "import games.driver, games.reviews\n"
        f"pool = {pool}\n"
        "print(pool.submit(os.getpid).result(), flush=True)\n"
        "os._exit(9)\n"
    )
    # Not subprocess.run: a worker left behind would hold its captured output open.
    server = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    worker = int(server.stdout.readline().split()[0])
    assert server.wait(timeout=60) == 9
    server.stdout.close()
    deadline = time.monotonic() + 15
    while os.path.exists(f"/proc/{worker}") and time.monotonic() < deadline:
        time.sleep(0.1)  # the worker notices its parent is gone within a second
    alive = os.path.exists(f"/proc/{worker}")
    if alive:
        os.kill(worker, signal.SIGKILL)
    assert not alive, "a worker outlived its server process"
