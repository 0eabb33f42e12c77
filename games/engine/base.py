"""The shared surface of every game (docs/ENGINE_CONTRACT.md): Combo, IllegalAction, Game, GameInfo,
registry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict


@dataclass(frozen=True)
class Combo:
    kind: str
    low: str | None  # lowest main rank
    high: str | None  # highest main rank (== low for single, pair, trio, bomb, four-with-two)
    count: int  # number of cards in the play, kickers and jokers included

    def to_dict(self) -> dict[str, Any]:
        # By hand: dataclasses.asdict costs more than a whole move generation.
        return {"kind": self.kind, "low": self.low, "high": self.high, "count": self.count}

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


class PublicView(TypedDict):
    """The keys of every game's ``public_view`` (what a spectator may know). Each game's own
    view type extends it (``games/engine/<game>/observation.py``) and its engine builds every
    key of that type, always: a value, or None / [] / 0 for "not now", never a missing key
    (tests/engine/test_observation_types.py)."""

    game: str
    # The seat that dealt this hand (Gong Zhu: who led its first trick, None for the holder
    # of 2S in hand 1): ``new_match_from_deal`` takes it back.
    dealer: int | None
    totals: list[int]
    result: dict[str, Any] | None  # the hand's result once it is over


class Refusal(TypedDict):
    """Why an action is refused, as ``IllegalAction`` says it: its code and the values its
    sentence names (an observation's reasons for the cards a seat may not play)."""

    code: str
    params: dict[str, Any]


class TrickPlay(TypedDict):
    seat: int
    card: str


class Trick(TypedDict):
    """A trick of a trick-taking game as its views show it."""

    leader: int
    plays: list[TrickPlay]  # in playing order
    winner: int | None  # None while the trick is open


class Observation(PublicView):
    """The keys of every game's ``observation(state, seat)``: the public keys, the seat and
    its hand. Each game's observation type extends it and its own view type."""

    seat: int
    hand: list[str]


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


@dataclass(frozen=True)
class GameInfo:
    """A game's facts as data, at the top of its package: everything else that lists the
    games (the site's choices, lobby, navigation, rule pages, benchmarks, table registry)
    reads these records. Keys only, never wording: the engine knows no language.
    """

    name: str
    seat_counts: tuple[int, ...]
    default_seats: int
    # Each option's allowed values, in the order a player is offered them, and its default.
    options: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    default_options: dict[str, Any] = field(default_factory=dict)
    # A match ends (by a total, or after a number of hands) rather than running on.
    match_end: bool = True
    # A total at which a player is out and the match ends, if the game has one.
    out_line: int | None = None
    # The game's own word for one deal played out: "hand", "round".
    deal_word: str = "hand"
    # Raised whenever a change to the rules would replay an old hand differently.
    rules_version: int = 1
    # Where the game stands in lists (the lobby, the navigation).
    order: int = 0
    # A game for the tests only (one that proves the plug-in machinery): ``game_names``
    # lists it only when asked to (the site asks only where its tests run).
    unlisted: bool = False

    def __post_init__(self) -> None:
        if self.default_seats not in self.seat_counts or set(self.options) != set(
            self.default_options
        ):
            raise ValueError(f"{self.name}: defaults must be among the choices")
        for key, value in self.default_options.items():
            if value not in self.options[key]:
                raise ValueError(f"{self.name}: default {key}={value!r} is not offered")


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
    info: GameInfo

    name: str
    seat_counts: tuple[int, ...]

    def new_match(self, seed: int, seats: int, options: dict | None = None) -> Any: ...
    def to_move(self, state: Any) -> list[int]: ...
    def legal_actions(self, state: Any, seat: int) -> list[dict]: ...
    def apply(self, state: Any, seat: int, action: dict) -> Any: ...
    def read(self, state: Any, seat: int, action: dict) -> dict: ...
    def observation(self, state: Any, seat: int) -> Observation: ...
    def public_view(self, state: Any) -> PublicView: ...
    def hand_over(self, state: Any) -> bool: ...
    def match_over(self, state: Any) -> bool: ...
    def hand_result(self, state: Any) -> dict: ...
    def totals(self, state: Any) -> list[int]: ...
    def next_hand(self, state: Any) -> Any: ...
    def to_json(self, state: Any) -> dict: ...
    def from_json(self, data: dict) -> Any: ...
    def dealt(self, state: Any) -> dict: ...

    # The game's own TypedDicts over ``Observation`` and ``PublicView``: every key its
    # ``observation`` and ``public_view`` build.
    observation_type: type
    public_view_type: type

    def trick_closed(self, before: PublicView | None, after: PublicView) -> bool:
        """A rules fact, optional (a game without tricks has none): between two public views
        or observations, ``before`` None where there was no move before, a trick closed."""
        ...


_REGISTRY: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    _REGISTRY[game.name] = game
    _NAMES.clear()  # a game of the same name replaced: its order may differ
    return game


def get_game(name: str) -> Game:
    """The game ``name`` (listed or not: asked for by name); KeyError for a game nobody
    registered."""
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}") from None


def game_names(unlisted: bool = False) -> list[str]:
    """Every game, in its listed order (``GameInfo.order``); the unlisted ones (games for
    the tests only) too if asked."""
    _load_all()
    key = (unlisted, tuple(_REGISTRY))
    names = _NAMES.get(key)
    if names is None:  # once per registry: a table's every read asks
        shown = [n for n, game in _REGISTRY.items() if unlisted or not game.info.unlisted]
        names = _NAMES[key] = tuple(
            sorted(shown, key=lambda name: (_REGISTRY[name].info.order, name))
        )
    return list(names)


# game_names' answers, by the registry's games (a test may list one more for a while).
_NAMES: dict[tuple, tuple[str, ...]] = {}


def _load_all() -> None:
    """Register every game package beside this module, once: adding a game is adding its
    package."""
    global _loaded
    if _loaded:
        return
    import importlib
    import pkgutil
    from pathlib import Path

    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if module.ispkg:
            importlib.import_module(f"games.engine.{module.name}")
    _loaded = True
