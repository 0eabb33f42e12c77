"""The shared surface of every game (ENGINE_CONTRACT.md): Combo, IllegalAction, Game, registry."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Combo:
    kind: str
    low: str | None  # lowest main rank
    high: str | None  # highest main rank (== low for single, pair, trio, bomb, four-with-two)
    count: int  # number of cards in the play, kickers and jokers included

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Combo:
        """A Combo from its dict form; raises ValueError on anything of the wrong shape."""
        if not isinstance(data, dict) or set(data) != {"kind", "low", "high", "count"}:
            raise ValueError("combo must be a dict with kind, low, high, count")
        kind, low, high, count = data["kind"], data["low"], data["high"], data["count"]
        if not isinstance(kind, str):
            raise ValueError("combo kind must be a string")
        for rank in (low, high):
            if rank is not None and not isinstance(rank, str):
                raise ValueError("combo ranks must be strings or None")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ValueError("combo count must be a positive integer")
        return cls(kind, low, high, count)


# The codes every game shares, checked in this order before a game's own codes.
COMMON_CODES = ("not_your_turn", "malformed", "not_in_hand", "ambiguous")

_COMMON_MESSAGES = {
    "not_your_turn": "It is not your turn.",
    "malformed": "That action is not well formed.",
    "not_in_hand": "You do not hold that card.",
    "ambiguous": "That selection can be read more than one way; name the reading.",
    "hand_not_over": "The hand is not over yet.",
    "match_over": "The match is over.",
}


class IllegalAction(Exception):
    """An action the rules refuse. ``code`` is stable; ``params`` fill in the sentence."""

    # Games register their own English sentences here (format strings over params).
    messages: dict[str, str] = dict(_COMMON_MESSAGES)

    def __init__(self, code: str, params: dict[str, Any] | None = None):
        self.code = code
        self.params = dict(params or {})
        super().__init__(code)

    def __str__(self) -> str:
        template = self.messages.get(self.code)
        if template is None:
            return f"Illegal action ({self.code})."
        try:
            return template.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return template

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.params!r})"


def register_messages(messages: dict[str, str]) -> None:
    """Add a game's English sentences for its own codes."""
    IllegalAction.messages.update(messages)


class Game(Protocol):
    name: str
    seat_counts: tuple[int, ...]

    def new_match(self, seed: int, seats: int, options: dict | None = None) -> Any: ...
    def to_move(self, state: Any) -> list[int]: ...
    def legal_actions(self, state: Any, seat: int) -> list[dict]: ...
    def apply(self, state: Any, seat: int, action: dict) -> Any: ...
    def observation(self, state: Any, seat: int) -> dict: ...
    def public_view(self, state: Any) -> dict: ...
    def hand_over(self, state: Any) -> bool: ...
    def match_over(self, state: Any) -> bool: ...
    def hand_result(self, state: Any) -> dict: ...
    def totals(self, state: Any) -> list[int]: ...
    def next_hand(self, state: Any) -> Any: ...
    def to_json(self, state: Any) -> dict: ...
    def from_json(self, data: dict) -> Any: ...


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    if not _REGISTRY:
        _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        _load_all()
        if name in _REGISTRY:
            return _REGISTRY[name]
        raise KeyError(f"unknown game {name!r}") from None


def game_names() -> list[str]:
    _load_all()
    return sorted(_REGISTRY)


GAME_MODULES = ("gongzhu", "gandengyan", "doudizhu")


def _load_all() -> None:
    import importlib

    for module in GAME_MODULES:
        try:
            importlib.import_module(f"games.engine.{module}")
        except ModuleNotFoundError as e:
            # A game whose package has not been written yet is simply not registered.
            if e.name != f"games.engine.{module}":
                raise
