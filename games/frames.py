"""What a table's socket sends: the whole board, or only the regions of it that changed.

A board template marks its regions: ``<!--region X-->`` and ``<!--/region X-->`` around one
element whose id is ``X`` (always there while the markers are; a region that comes and goes
puts its markers inside the condition). Everything else of the board is its skeleton.

Each socket keeps the last frame it sent (``Frames``). When the next board has the same
skeleton, apart from the board element's own attributes (version, phase, whose turn), the
socket sends a patch instead: a ``<template data-patch data-base="V">`` holding the new board
element's opening tag and those of the regions where nothing but the element's own
attributes changed (a seat that became the one to move: the page sets them in place), then
the regions whose HTML changed, each swapped by its id (the htmx ws extension swaps every
top-level element of a message into the element with its id).
Regions nest: a region whose own markup (its inner regions cut out) is the same apart from
its opening tag sends only that tag and what changed inside it; an inner region that is gone
(a card played from the hand) is deleted by its id (``hx-swap-oob="delete"``), and new ones
(cards drawn) are inserted before the inner region that follows them
(``hx-swap-oob="beforebegin:#X"``, in a wrapper of the element's kind whose children go in)
or at the element's end (``beforeend``).
Regions named in ``ALWAYS`` go with every patch: the page's own script writes into them too.
A region whose element carries ``data-grows`` (a log) sends only its new children when it
grew by them at either end (swapped ``afterbegin`` or ``beforeend``), else itself.

``data-base`` is the version the patch was made against: a page whose board has another
version (it missed a frame) applies nothing and asks for the whole board (``resync``), which
the socket sends, starting over. A connect, a reconnect and a resync start with a whole board,
and so does a Hint's answer (its selection replaces the page's own, which no patch knows).
A board whose skeleton changed goes whole after an empty patch head: applied only on the
board it follows, like any patch. The markers themselves never leave the server (``shown``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

BETWEEN_TAGS = re.compile(r">\s{2,}<")
ROOT = re.compile(r'<div id="board"[^>]*>')
MARKER = re.compile(r"<!--/?region [\w-]+-->")
OPENING_MARKER = re.compile(r"<!--region ([\w-]+)-->")
OPEN_MARKER = "<!--region "
ALWAYS = frozenset({"toast"})
PATCH = '<template data-patch data-base="{base}">{root}</div>{tags}</template>'
# Before each of the moves on their way sent with a move's answer (``Frames.ahead``): when
# the page shows it, in milliseconds after the message came (static/js/table.js).
AFTER = '<template data-after="{ms}"></template>'
AFTER_MARK = re.compile(r'<template data-after="(\d+)"></template>')
OPENING = re.compile(r"<([a-zA-Z][\w-]*)[^>]*>")
# An element's closing tag and what may follow it in a skeleton: whitespace, cut regions.
CLOSING = re.compile(r"</[a-zA-Z][\w-]*>(?:\s|<!--region [\w-]+-->)*")


def lean(html: str) -> str:
    """The board's markup without its templates' indentation: whitespace between two tags
    becomes one space, which a browser draws the same (the boards have no preformatted
    text), in a frame of about two thirds the size."""
    return BETWEEN_TAGS.sub("> <", html)


def _cut(html: str) -> tuple[str, dict[str, str]]:
    """``html`` with its outermost regions cut down to their opening markers, and those.

    Each region runs from its opening marker to the first closing marker of its name (a
    marker of a malformed name, or one never closed, is left as it is), found with
    ``str.find``: a regular expression with a lazy body and a back-reference tried the
    closing marker at every character, at every level of nesting (two thirds of a frame's
    encoding)."""
    regions: dict[str, str] = {}
    out: list[str] = []
    pos = scan = 0
    while (start := html.find(OPEN_MARKER, scan)) >= 0:
        marker = OPENING_MARKER.match(html, start)
        if marker is None:
            scan = start + 1
            continue
        name = marker.group(1)
        closing = f"<!--/region {name}-->"
        end = html.find(closing, marker.end())
        if end < 0:
            scan = marker.end()
            continue
        out.append(html[pos:start])
        out.append(marker.group(0))
        regions[name] = html[marker.end() : end]
        pos = scan = end + len(closing)
    out.append(html[pos:])
    return "".join(out), regions


def inside(html: str, name: str) -> str:
    """A region's markup without its markers (``html`` is the region, markers and all)."""
    opening, closing = f"<!--region {name}-->", f"<!--/region {name}-->"
    if not (html.startswith(opening) and html.endswith(closing)):
        raise ValueError(f"a part draws one region, {name!r}, and nothing else")
    return html[len(opening) : len(html) - len(closing)]


