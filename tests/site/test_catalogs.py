"""Both catalogs are complete: no untranslated and no fuzzy entry."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_catalog_is_complete(lang):
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    text = po.read_text()
    assert "#, fuzzy" not in text, "fuzzy entries need a translator's look"
    if shutil.which("msgfmt"):
        out = subprocess.run(
            ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
            capture_output=True,
            text=True,
            check=True,
        ).stderr
        assert "untranslated" not in out, out
        assert "fuzzy" not in out, out
    # Independent of gettext: every msgid has a non-empty msgstr.
    entries = re.split(r"\n\n", text)
    for entry in entries[1:]:
        if entry.startswith("#~"):
            continue
        assert re.search(r'msgstr(\[\d\])? "(?!")|msgstr(\[\d\])? ""\n"', entry), entry
