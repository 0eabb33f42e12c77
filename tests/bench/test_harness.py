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


@pytest.mark.parametrize("game", ["gongzhu", "gandengyan", "doudizhu"])
def test_botmatch_plays_the_hard_that_players_meet(game):
    # No budget of the benchmark's own: Hard's defaults (Gan Deng Yan's deals per decision by
    # table size) are the site's. Gan Deng Yan's plug-in once forced 16 deals at every size.
    assert harness.bot_options(game, "hard") == {}


def test_summary_statistics():
    records = [{"diffs": [10, 30], "times_ms": [1.0, 3.0]}, {"diffs": [0, 0], "times_ms": [2.0]}]
    s = harness.summarize(records)
    assert s["deals"] == 2 and s["hands"] == 4 and s["mean"] == 10
    assert s["low"] < 10 < s["high"]
    assert s["median_ms"] == 2.0
    assert harness.percentile([1, 2, 3, 4, 5], 95) == pytest.approx(4.8)


def test_a_summary_of_one_deal_says_it_has_no_interval():
    config = harness.MatchConfig(game="gongzhu", hero="hard", villain="normal", seats=4, seed=1)
    one = harness.summarize([{"diffs": [10, 30], "times_ms": [1.0], "cpu_ms": [0.9]}])
    text = harness.format_summary(config, one)
    assert "+20.0 points per hand, no interval from one deal" in text
    assert "nan" not in text
    two = harness.summarize([{"diffs": [10, 30]}, {"diffs": [0, 0]}])
    assert "95% interval [" in harness.format_summary(config, two)


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


def test_player_specs_carry_keyword_options():
    assert harness.split_spec("hard") == ("hard", {})
    assert harness.split_spec("hard:exposures=false,samples=40,x=0.5,y=on") == (
        "hard",
        {"exposures": False, "samples": 40, "x": 0.5, "y": "on"},
    )
    with pytest.raises(ValueError):
        harness.split_spec("hard:noexpose")
    # The budget goes to Hard whatever options its spec adds; the spec's own come last.
    assert harness.bot_options("gongzhu", "hard:exposures=false", 7) == {"budget": 7}
    assert harness.make_bot("gongzhu", "hard:samples=3", {"samples": 9}).samples == 3
    assert "sampler" in harness.player_names("gongzhu")
    assert "sampler" not in harness.player_names("doudizhu")


def test_a_run_of_the_rotate_layout_keeps_its_key():
    # Results files written before there were layouts resume as they are.
    config = harness.MatchConfig("gongzhu", "normal", "easy", 4, 1)
    assert "layout" not in json.loads(config.key())
    pairs = harness.MatchConfig("gongzhu", "normal", "easy", 4, 1, layout="pairs")
    assert json.loads(pairs.key())["layout"] == "pairs"
    assert json.loads(pairs.key())["rng"] == "seat"  # never mixed with the older pairs runs
    assert harness.seatings("rotate", 4) == [(0,), (1,), (2,), (3,)]
    assert harness.seatings("pairs", 4) == [(0, 2), (1, 3)]
    with pytest.raises(ValueError):
        harness.seatings("pairs", 3)


def test_the_pairs_layout_swaps_the_pairs_and_scores_pair_against_pair():
    # Normal against itself plays both seatings alike: the second hand is the first negated.
    config = harness.MatchConfig("gongzhu", "normal", "normal", 4, 5, layout="pairs")
    for record in harness.run_match(config, 3):
        first, second = record["diffs"]
        assert first == -second
        assert len(record["times_ms"]) == len(record["villain_ms"]) == 2 * 2 * 14


def test_the_pairs_layout_gives_each_seat_the_same_generator_in_both_hands():
    # Players that draw on their generator decide alike in both hands of a deal when they
    # are alike: the deal is played twice the same way, whoever is the hero, and cancels.
    # (With one generator per hand, as before, random players played two different hands.)
    for player in ("random", "hard:samples=2"):
        config = harness.MatchConfig("gongzhu", player, player, 4, 3, layout="pairs")
        records = harness.run_match(config, 3)
        assert all(r["diffs"][0] == -r["diffs"][1] for r in records)
        assert any(r["diffs"][0] for r in records)


def test_botmatch_pairs_layout_with_the_sampler_resumes_from_its_results_file(tmp_path):
    path = tmp_path / "pairs.jsonl"
    spec = {"hero": "hard", "villain": "sampler:samples=1", "layout": "pairs", "budget": 2}
    run_command("botmatch", "gongzhu", hands=1, results=str(path), **spec)
    [first] = [json.loads(line) for line in path.read_text().splitlines()]
    assert first["deal"] == 0 and len(first["diffs"]) == 2
    assert json.loads(first["run"])["villain"] == "sampler:samples=1"
    text = run_command("botmatch", "gongzhu", hands=2, results=str(path), **spec)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["deal"] for r in records] == [0, 1] and records[0] == first
    assert "hero hard in seats 0 and 2, villain sampler:samples=1 in seats 1 and 3" in text
    assert "2 deals x 2 = 4 hands" in text
    assert re.search(r"hero pair - villain pair .*: [+-]\d+\.\d points per hand, 95% inter", text)
    assert re.search(r"villain decision time: median \d+\.\d+ ms", text)


