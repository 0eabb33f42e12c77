"""``manage.py loadbench`` end to end: a real daphne on a fresh database, one table, closed loop."""

import random
import re
import subprocess
import sys

import pytest

from games.bench import load
from tests.servers import ROOT, fresh_database

NUMBER = r"(\d+(?:\.\d+)?)"


def loadbench(env: dict, tmp_path, *args: str, timeout: float) -> str:
    """Run ``manage.py loadbench`` on the test's database (logs in tmp_path); its output."""
    done = subprocess.run(
        [sys.executable, "manage.py", "loadbench", *args, "--log-dir", str(tmp_path / "logs")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def assert_nothing_left(env: dict) -> None:
    """The benchmark's users (and so their tables) are gone afterwards, and every table."""
    left = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model as g; from games.models import Table; "
            "print('left', g().objects.filter(username__startswith='loadbench-').count(), "
            "Table.objects.count())",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert re.search(r"^left 0 0$", left.stdout, re.M), left.stdout


@pytest.mark.slow
def test_it_prints_positive_figures_for_the_site_and_the_bare_consumer(tmp_path):
    with fresh_database(tmp_path) as env:
        out = loadbench(
            env, tmp_path, "--tables", "1", "--seconds", "2", "--regime", "closed", timeout=90
        )
        # The summary row: regime, tables, latency median/p95/p99, samples; per human action:
        # actions/s, bare actions/s, ratio, CPU ms (site, bare), times the bare, KB (payload,
        # wire); per applied move: moves/s, CPU ms; no turn-back times in the closed loop (the
        # answer holds the bots' replies).
        row = re.search(r"^closed\s+1\s+" + r"\s+".join([NUMBER] * 14) + r"\s+-\s+-\s*$", out, re.M)
        assert row, out
        figures = [float(v) for v in row.groups()]
        assert all(v > 0 for v in figures), out
        lat_med, lat_p95, lat_p99 = figures[:3]
        assert lat_med <= lat_p95 <= lat_p99
        assert re.search(r"^closed tables=1\s+site .* stalls 0 ", out, re.M), out
        assert re.search(r"ratio site/bare actions/s: per human action " + NUMBER, out), out
        payload, wire = figures[10:12]
        assert wire < payload / 3, out  # the frames are compressed (permessage-deflate)
        # On PostgreSQL, the servers' sessions stay within their connection pools' bound.
        sessions = re.search(
            r"^PostgreSQL: the servers held at most (\d+) database sessions at once "
            r"\(their connection pools' bound: (\d+)\)$",
            out,
            re.M,
        )
        if env.get("DATABASE_URL"):
            assert sessions, out
            most, bound = map(int, sessions.groups())
            assert 1 <= most <= bound, out
        else:
            assert sessions is None, out

        assert_nothing_left(env)


@pytest.mark.parametrize(
    "config",
    [
        load.Config(tables=[201]),
        load.Config(tables=[0]),
        load.Config(seconds=121),
        load.Config(urls=["http://example.com:8000"]),
        load.Config(game="bridge"),
        load.Config(reviews=101),
        load.Config(flood=101),
        load.Config(flood=-1),
    ],
)
def test_it_refuses_sizes_and_servers_beyond_its_bounds(config):
    with pytest.raises(ValueError):
        config.validate()


def test_the_gan_deng_yan_client_passes_when_following_and_leads_a_single():
    import random

    from games.bench.gandengyan import load_move as gandengyan_move

    rng = random.Random(1)
    hand = (
        '<button type="button" class="hand__card" data-playable data-card="BJ"></button>'
        '<button type="button" class="hand__card" data-playable data-card="7S"></button>'
    )
    leading = '<div id="board" class="gdy-board" data-version="4" data-my-turn>' + hand
    following = '<div id="board" class="gdy-board" data-my-turn data-following>' + hand
    waiting = '<div id="board" class="gdy-board seats-3 phase-play" data-version="4">' + hand
    assert gandengyan_move(leading, rng) == {"action": "play", "cards": ["7S"]}
    assert gandengyan_move(following, rng) == {"action": "pass"}
    assert gandengyan_move(waiting, rng) is None


@pytest.mark.slow
@pytest.mark.once  # the benchmark's own workings; on PostgreSQL + Redis its plain run says it works there
def test_the_together_regime_plays_two_people_per_table(tmp_path):
    with fresh_database(tmp_path) as env:
        out = loadbench(
            env,
            tmp_path,
            *("--game", "doudizhu", "--tables", "2", "--seconds", "4", "--think", "0.2"),
            *("--regime", "together"),
            timeout=120,
        )
        line = re.search(r"^together tables=2\s+site .* \(n=(\d+)\).* stalls 0 ", out, re.M)
        assert line and int(line.group(1)) > 0, out
        assert re.search(r"^together\s+2\s+" + NUMBER, out, re.M), out


# A process that starts a child that burns CPU and then waits for a line on its stdin: the
# child's time is its own until it exits and its parent reaps it.
_BURNER = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-c", '''
import sys, time
start = time.process_time()
while time.process_time() - start < 0.3:
    pass
print(time.process_time() - start, flush=True)
sys.stdin.readline()
'''])
sys.exit(child.wait())
"""


def test_a_servers_cpu_counts_its_live_children():
    """A daphne's Hard bots think in pool workers, which live as long as it does."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _BURNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        burnt = float(proc.stdout.readline())  # the child has burnt this and waits
        (cpu,) = load.cpu_seconds([proc.pid])
        assert cpu >= burnt - 0.02  # the clock's tick
    finally:
        proc.communicate("\n", timeout=30)


def test_it_reports_the_cpu_of_each_server_process():
    m = load.Measurement("site", "human", 50, seconds=4.0, server_cpu=3.0)
    m.server_cpu_by_process = [1.0, 2.0]
    m.latencies = [0.01] * 10
    assert m.process_shares() == [25.0, 50.0]
    assert "per process 25%, 50%" in m.line()
    assert "CPU per daphne process (with its pool workers), % of one core: 25, 50" in (
        load.summary([m], 1)
    )
    one = load.Measurement("site", "human", 50, seconds=4.0, server_cpu=1.0)
    one.server_cpu_by_process = [1.0]
    assert "per process" not in one.line()
    assert "CPU per daphne process" not in load.summary([one], 1)


def test_the_load_generator_keeps_to_its_core_while_it_measures():
    import os
    import threading

    cores = os.sched_getaffinity(0)
    if len(cores) < 2:
        pytest.skip("one core: nothing to pin")
    core = max(cores)
    seen = {}
    with load.pinned(core):
        seen["main"] = os.sched_getaffinity(0)
        thread = threading.Thread(target=lambda: seen.update(thread=os.sched_getaffinity(0)))
        thread.start()
        thread.join()
    assert seen == {"main": {core}, "thread": {core}}
    assert os.sched_getaffinity(0) == cores
    assert load.default_client_core() == core
    with pytest.raises(ValueError, match="--client-core"):
        load.Config(client_core=max(cores) + 1).validate()


@pytest.mark.django_db
def test_the_client_keeps_the_board_that_patches_change_as_the_page_does(settings):
    """A socket sends a whole board, then patches of what changed (games/frames.py): the load
    client applies each to the board it has, as the page does, so it knows the version, the
    phase, whose turn it is and its move after every frame, where a patch alone often has
    no exposure form and no playable card (the stalls of the regime ``together``)."""
    from django.contrib.auth import get_user_model

    from games import frames, services, views_live

    settings.GAME_PACING = False
    players = load.make_pairs("gongzhu", "normal", 1, "patched")
    code = players[0].code
    people = [get_user_model().objects.get(pk=p.user_id) for p in players]
    sockets = [(frames.Frames(), load.Page()) for _ in people]
    policy = load.policies()["gongzhu"]
    patches = blind = moves = 0

    def show(step: int):
        """Each person's socket sends its frame for the table as it is; the first person
        with a move, its move and the version it was made on."""
        nonlocal patches, blind
        moving = None
        for user, (sent, page) in zip(people, sockets, strict=True):
            html, version = views_live.snapshot(code, user, "en")
            message = sent.encode(html, version)
            patches += message.startswith("<template data-patch")
            assert page.receive(message)
            board = frames.shown(html)
            assert page.version == version
            assert load.board_phase(page.html) == load.board_phase(board)
            assert load.board_flags(page.html) == load.board_flags(board)  # whose turn
            move = policy(page.html, random.Random(step))
            assert move == policy(board, random.Random(step))
            blind += move is not None and policy(message, random.Random(step)) != move
            if move is not None and moving is None:
                moving = (user, move, version)
        return moving

    for step in range(60):
        show(step)
        # The board drawn again at the same version, as a person's socket coming or going
        # draws it: a patch with nothing of the game in it.
        moving = show(step)
        if moving is None:
            services.play_due_bot_move(code)
            continue
        user, move, version = moving
        views_live.handle(code, user, "en", {**move, "version": str(version)})
        moves += 1
    assert patches > 60 and moves > 10
    assert blind > 0  # moves the last frame alone did not show

    # A patch made against another board than the page's is not applied: it asks for the
    # whole board (as the page does), and its board stays as it was.
    sent, page = sockets[0]
    before = page.html
    html, version = views_live.snapshot(code, people[0], "en")
    sent.version = page.version - 1  # as if the page had missed a frame
    assert not page.receive(sent.encode(html, version))
    assert page.html == before


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(load.policies()))
@pytest.mark.parametrize("stale", [True, False])
def test_the_floods_moves_are_refused_and_move_nothing(game, stale, settings, clock):
    """A flooding socket's moves (--flood) are moves the table refuses, stale or out of
    turn, whoever is to move: never applied."""
    from django.contrib.auth import get_user_model

    from games import services, views_live

    settings.GAME_PACING = True  # the bots' turns last until the clock reaches them
    (player,) = load.make_players(game, "normal", 1, f"flood-{stale}")
    code = player.code
    user = get_user_model().objects.get(pk=player.user_id)
    turns = set()
    for _ in range(12):
        html, version = views_live.snapshot(code, user, "en")
        turns.add("my-turn" in load.board_flags(html))
        answer, answered = views_live.handle(code, user, "en", load.refused_move(html, stale))
        assert 'class="toast__msg" data-toast' in answer
        assert answered == services.get_table(code).version == version
        # On: the next reply shows, the next bot moves, or the person plays.
        shown, due = services.get_table(code), services.Table.objects.get(code=code).bot_due_at
        if getattr(shown, "next_shown_at", None) is not None:
            clock.to(shown.next_shown_at)
        elif due is not None:
            clock.to(due)
            services.play_due_bot_move(code)
        else:
            move = load.policies()[game](html, random.Random(1))
            views_live.handle(code, user, "en", {**move, "version": str(version)})
    assert turns == {True, False}


def test_the_flood_ratio_is_printed_per_run_and_over_the_runs():
    def site(flood: int, actions: int, latency: float) -> load.Measurement:
        m = load.Measurement("site", "human", 5, seconds=10.0, flood=flood)
        m.latencies = [latency] * actions
        m.turnarounds = [1.0]
        return m

    runs = [site(0, 100, 0.010), site(20, 90, 0.020), site(20, 80, 0.040), site(0, 100, 0.010)]
    runs[1].flood_sent, runs[1].flood_boards, runs[1].flood_bare = 300, 120, 170
    assert "flood 20 sockets: 300 refused moves sent (30/s), answered with a board 120, " in (
        runs[1].line()
    )
    assert load.flood_line(runs[0], runs[1]).endswith(
        "with the flood / alone: human actions/s 0.90, latency median x2.00, p95 x2.00, "
        "turn back median x1.00"
    )
    summary = load.summary(runs, 2)
    # The runs' ratios 0.90 and 0.80: their median; the tables alone stay in the main table.
    assert re.search(r"^human\s+5\s+20\s+10\.0\s+8\.5\s+0\.85\s", summary, re.M), summary
    assert (
        "FLOOD RATIO human tables=5 flood=20: human actions/s with the flood / alone = 0.85 "
        "(NOT within the target), target >= 0.90; latency median with / alone = 3.00"
    ) in summary
    assert re.search(r"^human\s+5\s+10\.0\s+", summary, re.M), summary


@pytest.mark.slow
@pytest.mark.once  # the benchmark's own workings; on PostgreSQL + Redis its plain run says it works there
def test_a_flood_of_refused_moves_is_measured_beside_the_tables_alone(tmp_path):
    with fresh_database(tmp_path) as env:
        out = loadbench(
            env,
            tmp_path,
            *("--game", "gongzhu", "--tables", "1", "--seconds", "3", "--think", "0.2"),
            *("--regime", "human", "--flood", "2"),
            timeout=180,
        )
        alone = re.search(r"^human  tables=1\s+site .* stalls 0 .*resyncs 0(?!.*flood)", out, re.M)
        assert alone, out
        flooded = re.search(
            r"^human  tables=1\s+site .* stalls 0 .* \| flood 2 sockets: (\d+) refused moves sent "
            r"\(\d+/s\), answered with a board (\d+), without (\d+)$",
            out,
            re.M,
        )
        assert flooded, out
        sent, boards, bare = map(int, flooded.groups())
        # Refused moves are answered without a board while the page has the table's board.
        assert sent > 0 and bare > 0 and boards + bare <= sent, out
        assert re.search(
            r"^FLOOD RATIO human tables=1 flood=2: human actions/s with the flood / alone = "
            + NUMBER,
            out,
            re.M,
        ), out
        # At a person's pace the bare consumer sends at the site's rate of human actions (not
        # in a closed loop: hundreds a second), and the summary compares the CPU of both.
        site_rate = float(
            re.search(r"^human  tables=1\s+site .* human actions/s " + NUMBER, out, re.M).group(1)
        )
        paced = re.search(r"^human  tables=1\s+bare .* human actions/s " + NUMBER, out, re.M)
        assert paced, out
        assert 0 < float(paced.group(1)) <= 2 * site_rate + 1, out
        # latency median/p95/p99, samples, hum/s, bare/s, no ratio, cpu.h, bare.cpu, x.bare
        row = re.search(
            r"^human\s+1\s+" + r"\s+".join([NUMBER] * 6) + r"\s+-\s+" + r"\s+".join([NUMBER] * 3),
            out,
            re.M,
        )
        assert row and float(row.group(9)) > 0, out
        assert_nothing_left(env)  # the flood's users and tables too
