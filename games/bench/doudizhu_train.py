"""Training Dou Dizhu's learned value (``games/bots/doudizhu_value.py``), for ``manage.py
train doudizhu``.

Data: hands dealt from a seed (the landlord half the time the seat whose hand Normal rates
strongest, as the bidding tends to make it, half the time any seat, as RLCard's matches fix
it) and played by Normal's policy with a quarter of the plays by the cheap one (so that the
positions are not only Normal's); a share of the positions on the way is kept, each with two
labels: whether the landlord wins when the hand is played on from there by the cheap policy
(a random playout) and by Normal's (its deterministic playout). The data comes in chunks of
games, each a file of its own named by the seed and its number: a run stopped part way goes
on where it stopped, and the same seed and command make the same files.

Training: a network of one hidden layer (``doudizhu_value.Value``), both outputs at once, by
Adam on the mean log-loss, a tenth of the positions held out (by game, not by position) to say
how well it predicts what it never saw. Deterministic from the seed.
"""

from __future__ import annotations

import multiprocessing
import random
from pathlib import Path

import numpy as np

from games.bots import doudizhu as bots
from games.bots.doudizhu_value import FEATURES, KIND_INDEX, WEIGHTS, Value, encode
from games.engine.doudizhu.combos import BJ, KINDS, NRANKS

__all__ = ["WEIGHTS", "load", "make_data", "train"]

GAMES_PER_CHUNK = 200
KEEP = 0.3  # the share of the positions on the way kept
CHEAP_SHARE = 0.25  # the plays of the games themselves made by the cheap policy


def _deal(rng: random.Random):
    deck = [r for r in range(NRANKS) for _ in range(4 if r < BJ else 1)]
    rng.shuffle(deck)
    hands = [[0] * NRANKS for _ in range(3)]
    for i, r in enumerate(deck[:51]):
        hands[i % 3][r] += 1
    if rng.random() < 0.5:
        landlord = rng.randrange(3)
    else:
        landlord = max(range(3), key=lambda s: (bots.hand_strength(hands[s]), rng.random()))
    for r in deck[51:]:
        hands[landlord][r] += 1
    return hands, landlord


def _landlord_wins(hands, turn, landlord, table, passes, bombs, rng, smart) -> int:
    """1 if the landlord wins when ``turn`` moves now and the hand is played out by a policy."""
    first = bots._policy(hands, turn, landlord, table, rng, smart)
    points = bots._play_on(hands, landlord, landlord, turn, first, table, passes, bombs, rng, smart)
    return 1 if points > 0 else 0


def play_games(seed: int, chunk: int, games: int = GAMES_PER_CHUNK):
    """One chunk: the kept positions (``_row``), their two labels and their game's number."""
    rng = random.Random(f"doudizhu-value:{seed}:{chunk}")
    rows, labels, game_of = [], [], []
    for g in range(games):
        hands, landlord = _deal(rng)
        turn, table, passes, bombs = landlord, None, 0, 0
        for _ in range(200):
            if rng.random() < KEEP:
                rows.append(_row(hands, turn, landlord, table))
                labels.append(
                    (
                        _landlord_wins(hands, turn, landlord, table, passes, bombs, rng, False),
                        _landlord_wins(hands, turn, landlord, table, passes, bombs, rng, True),
                    )
                )
                game_of.append(chunk * games + g)
            smart = rng.random() >= CHEAP_SHARE
            move = bots._policy(hands, turn, landlord, table, rng, smart)
            table, passes, bombs = bots._step(hands, turn, move, table, passes, bombs)
            if move is not None and not any(hands[turn]):
                break
            turn = (turn + 1) % 3
    return rows, labels, game_of


# A position as a row of small numbers, kept as the data (the inputs are worked out from it
# when training, so that they may change without playing the games again): the three hands'
# rank counts, whose turn, the landlord, the play to beat's owner (-1: none), kind, lowest
# rank, length and number of cards.
ROW = 3 * NRANKS + 7


def _row(hands, turn, landlord, table) -> list[int]:
    if table is None:
        rest = [-1, 0, 0, 0, 0]
    else:
        owner, (kind, low, length, size) = table
        rest = [owner, KIND_INDEX[kind], low, length, size]
    return [*hands[0], *hands[1], *hands[2], turn, landlord, *rest]


def position(row) -> tuple:
    """``(hands, turn, landlord, table)`` of a row."""
    row = [int(x) for x in row]
    hands = [row[0:NRANKS], row[NRANKS : 2 * NRANKS], row[2 * NRANKS : 3 * NRANKS]]
    turn, landlord, owner, kind, low, length, size = row[3 * NRANKS :]
    table = None if owner < 0 else (owner, (KINDS[kind], low, length, size))
    return hands, turn, landlord, table


