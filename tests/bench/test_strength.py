"""The computer players' strength page: written by `manage.py strength` from botmatch's results
files (never by hand), shown in both languages, and honest when nothing is measured."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from games import standings
from games.bench.harness import MatchConfig, run_match, summarize
from games.registry import table_games

PLAYABLE = sum(1 for g in table_games() if g.playable)


@pytest.fixture
def measured(tmp_path, monkeypatch):
    results = tmp_path / "gz.jsonl"
    config = MatchConfig(game="gongzhu", hero="normal", villain="easy", seats=4, seed=3)
    records = run_match(config, deals=4, jobs=1, results=str(results))
    out = tmp_path / "strength.json"
    call_command("strength", str(results), out=str(out))
    monkeypatch.setattr(standings, "STRENGTH_FILE", out)
    return json.loads(out.read_text()), summarize(records)


def test_the_command_summarizes_each_run_of_the_results_files(measured):
    data, figures = measured
    [row] = data["rows"]
    assert (row["game"], row["hero"], row["villain"], row["seats"]) == (
        "gongzhu",
        "normal",
        "easy",
        4,
    )
    assert row["deals"] == 4 and row["hands"] == 16
    assert row["mean"] == round(figures["mean"], 1)
    assert row["low"] <= row["mean"] <= row["high"]
    assert row["command"].startswith("manage.py botmatch gongzhu --hero normal --villain easy")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Normal against Easy"), ("de", "Normal gegen Leicht")]
)
def test_the_page_shows_the_figures_in_both_languages(client, measured, lang, words):
    data, _figures = measured
    with translation.override(lang):
        page = client.get(reverse("games:strength")).content.decode()
    assert words in page
    assert f"{data['rows'][0]['mean']:.1f}".replace(".", "," if lang == "de" else ".") in page
    assert page.count('data-testid="strength-') == PLAYABLE  # every playable game, measured or not


@pytest.mark.django_db
def test_without_figures_the_page_says_so(client, tmp_path, monkeypatch):
    monkeypatch.setattr(standings, "STRENGTH_FILE", tmp_path / "none.json")
    with translation.override("en"):
        page = client.get(reverse("games:strength")).content.decode()
    assert page.count("Not measured yet.") == PLAYABLE


class _EasyInTheirSeat:
    """Stands in for RLCard's agent (not installed in CI): our Easy, through the same harness,
    so the results file is a real rlcardmatch file."""

    def __init__(self, seed):
        import random

        from games.bots import get_bot

        self.bot, self.rng = get_bot("doudizhu", "easy"), random.Random(seed)
        self.refused = self.decisions = 0

    def act(self, obs, legal):
        self.decisions += 1
        return self.bot.act(obs, legal, self.rng)


@pytest.fixture
def against_outside(tmp_path, monkeypatch):
    from games.bench import rlcard_match

    monkeypatch.setattr(rlcard_match, "TheirSeat", _EasyInTheirSeat)
    results = tmp_path / "rl.jsonl"
    records = rlcard_match.run("normal", 6, seed=4, results=str(results))
    results.write_text(results.read_text() + '{"cut short')  # an interrupted run's last line
    out = tmp_path / "strength.json"
    call_command("strength", str(results), out=str(out))
    monkeypatch.setattr(standings, "STRENGTH_FILE", out)
    return json.loads(out.read_text()), rlcard_match.summarize(records)


def test_the_command_writes_a_row_for_each_match_against_an_outside_program(against_outside):
    data, figures = against_outside
    assert data["rows"] == []
    [row] = data["outside"]
    assert (row["game"], row["level"], row["deals"], row["games"]) == ("doudizhu", "normal", 6, 12)
    assert row["won"] == round(100 * figures["overall_win"][0], 1)
    assert row["landlord"] == round(100 * figures["landlord"]["win"][0], 1)
    assert 0 <= row["won_low"] <= row["won"] <= row["won_high"] <= 100
    assert row["command"] == "manage.py rlcardmatch --level normal --seed 4 --deals 6"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Against RLCard doudizhu-rule-v1"),
        ("de", "Gegen RLCard doudizhu-rule-v1"),
    ],
)
def test_the_page_shows_the_matches_against_outside_programs(client, against_outside, lang, words):
    data, _figures = against_outside
    with translation.override(lang):
        page = client.get(reverse("games:strength")).content.decode()
    assert words in page
    won = f"{data['outside'][0]['won']:.1f}".replace(".", "," if lang == "de" else ".")
    row = page[page.index(words) :]
    assert re.search(r'<th scope="row">Normal</th>\s*<td class="num nowrap"><strong>' + won, row)
    assert "manage.py rlcardmatch --level normal --seed 4 --deals 6" in page


def test_update_replaces_only_the_rows_measured_again(measured, tmp_path):
    data, _figures = measured
    out = tmp_path / "strength.json"
    other = {**data["rows"][0], "game": "gandengyan", "seats": 2, "mean": 9.9}
    outside = {"level": "hard", "won": 77.4, "command": "manage.py rlcardmatch --level hard"}
    out.write_text(json.dumps({**data, "rows": [other, *data["rows"]], "outside": [outside]}))
    again = tmp_path / "again.jsonl"
    config = MatchConfig(game="gongzhu", hero="normal", villain="easy", seats=4, seed=5)
    run_match(config, deals=2, jobs=1, results=str(again))
    call_command("strength", str(again), out=str(out), update=True)
    updated = json.loads(out.read_text())
    assert [(r["game"], r["deals"]) for r in updated["rows"]] == [("gandengyan", 4), ("gongzhu", 2)]
    assert updated["rows"][0]["mean"] == 9.9 and updated["outside"] == [outside]
    call_command("strength", str(again), out=str(out))  # without --update: these runs alone
    assert [r["game"] for r in json.loads(out.read_text())["rows"]] == ["gongzhu"]
