"""Backups: a pg_dump of the database, restored with pg_restore into a fresh database,
replays a recorded hand exactly as the original does (README, "Backups").

PostgreSQL only (CI's PostgreSQL pass): with SQLite there is nothing to pg_dump.
"""

import glob
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from games import history, services
from games.engine import get_game
from games.models import ActionLog, Hand, Table
from tests.games.conftest import play_until_human
from tests.stacks import postgresql_only

pytestmark = [
    postgresql_only("PostgreSQL only (set DATABASE_URL=postgres://…)"),
    pytest.mark.django_db(transaction=True),  # committed: pg_dump is another session
]
GAME = get_game("gongzhu")
ROOT = Path(__file__).resolve().parents[2]


def pg_tool(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def libpq_env(db: dict) -> dict:
    env = dict(os.environ)
    env.update(
        PGHOST=db["HOST"] or "127.0.0.1",
        PGPORT=str(db["PORT"] or 5432),
        PGUSER=db["USER"],
        PGPASSWORD=db["PASSWORD"],
    )
    return env


def run(*cmd, env, cwd=None):
    result = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{cmd[0]} failed: {result.stderr}"
    return result


def play_a_hand(owner) -> Table:
    table = services.create_table(owner, "gongzhu", "easy")
    rng = random.Random(18)
    while True:
        play_until_human(table)
        state = GAME.from_json(table.state)
        if GAME.hand_over(state):
            return table
        action = rng.choice(GAME.legal_actions(state, 0))
        services.submit_action(table.code, owner, action, table.version)
        table.refresh_from_db()


@pytest.fixture
def restored_database():
    """A fresh, empty database for the restore (dropped afterwards)."""
    db = connection.settings_dict
    env = libpq_env(db)
    name = f"{db['NAME']}_restored_{os.getpid()}"
    run(pg_tool("dropdb"), "--if-exists", name, env=env)
    run(pg_tool("createdb"), name, env=env)
    try:
        yield name, env
    finally:
        run(pg_tool("dropdb"), "--if-exists", name, env=env)


# Run by the site's own code in a process of its own, on the restored database (as an
# operator would point DATABASE_URL at it): the hand's replay, rebuilt from seed and log.
REPLAY = """
import json, django
django.setup()
from django.contrib.auth import get_user_model
from games import history
from games.models import Table
table = Table.objects.get(code=%(code)r)
context = history.replay_context(table, 1, get_user_model().objects.get(pk=%(user)d))
print(json.dumps({
    "steps": history.replay_steps(table, 1),
    "verified": context["verified"],
    "status": table.status,
    "version": table.version,
    "deal": table.hands.get(number=1).deal,
    "scores": table.hands.get(number=1).scores,
}))
"""


def test_a_dump_restored_into_a_fresh_database_replays_the_hand(alice, restored_database, tmp_path):
    table = play_a_hand(alice)
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended_at is not None
    original = history.replay_steps(table, 1)
    assert original is not None and len(original) == ActionLog.objects.filter(hand=hand).count()
    assert original[-1][2] == GAME.public_view(GAME.from_json(table.state))

    # The README's commands: pg_dump in the custom format, pg_restore into an empty database.
    name, env = restored_database
    dump = tmp_path / "cardsite.dump"
    source = connection.settings_dict["NAME"]
    run(pg_tool("pg_dump"), "-Fc", "--no-owner", "-f", str(dump), source, env=env)
    run(pg_tool("pg_restore"), "--no-owner", "--exit-on-error", "-d", name, str(dump), env=env)

    db = connection.settings_dict
    user, password = quote(db["USER"], safe=""), quote(db["PASSWORD"] or "", safe="")
    url = f"postgres://{user}:{password}@{env['PGHOST']}:{env['PGPORT']}/{name}"
    replay = run(
        sys.executable,
        "-c",
        REPLAY % {"code": str(table.code), "user": alice.pk},
        env={**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "cardsite.settings"},
        cwd=ROOT,
    )
    restored = json.loads(replay.stdout)
    assert restored["steps"] == json.loads(json.dumps(original))  # the same hand, move by move
    assert restored["verified"] is True
    assert (restored["status"], restored["version"]) == (table.status, table.version)
    assert (restored["deal"], restored["scores"]) == (hand.deal, hand.scores)