def _chunk_path(work: Path, seed: int, chunk: int) -> Path:
    return work / f"seed{seed}-chunk{chunk:05d}.npz"


def _make_chunk(args) -> str:
    work, seed, chunk = args
    rows, labels, game_of = play_games(seed, chunk)
    path = _chunk_path(Path(work), seed, chunk)
    tmp = path.with_suffix(".part.npz")
    np.savez_compressed(
        tmp,
        rows=np.asarray(rows, dtype=np.int8).reshape(-1, ROW),
        y=np.asarray(labels, dtype=np.uint8).reshape(-1, 2),
        game=np.asarray(game_of, dtype=np.int64),
    )
    tmp.rename(path)
    return str(path)


def make_data(work: Path, seed: int, chunks: int, jobs: int = 1, progress=None) -> list[Path]:
    """The chunks ``0 .. chunks-1`` of the seed's data, made where missing."""
    work.mkdir(parents=True, exist_ok=True)
    todo = [(str(work), seed, c) for c in range(chunks) if not _chunk_path(work, seed, c).exists()]
    if todo:
        if jobs > 1:
            with multiprocessing.get_context("spawn").Pool(jobs) as pool:
                for path in pool.imap_unordered(_make_chunk, todo):
                    if progress:
                        progress(path)
        else:
            for args in todo:
                path = _make_chunk(args)
                if progress:
                    progress(path)
    return [_chunk_path(work, seed, c) for c in range(chunks)]


def load(paths) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chunks' positions as inputs (``encode``), their labels and their games' numbers."""
    rows, ys, gs = [], [], []
    for p in paths:
        with np.load(p) as d:
            rows.append(d["rows"])
            ys.append(d["y"])
            gs.append(d["game"])
    rows = np.concatenate(rows)
    X = np.zeros((len(rows), FEATURES), dtype=np.uint8)
    for i, row in enumerate(rows):
        X[i, encode(*position(row))] = 1
    return X, np.concatenate(ys), np.concatenate(gs)


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def train(
    X: np.ndarray,
    Y: np.ndarray,
    games: np.ndarray,
    *,
    seed: int = 1,
    hidden: int = 64,
    epochs: int = 8,
    batch: int = 256,
    lr: float = 1e-3,
    l2: float = 1e-5,
    progress=None,
) -> tuple[Value, dict]:
    """The network trained on (X, Y), and its held-out log-loss per output (and a constant
    guess's, for comparison)."""
    rs = np.random.default_rng(seed)
    held = (games % 10) == 0
    Xt, Yt = X[~held].astype(np.float32), Y[~held].astype(np.float32)
    Xv, Yv = X[held].astype(np.float32), Y[held].astype(np.float32)
    w1 = rs.normal(0, np.sqrt(2.0 / 60), (FEATURES, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rs.normal(0, np.sqrt(1.0 / hidden), (hidden, 2)).astype(np.float32)
    b2 = np.zeros(2, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0

    def forward(x):
        h = x @ w1 + b1
        np.maximum(h, 0, out=h)
        return h, 1 / (1 + np.exp(-(h @ w2 + b2)))

    report = {}
    for epoch in range(epochs):
        order = rs.permutation(len(Xt))
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            x, y = Xt[idx], Yt[idx]
            h, p = forward(x)
            d_out = (p - y) / len(idx)  # log-loss through the sigmoid
            g_w2 = h.T @ d_out + l2 * w2
            g_b2 = d_out.sum(axis=0)
            d_h = (d_out @ w2.T) * (h > 0)
            g_w1 = x.T @ d_h + l2 * w1
            g_b1 = d_h.sum(axis=0)
            step += 1
            for i, g in enumerate((g_w1, g_b1, g_w2, g_b2)):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mh = m[i] / (1 - 0.9**step)
                vh = v[i] / (1 - 0.999**step)
                params[i] -= lr * mh / (np.sqrt(vh) + 1e-8)
        _h, pv = forward(Xv)
        report = {
            "epoch": epoch + 1,
            "held_out": int(len(Xv)),
            "trained_on": int(len(Xt)),
            "cheap": _log_loss(pv[:, 0], Yv[:, 0]),
            "normal": _log_loss(pv[:, 1], Yv[:, 1]),
            "cheap_constant": _log_loss(np.full(len(Yv), Yt[:, 0].mean()), Yv[:, 0]),
            "normal_constant": _log_loss(np.full(len(Yv), Yt[:, 1].mean()), Yv[:, 1]),
        }
        if progress:
            progress(report)
    return Value({"w1": w1, "b1": b1, "w2": w2, "b2": b2}), report
