"""The boards' words (Jinja2, cardsite/jinja.py) reach the catalog as Django's templates' do:
``makemessages`` reads a .jinja file as Django's language, which finds ``_("…")`` at the start
of ``{{ … }}`` and anywhere in ``{% … %}``; one inside a call's arguments in ``{{ … }}``
would silently stay English."""

import re
from pathlib import Path

from django.utils import translation

from games.registry import table_games

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = re.compile(r"""_\((?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\)""")
VARIABLE = re.compile(r"\{\{-?(.*?)-?\}\}", re.S)


def jinja_files():
    return sorted((ROOT / "templates").rglob("*.jinja"))


def test_every_sentence_of_a_board_is_where_makemessages_finds_it():
    hidden = []
    for path in jinja_files():
        for var in VARIABLE.findall(path.read_text()):
            first = var.split("|")[0].strip()
            for m in SENTENCE.finditer(var):
                if not first.startswith(m.group(0)):
                    hidden.append((path.name, m.group(0)))
    assert jinja_files() and not hidden


# The same in both languages.
SAME = {"%(name)s: %(label)s", "2 × %(n)s", "Total", "Hint"}


def test_every_sentence_of_a_board_is_translated():
    sentences = {
        (m.group(1) or m.group(2)).replace('\\"', '"')
        for path in jinja_files()
        for m in SENTENCE.finditer(path.read_text())
    }
    with translation.override("de"):
        english = {s for s in sentences if translation.gettext(s) == s}
    assert len(sentences) > 100 and english <= SAME, english - SAME


def test_the_sentences_with_a_count_are_translated():
    """Each plug-in's BOARD_WORDS in German, singular and plural."""
    for game in table_games():
        if not game.playable:
            continue
        for key, message in game.board_words.items():
            for n in (1, 2):
                with translation.override("en"):
                    en = str(message % {"n": n})
                with translation.override("de"):
                    de = str(message % {"n": n})
                assert de != en or key == "dealer_badge", (game.name, key, n, de)
