"""Pure rules of the three games, per docs/ENGINE_CONTRACT.md: no Django, no I/O, no global random."""

from games.engine.base import Combo, IllegalAction, game_names, get_game

__all__ = ["Combo", "IllegalAction", "game_names", "get_game"]


def __getattr__(name):
    # ``from games.engine import gongzhu`` works once the game's package exists.
    if name in game_names():
        import importlib

        return importlib.import_module(f"games.engine.{name}")
    raise AttributeError(name)
