"""A learned value of a Dou Dizhu position: how likely the landlord is to win from here
(issue 47; trained by ``manage.py train doudizhu``, ``games/bench/doudizhu_train.py``).

A position is what a playout sees: the three hands as rank counts, whose turn it is, the
landlord, and the play to beat (its owner and key) if any. It is read from the landlord's
side (the landlord, the peasant after them, the peasant before them), so one model serves
every seat. The model is a small network: the position as about fifty active inputs of
``FEATURES``, one hidden layer of rectified units, and two outputs: the chance that the
landlord wins when the hand is played on by the cheap random policy (``fast_move``) and by
Normal's policy. Hard mixes the first with Normal's playout (``HardBot(value=W)``): seeing
every hand, that mixture (with eight cheap playouts instead of the model) was the only
evaluation that moved Hard's ceiling against RLCard's rule agent (notes of session 29).

The weights are a JSON file beside this module (``WEIGHTS``); numpy evaluates them. Nothing
here draws a random number or reads anything but that file.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from games.bots.doudizhu_plan import is_control, plan
from games.engine.doudizhu.combos import KINDS, NRANKS

WEIGHTS = Path(__file__).with_name("doudizhu_value.json")

ROLES = 3  # the landlord, the peasant after them, the peasant before them
MAX_CARDS = 20
# Where each group of inputs starts.
_COUNTS = 0  # role x rank x count 1..4
_LEFT = _COUNTS + ROLES * NRANKS * 4  # role x cards left 1..20
_TURN = _LEFT + ROLES * MAX_CARDS  # the role to move
_OWNER = _TURN + ROLES  # the role whose play is to beat, or none
_KIND = _OWNER + ROLES + 1  # the play to beat: its kind
_LOW = _KIND + len(KINDS)  # its lowest rank
_SIZE = _LOW + NRANKS  # its number of cards 1..20
# Each hand's plan (``doudizhu_plan``: as few plays as it splits into): how many plays, how
# many of them win the lead back (2s, jokers, bombs), and the difference.
MAX_PLAYS = 15
_PLAYS = _SIZE + MAX_CARDS  # role x plays 1..15
_CONTROLS = _PLAYS + ROLES * MAX_PLAYS  # role x controls 0..4
_SPARE = _CONTROLS + ROLES * 5  # role x plays less controls, -4..11
FEATURES = _SPARE + ROLES * 16
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}

# The outputs: the cheap policy's playouts, Normal's.
CHEAP, NORMAL = 0, 1


def encode(hands, turn: int, landlord: int, table) -> list[int]:
    """The active inputs of a position. ``table``: ``(owner, key)`` of the play to beat
    (``combos.move_key``), or None when ``turn`` leads."""
    out = []
    for role in range(ROLES):
        hand = hands[(landlord + role) % 3]
        base = _COUNTS + role * NRANKS * 4
        left = 0
        for rank in range(NRANKS):
            n = hand[rank]
            if n:
                out.append(base + rank * 4 + min(n, 4) - 1)
                left += n
        if left:
            out.append(_LEFT + role * MAX_CARDS + min(left, MAX_CARDS) - 1)
            (plays, _), units = plan(tuple(hand))
            controls = min(4, sum(1 for unit in units if is_control(unit)))
            out.append(_PLAYS + role * MAX_PLAYS + min(plays, MAX_PLAYS) - 1)
            out.append(_CONTROLS + role * 5 + controls)
            out.append(_SPARE + role * 16 + max(-4, min(11, plays - controls)) + 4)
    out.append(_TURN + (turn - landlord) % 3)
    if table is None:
        out.append(_OWNER + ROLES)
    else:
        owner, (kind, low, _length, size) = table
        out.append(_OWNER + (owner - landlord) % 3)
        out.append(_KIND + KIND_INDEX[kind])
        out.append(_LOW + low)
        out.append(_SIZE + min(size, MAX_CARDS) - 1)
    return out


class Value:
    """The network: ``w1`` (FEATURES x hidden), ``b1``, ``w2`` (hidden x 2), ``b2``."""

    def __init__(self, weights: dict):
        self.w1 = np.asarray(weights["w1"], dtype=np.float64)
        self.b1 = np.asarray(weights["b1"], dtype=np.float64)
        self.w2 = np.asarray(weights["w2"], dtype=np.float64)
        self.b2 = np.asarray(weights["b2"], dtype=np.float64)
        if self.w1.shape[0] != FEATURES:
            raise ValueError(f"weights for {self.w1.shape[0]} inputs, not {FEATURES}")

    def landlord_wins(self, hands, turn: int, landlord: int, table, head: int = CHEAP) -> float:
        """The chance that the landlord wins from this position."""
        hidden = self.w1[encode(hands, turn, landlord, table)].sum(axis=0) + self.b1
        np.maximum(hidden, 0.0, out=hidden)
        logit = float(hidden @ self.w2[:, head] + self.b2[head])
        return 1.0 / (1.0 + np.exp(-logit))

    def to_json(self) -> dict:
        return {
            "features": FEATURES,
            "w1": np.round(self.w1, 5).tolist(),
            "b1": np.round(self.b1, 5).tolist(),
            "w2": np.round(self.w2, 5).tolist(),
            "b2": np.round(self.b2, 5).tolist(),
        }


@functools.cache
def shipped() -> Value:
    """The weights shipped with the site (``WEIGHTS``)."""
    with WEIGHTS.open() as f:
        return Value(json.load(f))
