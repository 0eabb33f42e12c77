"""The table registry: every game the engine knows, with its manifest.

A game's entry (``TableGame``) is its manifest and owns everything about it: its facts and
rules from its engine package (``GameInfo``, ``engine``), its computer players and hint from
its bots module (``bot``, ``hint``), its wording, table hooks, review budget, colours and
rule page texts from its plug-in package ``games/tables/<name>/`` (see ``games.tables``).
Nothing else above the bots finds a game: choices, lobby, navigation, rule pages, benchmarks
and the table machinery all read ``table_games()`` / ``table_game(name)``, at the moment they
need them (never a list kept from import time): a game for the tests only
(``GameInfo.unlisted``) is listed where the settings ask for it (``UNLISTED_GAMES``, the test
run's), and nowhere else.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from games import bots
from games.engine import game_names, get_game
from games.engine.base import Game, GameInfo, PublicView
from games.tables.base import HOOKS, Labels, Lesson
from games.tables.common import BOARD_WORDS

# Pauses for a person to follow the bots (seconds): a card, and a closed trick left in view.
MOVE_PAUSE = 0.8
TRICK_PAUSE = 1.6


@dataclass(frozen=True)
class TableGame:
    info: GameInfo
    labels: Labels
    # The plug-in's table modules by name (HOOKS); empty while the game has no table.
    hooks: dict[str, ModuleType]
    # Draws the game's worked examples on its rule page (``examples.example``), if it has any.
    example: Callable | None = None
    # Deals Hard samples per reviewed decision (the plug-in's ``REVIEW_SAMPLES``): several
    # times its budget at the table, since a review waits for no one. None: Hard's own budget.
    review_samples: int | None = None
    # The plug-in package's folder, which holds the rule page's default texts.
    folder: Path | None = None
    # The guided first hand (the plug-in's optional ``lesson.LESSON``, games.lessons).
    lesson: Lesson | None = None

    @property
    def bots(self) -> ModuleType:
        """The game's bots module (``games/bots/<name>.py``)."""
        return bots.plugin(self.name)

    def bot(self, level: str, **options) -> bots.Bot:
        """A computer player of ``level`` ("easy", "normal", "hard" or "random")."""
        return bots.get_bot(self.name, level, **options)

    def hint(self, observation: dict, legal: list[dict]) -> dict:
        """The player's Hint: Normal's choice for this observation."""
        return self.bots.hint(observation, legal)

    @property
    def stylesheet(self) -> str:
        """The game's colours (``static/css/<name>-colours.css``): custom properties on its
        lobby card, rule page and rules card, linked from the lobby and the rule pages."""
        return f"css/{self.name}-colours.css"

    def rule_page(self, language: str) -> Path:
        """The rule page's default text in ``language`` (the plug-in's ``rules.<language>.md``,
        installed where staff have not written one: cardsite/rules/defaults.py)."""
        return self.folder / f"rules.{language}.md"

    @property
    def seat_counts_vary(self) -> bool:
        """The game is played by more than one number of players (a figure per count)."""
        return len(self.info.seat_counts) > 1

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def engine(self) -> Game:
        return get_game(self.info.name)

    @property
    def playable(self) -> bool:
        return bool(self.hooks)

    @property
    def has_setup(self) -> bool:
        """Players choose table settings (players, options) before the first deal."""
        return self.seat_counts_vary or bool(self.info.options)

    @property
    def plays_in_rounds(self) -> bool:
        return self.info.deal_word == "round"

    @property
    def rules_version(self) -> str:
        return f"{self.name}-{self.info.rules_version}"

    @property
    def template(self) -> str:
        return f"games/{self.name}/table.html"

    @property
    def board_template(self) -> str:
        """The board alone, in Jinja2 (cardsite/jinja.py)."""
        return f"games/{self.name}/board.jinja"

    @property
    def parts_template(self) -> str:
        """The board's parts (``plan``), one macro each, in Jinja2."""
        return f"games/{self.name}/parts.jinja"

    def plan(self, context: dict):
        """The board of ``context`` (``present``'s, completed) as parts (``Plan``)."""
        return self.hooks["presenter"].parts(context)

    @property
    def setup_template(self) -> str:
        return f"games/{self.name}/setup.html"

    @property
    def replay_template(self) -> str:
        return f"games/{self.name}/replay.html"

    # -- the plug-in's hooks

    def present(self, table, view: dict, seat: int | None, selected=()) -> dict:
        context = self.hooks["presenter"].context(table, view, seat, selected)
        # What the machinery adds to every board: each seat's person (presence, auto-play),
        # and no fast-forward while another person waits for the bots' paced moves.
        people = {s.index: s for s in table.seats}
        for s in context.get("seats") or ():
            person = people.get(s.get("index"))
            if person is not None:
                s.update(presence=person.presence, autoplay=person.autoplay, left=person.left)
        if table.others_waiting(seat):
            context["bots_moving"] = False
        context["words"] = self.board_words
        return context

    @property
    def board_words(self) -> dict:
        """The board's sentences with a count or a context (``say`` in cardsite/jinja.py)."""
        return {**BOARD_WORDS, **getattr(self.hooks["messages"], "BOARD_WORDS", {})}

    @property
    def reads_selections(self) -> bool:
        """The game's plays take several cards and it reads a selection live (the optional
        ``presenter.reading(view, cards)``)."""
        return bool(self.hooks) and hasattr(self.hooks["presenter"], "reading")

    def read_selection(self, view: dict, cards: list) -> str:
        return self.hooks["presenter"].reading(view, cards) if self.reads_selections else ""

    def action_from_frame(self, data: dict) -> dict | None:
        return self.hooks["frames"].action(data)

    def frame_for(self, move: dict) -> dict:
        return self.hooks["frames"].frame(move)

    def facts(self, hands: list[tuple[list, int]]) -> list[dict]:
        """A player's figures in this game, from the finished hands they played."""
        return self.hooks["stats"].facts(hands) if self.hooks else []

    def review_position(self, observation: dict) -> dict:
        return self.hooks["review"].position(observation)

    def review_note(self, position: dict, names: dict) -> str:
        return self.hooks["review"].note(position, names)

    def present_replay(self, table, hand, steps, names) -> dict:
        return self.hooks["replay"].context(table, hand, steps, names)

    def refusal(self, code: str, params: dict) -> str | None:
        return self.hooks["messages"].refusal(code, params) if self.hooks else None

    def pause_after(self, before: PublicView | None, after: PublicView) -> float:
        """How long the table rests before the next bot move, given two public views
        (``before`` empty or None where there was no move before): longer where a trick just
        closed, a rules fact the engine tells (its optional ``trick_closed``)."""
        trick_closed = getattr(self.engine, "trick_closed", None)
        closed = trick_closed is not None and trick_closed(before or None, after)
        return TRICK_PAUSE if closed else MOVE_PAUSE


