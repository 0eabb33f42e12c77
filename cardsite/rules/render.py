"""Markdown written in the admin, turned into HTML that is safe to show to players.

The order matters: Markdown first, then nh3 removes everything not on the allowlist
(scripts, event attributes, ``javascript:`` links, raw HTML of any kind). Only after that
do card codes and worked examples become HTML, built here from escaped values, so nothing
an editor types can add markup of its own.

Card codes are the engine's two-character codes in brackets: ``[QS]``, ``[TC]``, ``[BJ]``.
A worked example is a block::

    ::: example gongzhu taken="QS AH 5H" exposed="" score="-160"
    The pig, the heart ace and the heart five: −100 − 50 − 10.
    :::

Its attributes land on the figure as ``data-*`` attributes, so tests can recompute every
example with the game's engine (``tests/rules/test_examples.py``).
"""

from __future__ import annotations

import html
import re
import uuid
from dataclasses import dataclass, field

import markdown
import nh3
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.registry import table_game
from games.tables.common import card_name
from games.templatetags.numbers import signed

CARD_RE = re.compile(r"\[([2-9TJQKA][SHDC]|BJ|RJ)\]")
# Cards written next to each other ("[6S] [6H] [6D]") form one play: keep it on one line.
CARD_RUN_RE = re.compile(
    r"\[(?:[2-9TJQKA][SHDC]|BJ|RJ)\](?:[ \t\u00a0]*\[(?:[2-9TJQKA][SHDC]|BJ|RJ)\])*"
)
NOWRAP_RUN = 6
# ⟨…⟩ marks what the admin still has to fill in (the operator's details on the legal pages).
# Staff see the placeholders highlighted; the public sees "not yet provided" in their place,
# and never a quoted block that holds one (the editors' note explaining them).
PLACEHOLDER_RE = re.compile(r"⟨[^⟨⟩<>]*⟩")
EDITORS_NOTE_RE = re.compile(r"<blockquote>(?:(?!</blockquote>).)*?⟨.*?</blockquote>\s*", re.DOTALL)
PARAGRAPH_RE = re.compile(r"<p>((?:(?!</p>).)*)</p>", re.DOTALL)
EXAMPLE_RE = re.compile(
    r"^:::[ \t]*example[ \t]+(?P<game>\w+)(?P<attrs>[^\n]*)\n(?P<text>.*?)^:::[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
ATTR_RE = re.compile(r'([\w-]+)\s*=\s*"([^"]*)"')
CODE_RE = re.compile(r"^([2-9TJQKA][SHDC]|BJ|RJ)$")

BLOCK_TAGS = {
    "p", "br", "h2", "h3", "h4", "ul", "ol", "li", "strong", "em", "a", "code", "pre",
    "blockquote", "table", "thead", "tbody", "tr", "th", "td", "hr", "kbd", "abbr",
}  # fmt: skip
INLINE_TAGS = {"strong", "em", "a", "code", "kbd", "br"}
ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "h2": {"id"}, "h3": {"id"}}
URL_SCHEMES = {"http", "https", "mailto"}

SUITS = {"S": ("♠", "black"), "C": ("♣", "black"), "H": ("♥", "red"), "D": ("♦", "red")}


def card_label(code: str) -> str:
    """The card's name in the active language, as a screen reader says it (one place for
    card names: the tables use the same)."""
    return card_name(code)


def card_html(code: str) -> SafeString:
    """A small inline card: rank and suit in the suit's colour, named for screen readers."""
    if code in ("BJ", "RJ"):
        colour = "black" if code == "BJ" else "red"
        return format_html(
            '<span class="pc pc--{} pc--joker" data-card="{}" role="img" aria-label="{}">'
            '<span class="pc__rank">★</span><span class="pc__suit">{}</span></span>',
            colour,
            code,
            card_label(code),
            _("Joker"),
        )
    symbol, colour = SUITS[code[1]]
    return format_html(
        '<span class="pc pc--{}" data-card="{}" role="img" aria-label="{}">'
        '<span class="pc__rank">{}</span><span class="pc__suit">{}</span></span>',
        colour,
        code,
        card_label(code),
        "10" if code[0] == "T" else code[0],
        symbol,
    )