def split(html: str) -> tuple[str, str, dict[str, str]]:
    """A frame's board opening tag, its skeleton (regions and that tag cut out) and regions."""
    root = ROOT.search(html)
    if root is None:
        return "", html, {}
    skeleton, regions = _cut(html[: root.start()] + "<!--root-->" + html[root.end() :])
    return root.group(0), skeleton, regions


@dataclass(frozen=True)
class Patch:
    """A board drawn as parts against a socket's last board (``games.tables.base.Plan``):
    its opening tag, the parts whose arguments changed and the regions that go with every
    patch (``ALWAYS``; name -> the region's markup, its markers cut off), the socket's
    ``Seen`` it was compared with (``base``), and how to draw it whole after all (a frame
    sent meanwhile changed the socket's last board): () -> (html, its ``Seen.drawn``)."""

    root: str
    changed: dict[str, str]
    base: Mapping
    whole: Callable[[], tuple[str, Mapping]] = field(compare=False, repr=False)


class Frames:
    """The frames one socket has sent: the last board, to send only what changes after it."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.skeleton: str | None = None
        self.regions: dict[str, str] = {}
        self.version: int | None = None
        self.seen: Mapping[str, tuple] = NOTHING_SEEN  # the last board's ``Seen.drawn``

    def message(self, frame) -> str:
        """The message for a frame (``games.views_live.Frame``): its parts as a patch when
        they were drawn against this socket's last board, else its board encoded."""
        patch = frame.parts
        if patch is None:
            return self.encode(frame.html, frame.version, frame.drawn)
        if self.version is None or self.seen is not patch.base:
            html, drawn = patch.whole()
            return self.encode(html, frame.version, drawn)
        tags: list[str] = []
        changed: list[str] = []
        _inner_diffs(self.regions, patch.changed, tags, changed)
        self.regions.update(patch.changed)
        message = PATCH.format(base=self.version, root=patch.root, tags="".join(tags))
        self.version, self.seen = frame.version, frame.drawn
        return shown(message + "".join(changed))

    def ahead(self, steps, now: float) -> str:
        """The moves on their way (``views_live.Frame.ahead``: (when, frame) pairs) as one
        message's tail: each step's message after an ``AFTER`` mark saying when it shows,
        ``now`` being when the message goes (seconds since the epoch). The page applies them
        in order, each at its time, and all at once when another board comes first."""
        return "".join(
            AFTER.format(ms=max(0, round((at - now) * 1000))) + self.message(frame)
            for at, frame in steps
        )

    def encode(self, html: str, version: int, drawn: Mapping | None = None) -> str:
        """The message for this frame: a patch against the last board sent, or ``html``.
        ``drawn``: that board's regions as drawn (``Seen.drawn``), which the socket's next
        board takes where their inputs are equal (``seen``)."""
        if drawn is not None:
            self.seen = drawn
        root, skeleton, regions = split(html)
        if not root:
            return shown(html)  # no board (a refusal's toast alone): nothing to remember
        moved = None
        if self.version is not None and self.skeleton is not None:
            # The board element stands for itself in its skeleton, to insert regions at its end.
            board = root + skeleton.partition("<!--root-->")[2]
            moved = _moves(self.skeleton, self.regions, skeleton, regions, board)
        if moved is not None:
            tags: list[str] = []
            changed = moved
            _inner_diffs(self.regions, regions, tags, changed)
            message = PATCH.format(base=self.version, root=root, tags="".join(tags))
            message += "".join(changed)
        elif self.version is not None:
            # The board's shape changed (a new phase: the kitty shown, a hand over): the whole
            # board, but as a patch of the last one: it applies on that board only, and the
            # page knows it follows it (what moved can move: the kitty turns over).
            message = PATCH.format(base=self.version, root=root, tags="") + html
        else:
            message = html
        self.skeleton, self.regions, self.version = skeleton, regions, version
        return shown(message)


