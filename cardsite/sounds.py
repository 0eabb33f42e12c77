"""The table's sounds (static/sounds/*.wav), made here from tones and noise: the project's own,
under the project's licence. ``python -m cardsite.sounds`` writes them again, byte for byte
the same (the noise is seeded); static/js/feel.js plays them when the player turns sound on.

Each is 8-bit mono at 8 kHz, a few KB: a card laid down, a trick taken, your turn, a bomb,
the end of a hand.
"""

from __future__ import annotations

import io
import math
import random
import wave
from pathlib import Path

RATE = 8000
OUT = Path(__file__).resolve().parent.parent / "static" / "sounds"


def _tone(freq: float, seconds: float, decay: float, volume: float = 0.5) -> list[float]:
    """A bell-like tone: a sine and its octave, fading away."""
    n = int(RATE * seconds)
    return [
        volume
        * math.exp(-decay * i / RATE)
        * (math.sin(2 * math.pi * freq * i / RATE) + 0.3 * math.sin(4 * math.pi * freq * i / RATE))
        / 1.3
        for i in range(n)
    ]


def _noise(
    seconds: float, decay: float, smooth: float, seed: int, volume: float = 0.6
) -> list[float]:
    """A burst of noise, low-passed (``smooth`` near 1: duller), fading away."""
    rnd = random.Random(seed)
    n = int(RATE * seconds)
    out, level = [], 0.0
    for i in range(n):
        level = smooth * level + (1 - smooth) * rnd.uniform(-1, 1)
        out.append(volume * math.exp(-decay * i / RATE) * level / (1 - smooth) ** 0.5 / 3)
    return out


def _mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Sounds laid over each other, each from its start (seconds)."""
    n = max(int(at * RATE) + len(s) for at, s in parts)
    out = [0.0] * n
    for at, s in parts:
        start = int(at * RATE)
        for i, v in enumerate(s):
            out[start + i] += v
    return out


def _attack(samples: list[float], seconds: float = 0.004) -> list[float]:
    """A few milliseconds' fade in: no click at the start."""
    n = max(1, int(RATE * seconds))
    return [v * min(1.0, i / n) for i, v in enumerate(samples)]


def sounds() -> dict[str, list[float]]:
    return {
        "card": _attack(_noise(0.07, 60, 0.35, seed=1, volume=1.4)),
        "trick": _mix(
            (0.0, _attack(_noise(0.09, 40, 0.5, seed=2, volume=1.2))),
            (0.07, _attack(_noise(0.12, 30, 0.6, seed=3, volume=1.2))),
        ),
        "turn": _mix(
            (0.0, _attack(_tone(880, 0.16, 18, 0.35))),
            (0.12, _attack(_tone(1320, 0.26, 12, 0.35))),
        ),
        "bomb": _attack(
            [
                a + b
                for a, b in zip(
                    _noise(0.45, 9, 0.93, seed=4, volume=1.2),
                    _tone(70, 0.45, 8, 0.45),
                    strict=True,
                )
            ],
            0.01,
        ),
        "end": _mix(
            (0.0, _attack(_tone(1047, 0.2, 14, 0.3))),
            (0.1, _attack(_tone(1319, 0.2, 14, 0.3))),
            (0.2, _attack(_tone(1568, 0.3, 10, 0.3))),
        ),
    }


def wav(samples: list[float]) -> bytes:
    """8-bit unsigned PCM, mono, clipped."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(RATE)
        w.writeframes(bytes(max(0, min(255, round(128 + 127 * v))) for v in samples))
    return buf.getvalue()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, samples in sounds().items():
        data = wav(samples)
        (OUT / f"{name}.wav").write_bytes(data)
        print(f"static/sounds/{name}.wav: {len(data)} bytes")


if __name__ == "__main__":
    main()