def cards_html(codes: list[str]) -> SafeString:
    return format_html_join("", "{}", ((card_html(c),) for c in codes))


def _replace_cards(fragment: str) -> str:
    """Card codes in text become cards and ⟨placeholders⟩ are highlighted; tags, attributes
    and code spans stay as they are. The text is already escaped, so matches hold no markup."""

    def change(text: str) -> str:
        text = PLACEHOLDER_RE.sub(r'<mark class="placeholder">\g<0></mark>', text)
        return CARD_RUN_RE.sub(_run_html, text)

    return _outside_code(fragment, change)


def _run_html(match: re.Match) -> str:
    codes = CARD_RE.findall(match.group(0))
    if len(codes) == 1:
        return card_html(codes[0])
    css = "pc-run pc-run--nowrap" if len(codes) <= NOWRAP_RUN else "pc-run"
    return format_html('<span class="{}">{}</span>', css, cards_html(codes))


def sanitize(html_text: str, tags: set[str] = BLOCK_TAGS) -> str:
    return nh3.clean(
        html_text,
        tags=tags,
        attributes={k: v for k, v in ATTRIBUTES.items() if k in tags},
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
    )


def _markdown(text: str, toc: bool = False) -> tuple[str, list[dict]]:
    extensions = ["tables", "sane_lists"]
    if toc:
        extensions.append("toc")
    md = markdown.Markdown(extensions=extensions, output_format="html")
    converted = md.convert(text)
    return converted, (getattr(md, "toc_tokens", []) if toc else [])


def render_inline(text: str) -> SafeString:
    """One line of Markdown (a key point, a caption) without the surrounding paragraph."""
    converted, _toc = _markdown(text)
    converted = re.sub(r"^<p>|</p>$", "", converted.strip())
    return mark_safe(_replace_cards(sanitize(converted, INLINE_TAGS)))


def hide_placeholders(fragment: str) -> str:
    """The public's view of sanitized HTML: an editors' note (a quoted block holding a
    placeholder) goes, a paragraph of nothing but placeholders becomes one "not yet
    provided" line, and any other placeholder the words "not yet provided"."""
    fragment = EDITORS_NOTE_RE.sub("", fragment)

    def paragraph(match: re.Match) -> str:
        rest = PLACEHOLDER_RE.sub("", match.group(1))
        if PLACEHOLDER_RE.search(match.group(1)) and not re.sub(r"<br\s*/?>|\s", "", rest):
            return format_html('<p class="not-provided">{}</p>', _("Not yet provided."))
        return match.group(0)

    fragment = PARAGRAPH_RE.sub(paragraph, fragment)
    inline = format_html('<span class="not-provided">{}</span>', _("(not yet provided)"))
    return _outside_code(fragment, lambda text: PLACEHOLDER_RE.sub(lambda _m: inline, text))


def _outside_code(fragment: str, change) -> str:
    """``change`` applied to the text of ``fragment`` outside tags and code spans/blocks."""
    out = []
    in_code = 0
    for part in re.split(r"(<[^>]*>)", fragment):
        if part.startswith("<"):
            tag = re.match(r"</?(\w+)", part)
            if tag and tag.group(1) in ("code", "pre"):
                in_code += -1 if part.startswith("</") else 1
            out.append(part)
        else:
            out.append(part if in_code else change(part))
    return "".join(out)


def count_placeholders(fragment: str) -> int:
    found = []
    _outside_code(fragment, lambda text: found.extend(PLACEHOLDER_RE.findall(text)) or text)
    return len(found)


@dataclass
class Rendered:
    html: SafeString
    toc: list[tuple[str, SafeString]] = field(default_factory=list)
    examples: int = 0
    errors: list[str] = field(default_factory=list)
    placeholders: int = 0  # ⟨…⟩ still to fill in (shown only to staff)


