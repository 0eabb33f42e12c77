"""The repository's documents are complete in themselves: no link leaves the repository."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ["README.md", "games/engine/README.md", *sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")
)]  # fmt: skip
# [text](target) and <target>, outside code blocks.
LINK_RE = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|<((?:https?|mailto):[^>\s]+)>")
# A path written as code that climbs out of the repository, like `../shared/X.md`.
CLIMB_RE = re.compile(r"`(\.\./[^`]*)`")
# The only absolute addresses a reader follows: the site started by `make run` itself.
LOCAL = re.compile(r"^https?://(127\.0\.0\.1|localhost)(:\d+)?(/|$)")


def prose(text: str) -> str:
    """The text without fenced code blocks (commands and samples, not links)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_no_link_leaves_the_repository(name):
    path = ROOT / name
    text = prose(path.read_text(encoding="utf-8"))
    links = [a or b for a, b in LINK_RE.findall(text)]
    outside = []
    for link in links:
        if re.match(r"^[a-z][a-z0-9+.-]*:", link):
            if not LOCAL.match(link):
                outside.append(link)
            continue
        target = link.split("#", 1)[0]
        if not target:
            continue  # a heading of the same document
        resolved = (path.parent / target).resolve()
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            outside.append(link)
    outside += CLIMB_RE.findall(text)
    assert outside == [], f"{name} links outside the repository or to nothing: {outside}"


def test_the_readme_links_the_engine_contract_in_the_repository():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](games/engine/README.md)" in text
    engine = (ROOT / "games/engine/README.md").read_text(encoding="utf-8")
    assert "](../../docs/ENGINE_CONTRACT.md)" in engine
    for method in ("new_match", "legal_actions", "apply", "observation", "to_json"):
        assert f"`{method}(" in engine