def _load(name: str) -> TableGame:
    package = f"games.tables.{name}"
    try:
        plugin = importlib.import_module(package)
        labels = plugin.LABELS
    except (ModuleNotFoundError, AttributeError) as e:
        raise ImproperlyConfigured(f"game {name!r} needs its site plug-in {package}.LABELS") from e
    present = [m for m in HOOKS if importlib.util.find_spec(f"{package}.{m}") is not None]
    hooks: dict[str, ModuleType] = {}
    if present:
        # A table is all of the plug-in or none of it: no hook falls back to another game's.
        for module_name, names in HOOKS.items():
            if module_name not in present:
                raise ImproperlyConfigured(f"{package} has no {module_name} module")
            module = importlib.import_module(f"{package}.{module_name}")
            for hook in names:
                if not callable(getattr(module, hook, None)):
                    raise ImproperlyConfigured(f"{package}.{module_name} must define {hook}()")
            hooks[module_name] = module
    example = None
    if importlib.util.find_spec(f"{package}.examples") is not None:
        example = importlib.import_module(f"{package}.examples").example
    lesson = None
    if hooks and importlib.util.find_spec(f"{package}.lesson") is not None:
        lesson = importlib.import_module(f"{package}.lesson").LESSON
    samples = getattr(plugin, "REVIEW_SAMPLES", None)
    folder = Path(plugin.__file__).parent
    return TableGame(get_game(name).info, labels, hooks, example, samples, folder, lesson)


def _registry() -> dict[str, TableGame]:
    """The games the site lists: the engine's, and its games for the tests only where the
    settings ask for them (``UNLISTED_GAMES``, the test run's)."""
    return _manifests(tuple(game_names(unlisted=settings.UNLISTED_GAMES)))


@cache
def _manifests(names: tuple[str, ...]) -> dict[str, TableGame]:
    return {name: _load(name) for name in names}


def table_games() -> list[TableGame]:
    """Every game, in its listed order."""
    return list(_registry().values())


def table_game(name: str) -> TableGame:
    """The game ``name``; KeyError for a game nobody registered."""
    return _registry()[name]


def game_choices() -> list[tuple[str, object]]:
    """(name, label) of every game: the model's and the forms' choices."""
    return [(g.name, g.labels.name) for g in table_games()]