def test_the_strength_ladder_leaves_out_other_layouts(tmp_path):
    from games.management.commands.strength import rows_from

    path = tmp_path / "mixed.jsonl"
    for layout in ("rotate", "pairs"):
        config = harness.MatchConfig("gongzhu", "normal", "easy", 4, 2, layout=layout)
        harness.run_match(config, 2, results=str(path))
    [row] = rows_from([str(path)])
    assert (row["hero"], row["deals"], row["hands"]) == ("normal", 2, 8)


def test_unknown_players_and_layouts_are_refused():
    with pytest.raises(CommandError):
        run_command("botmatch", "doudizhu", hero="sampler")
    with pytest.raises(CommandError):
        run_command("botmatch", "gongzhu", hero="hard:noexpose")
    with pytest.raises(CommandError):
        run_command("botmatch", "gandengyan", seats=3, layout="pairs")


def test_a_spec_may_set_only_the_options_its_player_takes():
    harness.check_spec("gongzhu", "hard:exposures=false,samples=40")
    harness.check_spec("gongzhu", "sampler:samples=4")
    harness.check_spec("gandengyan", "hard:samples=3,candidates=2")
    for game, spec in [
        ("gongzhu", "hard:exposure=false"),  # a typo would run plain Hard under its own key
        ("gongzhu", "normal:samples=3"),
        ("doudizhu", "random:seed=1"),
    ]:
        with pytest.raises(ValueError, match="takes no option"):
            harness.check_spec(game, spec)
    with pytest.raises(CommandError, match="exposure"):
        run_command("botmatch", "gongzhu", villain="hard:exposure=false", hands=1)


def test_rlcardmatch_takes_a_level_with_options_and_refuses_bad_ones():
    # checked before RLCard is looked for, so these run without it
    with pytest.raises(CommandError, match="takes no option pol"):
        run_command("rlcardmatch", level="hard:pol=3", deals=1)
    with pytest.raises(CommandError, match="easy, normal, hard or perfect, not 'random'"):
        run_command("rlcardmatch", level="random", deals=1)


def test_rlcardmatch_keys_a_run_by_its_level_and_options(tmp_path, monkeypatch):
    pytest.importorskip("rlcard")
    from games.bench import rlcard_match

    seen = []
    monkeypatch.setattr(
        rlcard_match,
        "play_game",
        lambda seed, landlord, level, options: (
            seen.append((level, options))
            or {"points": 1, "won": True, "refused": 0, "their_decisions": 1}
        ),
    )
    results = tmp_path / "rl.jsonl"
    run_command("rlcardmatch", level="hard:pool=3,recent=4", deals=1, results=str(results))
    assert seen == [("hard", {"pool": 3, "recent": 4})] * 2
    assert '\\"options\\": {\\"pool\\": 3, \\"recent\\": 4}' in results.read_text()


def test_first_decisions_only_scores_a_deal_of_alike_first_decisions_0_unplayed():
    # Hard with Normal's exposures against Hard without: they play alike after the exposures,
    # so a deal where no hero seat exposes in either seating cancels; played or not, every
    # deal's value is the same.
    config = harness.MatchConfig(
        "gongzhu", "hard:samples=2", "hard:samples=2,exposures=false", 4, 4, layout="pairs"
    )
    played = harness.run_match(config, 5)
    quick = harness.run_match(config, 5, first_only=True)
    assert [sum(r["diffs"]) for r in quick] == [sum(r["diffs"]) for r in played]
    assert harness.summarize(quick)["mean"] == harness.summarize(played)["mean"]
    unplayed = [r for r in quick if r.get("unplayed")]
    assert unplayed and len(unplayed) < len(quick)
    assert all(r["diffs"] == [0.0, 0.0] for r in unplayed)
    assert any(sum(r["diffs"]) for r in quick if not r.get("unplayed"))
    # Unplayed: only the exposures were decided (one per seat in each seating).
    assert all(len(r["times_ms"]) == len(r["villain_ms"]) == 4 for r in unplayed)
    with pytest.raises(ValueError, match="pairs"):
        harness.play_deal(harness.MatchConfig("gongzhu", "normal", "easy", 4, 1), 0, True)


def test_botmatch_first_decisions_only_needs_the_pairs_layout():
    with pytest.raises(CommandError, match="needs --layout pairs"):
        run_command("botmatch", "gongzhu", hero="normal", first_decisions_only=True, hands=1)