def render(text: str, toc: bool = False, placeholders: bool = True) -> Rendered:
    """A page body or an FAQ answer: Markdown, sanitized, with cards and worked examples.

    ``placeholders=False`` is the public's view: ⟨…⟩ placeholders read "not yet provided"
    and the editors' notes about them are left out (``hide_placeholders``)."""
    nonce = uuid.uuid4().hex
    blocks: list[str] = []
    errors: list[str] = []

    def stash(match: re.Match) -> str:
        try:
            blocks.append(example_html(match.group("game"), match.group("attrs"), match["text"]))
        except ValueError as exc:
            errors.append(str(exc))
            blocks.append(format_html('<p class="example-error">{}</p>', str(exc)))
        return f"\n\nRULESEXAMPLE{nonce}X{len(blocks) - 1}\n\n"

    source = EXAMPLE_RE.sub(stash, text.replace("\r\n", "\n"))
    converted, tokens = _markdown(source, toc=toc)
    cleaned = sanitize(converted)
    found = count_placeholders(cleaned)
    if not placeholders:
        cleaned = hide_placeholders(cleaned)
    safe = _replace_cards(cleaned)

    def unstash(match: re.Match) -> str:
        return blocks[int(match.group(1))]

    safe = re.sub(rf"(?:<p>)?RULESEXAMPLE{nonce}X(\d+)(?:</p>)?", unstash, safe)
    entries = [
        (t["id"], mark_safe(nh3.clean(html.unescape(t["name"]), tags=set())))
        for t in tokens
        if t.get("level") == 2
    ]
    return Rendered(mark_safe(safe), entries, len(blocks), errors, found)


# Worked examples ------------------------------------------------------------------------


def _cards(value: str, what: str) -> list[str]:
    codes = value.split()
    bad = [c for c in codes if not CODE_RE.match(c)]
    if bad:
        raise ValueError(
            _("Unknown card code in %(what)s: %(codes)s") % {"what": what, "codes": " ".join(bad)}
        )
    return codes


def _int(attrs: dict, key: str) -> int:
    try:
        return int(attrs[key])
    except (KeyError, ValueError):
        raise ValueError(
            _("The example needs a whole number for %(key)s.") % {"key": key}
        ) from None


def _yes(value: str) -> bool:
    return value.strip().lower() in ("1", "yes", "true", "ja")


def example_html(game: str, attr_text: str, text: str) -> SafeString:
    attrs = dict(ATTR_RE.findall(attr_text))
    caption = render_inline(" ".join(text.split())) if text.strip() else ""
    try:
        example = table_game(game).example
    except KeyError:
        example = None
    if example is None:
        raise ValueError(_("Unknown game in example: %(game)s") % {"game": game})
    data, body, result = example(attrs, KIT)
    return format_html(
        '<figure class="example" data-game="{}" {}><div class="example__label">{}</div>'
        "{}<figcaption>{}</figcaption>{}</figure>",
        game,
        format_html_join(" ", 'data-{}="{}"', data.items()),
        _("Worked example"),
        body,
        caption,
        format_html('<p class="example__result">{}</p>', result) if result else "",
    )


class ExampleKit:
    """What a game's worked examples are drawn with (``games/tables/<game>/examples.py``):
    checked attributes and the rule pages' own card chips."""

    cards = staticmethod(lambda value, what: _cards(value, what))
    integer = staticmethod(lambda attrs, key: _int(attrs, key))
    yes = staticmethod(lambda value: _yes(value))
    signed = staticmethod(lambda value: signed(value))
    cards_html = staticmethod(lambda codes: cards_html(codes))
    rows = staticmethod(lambda rows: _rows(rows))
    seat_label = staticmethod(lambda seat, winner, played: _seat_label(seat, winner, played))


KIT = ExampleKit()


def _rows(rows) -> SafeString:
    return format_html_join(
        "",
        '<p class="example__row"><span class="example__key">{}</span> <span class="example__cards">{}</span></p>',
        rows,
    )


def _seat_label(seat: int, winner: int, played: bool) -> SafeString:
    # Counted from 1, as the table's own seat choice counts them (the attributes count from 0).
    label = _("Seat %(n)d") % {"n": seat + 1}
    note = _("out first") if seat == winner else ("" if played else _("never played"))
    if not note:
        return format_html("{}", label)
    return format_html('{}<small class="example__note">{}</small>', label, note)
