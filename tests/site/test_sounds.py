"""The table's sounds are the project's own: made by cardsite/sounds.py, small, and the files
shipped are what it makes."""

import wave
from pathlib import Path

from cardsite import sounds


def test_the_shipped_sounds_are_the_scripts_and_a_few_kb_each():
    made = sounds.sounds()
    assert set(made) == {"card", "trick", "turn", "bomb", "end"}
    for name, samples in made.items():
        data = sounds.wav(samples)
        shipped = Path(sounds.OUT / f"{name}.wav").read_bytes()
        assert shipped == data, f"static/sounds/{name}.wav: run python -m cardsite.sounds"
        assert len(data) <= 6 * 1024
        with wave.open(str(sounds.OUT / f"{name}.wav")) as w:
            assert 0.05 <= w.getnframes() / w.getframerate() <= 0.6