def shown(html: str) -> str:
    """A frame as the page gets it: the regions' markers are the server's own, to diff by."""
    return MARKER.sub("", html)


def _moves(
    own_old: str, inner_old: dict[str, str], own_new: str, inner_new: dict[str, str], element: str
) -> list[str] | None:
    """The deletions and insertions that turn the old regions inside an element into the new
    ones, when the element's own markup (``own_*``, its regions cut out; ``element`` is
    ``own_new`` with its opening tag) kept its shape apart from them; else None."""
    gone = [name for name in inner_old if name not in inner_new]
    added = [name for name in inner_new if name not in inner_old]
    for name in gone:
        own_old = own_old.replace(f"<!--region {name}-->", "", 1)
    for name in added:
        own_new = own_new.replace(f"<!--region {name}-->", "", 1)
    if own_old != own_new:
        return None
    inserts = _insertions(element, inner_new, added) if added else []
    if inserts is None:
        return None
    deletes = []
    for name in gone:
        tag = OPENING.match(inner_old[name])
        kind = tag.group(1) if tag else "div"
        deletes.append(f'<{kind} id="{name}" hx-swap-oob="delete"></{kind}>')
    return deletes + inserts


def _diff(old: str | None, new: str, tags: list[str], changed: list[str]) -> None:
    """What a patch carries for a region that changed: opening tags (``tags``), and elements
    to swap, insert or delete (``changed``)."""
    own_old, inner_old = _cut(old) if old is not None else ("", {})
    if inner_old:
        own_new, inner_new = _cut(new)
        moved = _moves(_body(own_old), inner_old, _body(own_new), inner_new, own_new)
        if moved is not None:
            if _tag_alone(own_old) != _tag_alone(own_new):
                tags.append(_tag_alone(own_new))
            changed.extend(moved)
            _inner_diffs(inner_old, inner_new, tags, changed)
            return
    tag = _retagged(old, new)
    if tag is not None:
        tags.append(tag)
    else:
        changed.append(_changed(old, new))


def _inner_diffs(
    inner_old: dict[str, str], inner_new: dict[str, str], tags: list[str], changed: list[str]
) -> None:
    """What a patch carries for the regions kept inside an element (new ones are inserted by
    ``_moves``): those that changed, and those the page writes into too (``ALWAYS``)."""
    for name, part in inner_new.items():
        old = inner_old.get(name)
        if name in ALWAYS:
            changed.append(part)
        elif old is not None and old != part:
            _diff(old, part, tags, changed)


