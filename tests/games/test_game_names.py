"""Outside a game's own paths, no code names a game: the machinery, the bench and the site ask
the registry (games/registry.py, the game's manifest) and the engine lists the games.

Python is read as a syntax tree (string constants and names, not docstrings or comments);
templates, stylesheets and scripts as text with their comments stripped. The games are the
engine registry's, so a new game is checked without editing this file.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.engine import game_names

pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parents[2]
GAMES = game_names(unlisted=True)

# Shared files that must name a game, each with its reason (paths from the root).
EXEMPT = {
    # RLCard ships a rule agent for Dou Dizhu alone: the outside-program match is that game's.
    "games/bench/rlcard_match.py",
}


def own_path(rel: str) -> bool:
    """A path that belongs to one game (its plug-in at some layer), or is no code of the site."""
    parts = rel.split("/")
    if parts[0] in ("tests", "docs", "locale") or "migrations" in parts:
        return True
    for game in GAMES:
        if (
            rel.startswith((f"games/engine/{game}/", f"games/tables/{game}/"))
            or rel.startswith(f"templates/games/{game}/")
            or re.fullmatch(rf"games/(bots|bench)/{game}(_\w+)?\.py", rel)
            or re.fullmatch(rf"static/(css|js)/{game}[\w-]*\.(css|js)", rel)
        ):
            return True
    return False


def shared_files() -> list[str]:
    found = []
    for pattern in ("games/**/*.py", "cardsite/**/*.py", "templates/**/*", "static/**/*"):
        for path in ROOT.glob(pattern):
            rel = path.relative_to(ROOT).as_posix()
            if (
                path.is_file()
                and path.suffix in (".py", ".html", ".jinja", ".css", ".js", ".txt")
                and "vendor" not in rel.split("/")
                and not own_path(rel)
                and rel not in EXEMPT
            ):
                found.append(rel)
    return sorted(found)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def python_words(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant (but docstrings), name, attribute and import."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs:
                words.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            words.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            words.append((node.lineno, node.attr))
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            words.append((node.lineno, node.name))
        elif isinstance(node, ast.alias):
            words.append((node.lineno, f"{node.name} {node.asname or ''}"))
        elif isinstance(node, ast.ImportFrom):
            words.append((node.lineno, node.module or ""))
        elif isinstance(node, ast.keyword | ast.arg):
            words.append((node.lineno, node.arg or ""))
    return words


COMMENTS = {
    ".css": [r"/\*.*?\*/"],
    ".js": [r"/\*.*?\*/", r"(?<![:\"'\\])//[^\n]*"],
    ".html": [r"\{#.*?#\}", r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", r"<!--.*?-->"],
    ".jinja": [r"\{#.*?#\}"],
    ".txt": [r"\{#.*?#\}"],
}


def text_words(text: str, suffix: str) -> list[tuple[int, str]]:
    """(line, text) of every line, with the file's comments blanked (line numbers kept)."""
    for pattern in COMMENTS[suffix]:
        text = re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
    return list(enumerate(text.splitlines(), start=1))


def naming_games(rel: str) -> list[str]:
    path = ROOT / rel
    source = path.read_text(encoding="utf-8")
    words = python_words(source) if path.suffix == ".py" else text_words(source, path.suffix)
    return [
        f"{rel}:{line}: {game}" for line, word in words for game in GAMES if game in word.lower()
    ]


def test_it_lists_the_games_from_the_engine():
    assert len(GAMES) >= 3
    assert len(shared_files()) > 50


def test_it_finds_no_game_named_outside_its_own_paths():
    found = sorted({hit for rel in shared_files() for hit in naming_games(rel)})
    assert found == [], "\n".join(found)


def test_it_sees_names_and_strings_but_not_docstrings_or_comments():
    game = GAMES[0]
    source = f'"""About {game}."""\n# {game}\nx = "{game}"\nfrom games.bots import {game}\n'
    assert [line for line, word in python_words(source) if game in word] == [3, 4]
    css = f"/* .{game} */\n.card--{game} {{ color: red; }}\n"
    assert [line for line, word in text_words(css, ".css") if game in word] == [2]
    html = f'{{# {game} #}}\n{{% if g == "{game}" %}}\n<!-- {game} -->\n'
    assert [line for line, word in text_words(html, ".html") if game in word] == [2]


def test_every_exemption_is_still_needed():
    assert [rel for rel in sorted(EXEMPT) if not naming_games(rel)] == []
