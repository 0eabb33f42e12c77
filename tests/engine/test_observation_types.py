"""Every game's observation and public view have the keys of the game's own type, always.

A game declares ``observation_type`` and ``public_view_type``: TypedDicts over the shared
``Observation`` and ``PublicView`` of games/engine/base.py. The readers (bots, the site's
plug-ins) read those keys directly, so the engine must build every one at every step, for
every seat, in every phase ("not now" is None, [] or 0, never a missing key); and each value
must be of its declared type. Checked over every registered game by random seeded hands.
"""

from __future__ import annotations

import random
import types
import typing
from functools import cache
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from games.engine import game_names, get_game
from games.engine.base import Observation, PublicView

HANDS = 2  # the first hand and the one after it (who leads or deals changes)
SEEDS = range(3)


def _configs():
    for name in game_names(unlisted=True):
        for seats in get_game(name).seat_counts:
            yield pytest.param(name, seats, id=f"{name}-{seats}")


@cache
def _keys(typed) -> frozenset[str]:
    return typed.__required_keys__ | typed.__optional_keys__


@cache
def _hints(typed) -> dict:
    return get_type_hints(typed)


def _mismatch(value, hint, where: str) -> str | None:
    """Where ``value`` is not of type ``hint`` (None if it is)."""
    if hint is Any:
        return None
    origin, args = get_origin(hint), get_args(hint)
    if origin in (typing.Union, types.UnionType):
        found = [_mismatch(value, a, where) for a in args]
        return None if None in found else f"{where}: {value!r} is not {hint}"
    if hint is type(None):
        return None if value is None else f"{where}: {value!r} is not None"
    if is_typeddict(hint):
        if not isinstance(value, dict) or set(value) != _keys(hint):
            return f"{where}: {value!r} has not the keys of {hint.__name__}"
        for key, sub in _hints(hint).items():
            if problem := _mismatch(value[key], sub, f"{where}[{key!r}]"):
                return problem
        return None
    if origin is list:
        if not isinstance(value, list):
            return f"{where}: {value!r} is not a list"
        for i, item in enumerate(value):
            if problem := _mismatch(item, args[0], f"{where}[{i}]"):
                return problem
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where}: {value!r} is not a dict"
        for key, item in value.items():
            if problem := _mismatch(key, args[0], f"{where} key") or _mismatch(
                item, args[1], f"{where}[{key!r}]"
            ):
                return problem
        return None
    if hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else f"{where}: {value!r} is not an int"
    if isinstance(hint, type):
        return None if isinstance(value, hint) else f"{where}: {value!r} is not {hint.__name__}"
    raise AssertionError(f"{where}: the test cannot check {hint!r}")


def _check(value: dict, typed, where: str) -> None:
    missing, extra = _keys(typed) - set(value), set(value) - _keys(typed)
    assert not missing and not extra, f"{where}: missing {sorted(missing)}, extra {sorted(extra)}"
    assert _mismatch(value, typed, where) is None, _mismatch(value, typed, where)


def test_every_game_types_its_observation_over_the_shared_keys():
    for name in game_names(unlisted=True):
        game = get_game(name)
        observation, view = game.observation_type, game.public_view_type
        assert is_typeddict(observation) and is_typeddict(view), name
        assert _keys(PublicView) <= _keys(view) <= _keys(observation), name
        assert _keys(Observation) <= _keys(observation), name
        # A seat sees all that a spectator sees, and its own keys besides.
        assert _keys(observation) - _keys(view) >= _keys(Observation) - _keys(PublicView), name


@pytest.mark.parametrize(("name", "seats"), list(_configs()))
def test_every_observation_has_exactly_its_types_keys_at_every_step(name, seats):
    game = get_game(name)
    steps = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_match(seed=seed, seats=seats)
        for hand in range(HANDS):
            while True:
                where = f"{name} seed {seed} hand {hand + 1} step {steps}"
                _check(game.public_view(state), game.public_view_type, f"{where} public view")
                for seat in range(seats):
                    obs = game.observation(state, seat)
                    _check(obs, game.observation_type, f"{where} seat {seat}")
                if game.hand_over(state):
                    break
                seat = rng.choice(game.to_move(state))
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
                steps += 1
            if game.match_over(state):
                break
            state = game.next_hand(state)
    assert steps > 0
