"""Pure rules of the three games, per docs/ENGINE_CONTRACT.md: no Django, no I/O, no global random.

The games are found in one place, ``base._load_all`` (every package beside this module); a
game's package is imported as usual (``from games.engine import gongzhu``)."""

from games.engine.base import Combo, IllegalAction, game_names, get_game

__all__ = ["Combo", "IllegalAction", "game_names", "get_game"]
