"""What the site needs to know about each game beyond the engine contract.

One record per game: its seat counts and options, how long a person needs to take in a
move, what a deal looked like (for the hand record), and which presenter and template draw
its table. A new game adds one entry here, its presenter and its templates; the machinery
(services, driver, consumer, history) stays the same.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import get_game

# Pauses for a person to follow the bots (seconds): a card, and a closed trick left in view.
MOVE_PAUSE = 0.8
TRICK_PAUSE = 1.6


def _gongzhu_trick_closed(before: dict, after: dict) -> bool:
    return bool(after.get("last_trick")) and not (after.get("trick") or {}).get("plays")


def _gandengyan_trick_closed(before: dict, after: dict) -> bool:
    return bool(before.get("trick")) and not after.get("trick")


def _hands_dealt(game, state, seats: int) -> dict:
    return {"hands": [list(game.observation(state, s)["hand"]) for s in range(seats)]}


def _gandengyan_deal(game, state, seats: int) -> dict:
    # The stock decides every draw: a replay checks it as well as the hands.
    data = game.to_json(state)
    return {"hands": [list(h) for h in data["hands"]], "stock": list(data["stock"])}


def _call(path: str, *args, **kwargs):
    module, _, func = path.rpartition(".")
    return getattr(importlib.import_module(module), func)(*args, **kwargs)


@dataclass(frozen=True)
class GameSpec:
    name: str
    seat_counts: tuple[int, ...]
    default_seats: int
    default_options: dict[str, Any] = field(default_factory=dict)
    presenter: str = ""  # dotted path of the function that turns a view into a context
    frame_reader: str = ""  # dotted path: a browser frame (dict) -> an engine action or None
    replay_presenter: str = ""  # dotted path: (table, hand, steps, names) -> replay context
    playable: bool = False  # a table page exists for it
    out_line: int | None = None  # a total that ends the match, drawn on the chart
    plays_in_rounds: bool = False  # the game's own word for a deal: "round" rather than "hand"
    trick_closed: Callable[[dict, dict], bool] = _gongzhu_trick_closed
    deal_record: Callable[[Any, Any, int], dict] = _hands_dealt

    @property
    def engine(self):
        return get_game(self.name)

    @property
    def has_setup(self) -> bool:
        """Players choose table settings before the first round."""
        return len(self.seat_counts) > 1 or bool(self.default_options)

    @property
    def template(self) -> str:
        return f"games/{self.name}/table.html"

    @property
    def rules_version(self) -> str:
        module = importlib.import_module(f"games.engine.{self.name}")
        return f"{self.name}-{getattr(module, 'RULES_VERSION', 1)}"

    def present(self, *args, **kwargs) -> dict:
        return _call(self.presenter, *args, **kwargs)

    def action_from_frame(self, data: dict) -> dict | None:
        return _call(self.frame_reader, data)

    def present_replay(self, *args, **kwargs) -> dict:
        return _call(self.replay_presenter, *args, **kwargs)

    @property
    def replay_template(self) -> str:
        return f"games/{self.name}/replay.html"

    def dealt_cards(self, state, seats: int) -> dict:
        """The deal as recorded with the hand (called right after the deal)."""
        return self.deal_record(self.engine, state, seats)

    def pause_after(self, before: dict, after: dict) -> float:
        """How long the table rests before the next bot move, given two public views."""
        return TRICK_PAUSE if self.trick_closed(before, after) else MOVE_PAUSE


SPECS: dict[str, GameSpec] = {
    "gongzhu": GameSpec(
        "gongzhu",
        seat_counts=(4,),
        default_seats=4,
        presenter="games.presenters.gongzhu_context",
        frame_reader="games.presenters.gongzhu_action",
        replay_presenter="games.presenters.gongzhu_replay",
        playable=True,
        out_line=-1000,
    ),
    "gandengyan": GameSpec(
        "gandengyan",
        seat_counts=(2, 3, 4),
        default_seats=3,
        default_options={"draw": "all"},
        presenter="games.presenters_gandengyan.gandengyan_context",
        frame_reader="games.presenters_gandengyan.gandengyan_action",
        replay_presenter="games.presenters_gandengyan.gandengyan_replay",
        playable=True,
        trick_closed=_gandengyan_trick_closed,
        plays_in_rounds=True,
        deal_record=_gandengyan_deal,
    ),
}


def spec(name: str) -> GameSpec:
    return SPECS[name]
