"""Every worked example on the rule pages agrees with its game's engine.

The pages mark each example with data-* attributes (see cardsite/rules/render.py); this test
reads them from the rendered pages and recomputes every number with the engine. A game whose
engine is not importable yet is skipped with the reason, and checked as soon as it lands.
"""

import importlib

import pytest

from cardsite.rules.models import Page
from tests.rules.conftest import examples_in

pytestmark = pytest.mark.django_db


def _engine(game):
    try:
        return importlib.import_module(f"games.engine.{game}")
    except ImportError as exc:
        pytest.skip(
            f"the {game} engine is not importable yet ({exc}); the check runs once it lands"
        )


def _examples(client, game, lang):
    response = client.get(f"/{lang}/rules/{game}/")
    assert response.status_code == 200
    found = examples_in(response.content.decode())
    assert len(found) >= 3, f"{game}/{lang} has too few worked examples"
    assert all(example["game"] == game for example in found)
    return found


def _cards(value):
    return value.split()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_gong_zhu_examples_agree_with_score_hand(client, lang):
    engine = _engine("gongzhu")
    for example in _examples(client, "gongzhu", lang):
        got = engine.score_hand(_cards(example["taken"]), _cards(example["exposed"]))
        assert got == int(example["score"]), example


@pytest.mark.parametrize("lang", ["de", "en"])
def test_gan_deng_yan_examples_agree_with_settle(client, lang):
    engine = _engine("gandengyan")
    for example in _examples(client, "gandengyan", lang):
        hands = [_cards(hand) for hand in example["hands"].split("|")]
        played = [flag == "1" for flag in example["played"].split()]
        expected = [int(score) for score in example["scores"].split()]
        got = engine.settle(int(example["winner"]), hands, int(example["bombs"]), played)
        assert list(got) == expected, example
        assert sum(expected) == 0


@pytest.mark.parametrize("lang", ["de", "en"])
def test_dou_dizhu_examples_agree_with_stake(client, lang):
    engine = _engine("doudizhu")
    for example in _examples(client, "doudizhu", lang):
        got = engine.stake(
            int(example["bid"]),
            int(example["bombs"]),
            example["spring"] == "1",
            example["anti-spring"] == "1",
        )
        assert got == int(example["stake"]), example
        # The cards shown with an example are the bombs and the rocket it counts.
        groups = [_cards(group) for group in example["cards"].split("|") if group]
        if groups:
            assert len(groups) == int(example["bombs"]), example
            for group in groups:
                kinds = {combo.kind for combo in engine.readings(group)}
                assert kinds & {"bomb", "rocket"}, (group, kinds)


@pytest.mark.parametrize("game", ["gongzhu", "gandengyan", "doudizhu"])
def test_both_languages_show_the_same_examples(client, game):
    assert _examples(client, game, "de") == _examples(client, game, "en")


def test_examples_edited_in_the_admin_are_checked_too(client):
    """The check reads the stored pages, not the files the defaults came from."""
    engine = _engine("gongzhu")
    page = Page.objects.get(slug="gongzhu", language="en")
    page.body += '\n\n::: example gongzhu taken="JD" exposed="JD" score="200"\nExposed goat.\n:::\n'
    page.save()
    found = _examples(client, "gongzhu", "en")
    assert found[-1] == {"game": "gongzhu", "taken": "JD", "exposed": "JD", "score": "200"}
    assert engine.score_hand(["JD"], ["JD"]) == 200