def _insertions(own: str, inner: dict[str, str], added: list[str]) -> list[str] | None:
    """The inner regions ``added`` to an element (its own markup ``own``, inner regions cut
    out), each run of them inserted right before the inner region that follows it or at the
    element's end; None when one sits anywhere else (next to text of the element's own)."""
    opening = OPENING.match(own)
    parent = re.search(r'\sid="([\w-]+)"', opening.group(0)) if opening else None
    if parent is None:
        return None
    kind, ident, end = opening.group(1), parent.group(1), own.rfind("</")
    if not CLOSING.fullmatch(own, end):
        end = -1  # the element's end is not its last closing tag: only insert before others
    new = set(added)
    out: list[str] = []
    run: list[str] = []
    last = -1

    def close_run(before: str | None) -> None:
        swap = f"beforebegin:#{before}" if before else f"beforeend:#{ident}"
        out.append(f'<{kind} id="{before or ident}" hx-swap-oob="{swap}">{"".join(run)}</{kind}>')
        run.clear()

    for marker in OPENING_MARKER.finditer(own):
        name = marker.group(1)
        if run and marker.start() != last:
            if last != end:
                return None  # something of the element's own after the new ones
            close_run(None)
        if name in new:
            run.append(inner[name])
            last = marker.end()
        elif run:
            close_run(name)
    if run:
        if last != end:
            return None
        close_run(None)
    return out


def _body(markup: str) -> str:
    """An element's markup after its opening tag."""
    opening = OPENING.match(markup)
    return markup[opening.end() :] if opening else markup


def _tag_alone(markup: str) -> str:
    """An element's opening tag, closed again (a patch's head sets its attributes in place)."""
    opening = OPENING.match(markup)
    return f"{opening.group(0)}</{opening.group(1)}>"


def _retagged(old: str | None, new: str) -> str | None:
    """The element's new opening tag alone, when nothing else of it changed."""
    if old is None or not OPENING.match(new) or _body(old) != _body(new):
        return None
    return _tag_alone(new)


def _changed(old: str | None, new: str) -> str:
    """What a patch carries for a region that changed: the region, or what it gained."""
    head_end, tail_start = new.find(">") + 1, new.rfind("</")
    opening = new[:head_end]
    if old is None or "data-grows" not in opening:
        return new
    if old[: old.find(">") + 1] != opening or old[old.rfind("</") :] != new[tail_start:]:
        return new
    inner_old = old[old.find(">") + 1 : old.rfind("</")]
    inner_new = new[head_end:tail_start]
    closing = new[tail_start:]
    if inner_new.endswith(inner_old):  # newest first: the new children come before the rest
        added, where = inner_new[: len(inner_new) - len(inner_old)], "afterbegin"
    elif inner_new.startswith(inner_old):
        added, where = inner_new[len(inner_old) :], "beforeend"
    else:
        return new
    return f'{opening[:-1]} hx-swap-oob="{where}">{added}{closing}'


class Seen:
    """The regions of a board as drawn, by name: each region's inputs, its markup and the
    regions inside it. A socket keeps its last board's (``Frames.seen``) and its next board
    takes a region whose inputs are equal as it was, without writing the inputs out
    (``repr``) or looking in the process's store (``cardsite.jinja.DRAWN``): a bot's reply
    changes three or four of a board's fifteen to twenty regions. ``drawn`` is filled by the
    board's render. Equal inputs draw equal markup, as for the store: the inputs are complete,
    which the frames' conformance suite checks through a socket's ``Seen`` too."""

    __slots__ = ("drawn", "_open")

    def __init__(self) -> None:
        self.drawn: dict[str, tuple] = {}  # name -> (inputs, markup, inner: ((name, entry), …))
        self._open: list[list] = []  # the inner regions of the regions being drawn

    def enter(self) -> None:
        """A region's markup is being drawn: the regions added until ``leave`` are inside it."""
        self._open.append([])

    def leave(self) -> tuple:
        """The regions drawn inside the region ``enter`` began, as (name, entry) pairs."""
        return tuple(self._open.pop())

    def add(self, name: str, entry: tuple) -> None:
        """A region of this board: drawn, or taken with its inner regions as they were."""
        self.drawn[name] = entry
        if self._open:
            self._open[-1].append((name, entry))
        for inner in entry[2]:
            self._keep(inner)

    def _keep(self, inner: tuple) -> None:
        name, entry = inner
        self.drawn[name] = entry
        for deeper in entry[2]:
            self._keep(deeper)


NOTHING_SEEN: Mapping[str, tuple] = MappingProxyType({})  # no board yet: every region drawn
