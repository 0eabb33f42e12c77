"""The benchmark harness and its two commands, on tiny runs (no database needed)."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from django.core.management import CommandError, call_command

from games.bench import harness


def run_command(*args, **options) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def test_botmatch_prints_the_difference_with_an_interval_and_decision_times():
    text = run_command(
        "botmatch", "gongzhu", hero="easy", villain="random", hands=3, seed=4, jobs=1
    )
    assert "3 deals x 4 seats = 12 hands" in text
    assert re.search(r"hero - villains: [+-]\d+\.\d points per hand, 95% interval \[[+-]", text)
    assert re.search(r"median \d+\.\d+ ms, p95 \d+\.\d+ ms", text)


def test_botmatch_resumes_from_its_results_file(tmp_path):
    path = tmp_path / "run.jsonl"
    run_command("botmatch", "gongzhu", hero="normal", villain="easy", hands=2, results=str(path))
    first = [json.loads(line) for line in path.read_text().splitlines()]
    assert sorted(r["deal"] for r in first) == [0, 1]
    # An interrupted line is ignored and the run goes on from the deals it has.
    with path.open("a") as f:
        f.write('{"run": "cut sho')
    text = run_command(
        "botmatch", "gongzhu", hero="normal", villain="easy", hands=4, results=str(path)
    )
    lines = path.read_text().splitlines()
    records = [json.loads(line) for line in lines if line.endswith("}")]
    assert sorted(r["deal"] for r in records) == [0, 1, 2, 3]
    assert records[:2] == first
    assert "4 deals x 4 seats = 16 hands" in text
    # A different run in the same file is kept apart.
    run_command("botmatch", "gongzhu", hero="easy", villain="easy", hands=1, results=str(path))
    config = harness.MatchConfig("gongzhu", "normal", "easy", 4, 1)
    assert sorted(harness.load_results(str(path), config)) == [0, 1, 2, 3]


def test_parallel_jobs_give_the_same_records_as_one():
    config = harness.MatchConfig("gongzhu", "hard", "easy", 4, 9, hero_options={"budget": 2})
    one = harness.run_match(config, 3, jobs=1)
    two = harness.run_match(config, 3, jobs=2)
    assert [r["diffs"] for r in one] == [r["diffs"] for r in two]


def test_the_budget_goes_to_the_hard_level_only():
    assert harness.bot_options("gongzhu", "hard", 7) == {"budget": 7}
    assert harness.bot_options("gongzhu", "normal", 7) == {}
    assert harness.bot_options("gongzhu", "random", None) == {}


def test_summary_statistics():
    records = [{"diffs": [10, 30], "times_ms": [1.0, 3.0]}, {"diffs": [0, 0], "times_ms": [2.0]}]
    s = harness.summarize(records)
    assert s["deals"] == 2 and s["hands"] == 4 and s["mean"] == 10
    assert s["low"] < 10 < s["high"]
    assert s["median_ms"] == 2.0
    assert harness.percentile([1, 2, 3, 4, 5], 95) == pytest.approx(4.8)


def test_enginebench_prints_hands_per_second_and_legal_action_times():
    text = run_command("enginebench", "gongzhu", seconds=0.05, runs=1, positions=10)
    assert re.search(r"4 seats: \d+ full random hands/s", text)
    assert re.search(r"legal_actions: median \d+\.\d us per call", text)
    for name in ("exposure", "lead", "follow", "discard"):
        assert f"{name}: median" in text


def test_positions_are_sampled_from_random_hands_without_a_plugin():
    found = harness.sampled_positions("gongzhu", random.Random(2), 15)
    assert list(found) == ["random positions, 4 seats"]
    assert len(found["random positions, 4 seats"]) == 15
    times = harness.time_legal_actions("gongzhu", found["random positions, 4 seats"], repeat=1)
    assert len(times) == 15 and all(t >= 0 for t in times)


def test_unknown_games_are_refused():
    with pytest.raises(CommandError):
        run_command("botmatch", "skat")
    with pytest.raises(CommandError):
        run_command("botmatch", "gongzhu", hero="grandmaster")
    with pytest.raises(CommandError):
        run_command("enginebench", "skat")
    with pytest.raises(CommandError):
        run_command("enginebench", "gongzhu", compare="rlcard")
