"""The template environment of the live boards (Jinja2; every other page is Django's language).

A board is drawn once per shown move and per socket: a Gong Zhu board in Django's language
took 1.1–1.3 ms, most of it the language's general cost per tag and variable, the most
expensive step of a live action after its transaction. Jinja2 compiles a template to Python.

The words: ``_("…")`` for a sentence, its placeholders filled with ``|format(name=…)`` (the
values escaped, the translation trusted, as in Django's tags). Written so, ``makemessages``
finds them as it finds them in Django's templates (the Makefile lists the .jinja files). A
sentence with a plural form or a context is the plug-in's (``BOARD_WORDS``, lazy, in Python,
where ``makemessages`` finds it), drawn with ``say(words.key, n=…)``.

What is missing is empty, ``a.b.c`` of a missing ``a`` too, as in Django's language: the page
and the socket give a board slightly different contexts (the socket's has a hint).

A board's regions (``games/frames.py``) are ``{% region name by a, b %}…{% endregion %}``:
the region's markers around its markup, drawn only when its inputs (``a, b``: everything
the markup reads) are new. Each drawing is kept by the template, the region, the language and
the inputs' ``repr`` (``DRAWN``), and every later board of any socket of this process with the
same inputs reuses it: a bot's move draws again only the regions it changed, and a region
every viewer sees alike (the trick, a seat) is drawn once for all of them. Before the store,
a socket's own last board (``games.frames.Seen``, handed in as ``_seen``): a region whose
inputs equal those it had there is taken as it was, its inputs neither written out nor looked
up (a bot's reply changes three or four of a board's regions). A region without ``by`` is
drawn every time. The inputs must be complete: the frames' conformance suite
(tests/games/test_frames.py) draws many boards with and without ``DRAWN`` and compares.
"""

import contextlib
import functools
import threading
import types
from collections.abc import Mapping

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext
from jinja2 import ChainableUndefined, Environment, Template, nodes
from jinja2.ext import Extension
from jinja2.runtime import Context, Macro
from markupsafe import Markup, escape

from games.frames import NOTHING_SEEN, Seen
from games.templatetags.cards import hand_card, hand_reasons, playable_codes, table_card
from games.templatetags.numbers import signed


@functools.lru_cache(maxsize=4096)
def _translated(message: str, language: str | None) -> Markup:
    return Markup(gettext(message))


def say(message, **values) -> Markup:
    """A sentence of ``BOARD_WORDS`` with its values (escaped); ``n``, a number, chooses the
    plural."""
    return Markup(message % {k: v if isinstance(v, int) else escape(v) for k, v in values.items()})


def omit(mapping: Mapping, *keys: str) -> dict:
    """``mapping`` without ``keys``: a region's inputs without what its markup never reads (a
    seat's count and turn, in a place that shows neither), so that a change of those leaves
    the region as it was drawn."""
    return {k: v for k, v in mapping.items() if k not in keys}


def url(name: str, **kwargs) -> str:
    return reverse(name, kwargs=kwargs)


def iso(moment) -> str:
    """A moment for a script: ISO 8601 in the site's time zone (Django's ``|date:'c'``)."""
    return timezone.localtime(moment).isoformat()


class Drawn:
    """The regions drawn in this process, by template, region, language and inputs: a
    bounded store (emptied when full: a table's regions of a few versions back are not drawn
    again), shared by the database's thread and the sockets' own (a dict's get and set are
    atomic; two threads drawing the same region at once both draw it, alike)."""

    MOST = 4096

    def __init__(self) -> None:
        self.regions: dict[tuple, tuple] = {}  # key -> (markup, its inner regions' entries)
        self.lock = threading.Lock()

    def get(self, key: tuple) -> tuple | None:
        return self.regions.get(key)

    def put(self, key: tuple, html: tuple) -> tuple:
        if len(self.regions) >= self.MOST:
            with self.lock:
                if len(self.regions) >= self.MOST:
                    self.regions = {}
        self.regions[key] = html
        return html

    def clear(self) -> None:
        self.regions = {}


DRAWN = Drawn()


class RegionExtension(Extension):
    """``{% region name by a, b, … %}…{% endregion %}`` (see the module's docstring)."""

    tags = {"region"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        name = parser.parse_expression()
        inputs = []
        if parser.stream.skip_if("name:by"):
            inputs.append(parser.parse_expression())
            while parser.stream.skip_if("comma"):
                inputs.append(parser.parse_expression())
        body = parser.parse_statements(("name:endregion",), drop_needle=True)
        args = [
            nodes.Const(parser.name),
            name,
            nodes.Name("_language", "load"),  # BoardTemplate.render's (a lookup costs)
            nodes.Const(bool(inputs)),
            nodes.Tuple(inputs, "load"),
        ]
        return nodes.CallBlock(self.call_method("_region", args), [], [], body).set_lineno(lineno)

    @staticmethod
    def _region(template, name, language, keyed, inputs, caller) -> Markup:
        seen, drawing = CURRENT.seen, CURRENT.drawing
        if not keyed:
            html = caller()
        else:
            last = seen.get(name)
            if last is not None and last[0] == inputs:
                entry = last
            else:
                key = (template, name, language, repr(inputs))
                kept = DRAWN.get(key)
                if kept is None:
                    drawing.enter()
                    try:
                        body = caller()
                    finally:
                        inner = drawing.leave()
                    kept = DRAWN.put(key, (body, inner))
                entry = (inputs, kept[0], kept[1])
            drawing.add(name, entry)
            html = entry[1]
        return Markup(f"<!--region {name}-->{html}<!--/region {name}-->")


class BoardTemplate(Template):
    """A board's render asks for the active language once: ``_`` and the cards are bound to
    it (a board has dozens of sentences and cards, and each lookup of the language costs a
    context-local read). Every render goes through here, so they are no globals."""

    def render(self, *args, **kwargs):
        context = dict(*args, **kwargs)
        context.update(helpers(get_language()))
        with drawing_for(context.get("_seen", NOTHING_SEEN), context.get("_drawing") or Seen()):
            return super().render(context)


def helpers(language: str) -> dict:
    """What every board's markup has in reach besides its own inputs: the words and cards
    in the active language."""
    return {
        "_language": language,
        "_": functools.partial(_translated, language=language),
        "table_card": functools.partial(table_card, language=language),
        "hand_card": functools.partial(hand_card, language=language),
    }


class _Current(threading.local):
    """The board being drawn in this thread: the regions of the socket's last board
    (``seen``) and those of this one (``drawing``), which every region tag reads."""

    seen: Mapping = NOTHING_SEEN
    drawing: Seen | None = None


CURRENT = _Current()


@contextlib.contextmanager
def drawing_for(seen, drawing: Seen):
    before = CURRENT.seen, CURRENT.drawing
    CURRENT.seen, CURRENT.drawing = seen, drawing
    try:
        yield
    finally:
        CURRENT.seen, CURRENT.drawing = before


class Parts:
    """A board's parts (``games.tables.base.Plan``), each drawn by its macro alone: a macro of
    the game's parts template, else of the shared board's (``games/_board.jinja``), called
    with its arguments and nothing else in reach but the helpers and the game's ``words``.
    So a part's markup depends on its arguments only, and a socket compares those before
    any template runs (``games.views_live``). The whole board draws its parts through the
    same macros (its skeleton calls ``part(name)``)."""

    SHARED = "games/_board.jinja"
    # The two modules of each parts template and language, made once: by the templates
    # themselves (a template changed on disk, in development, is a new one).
    MODULES: dict[tuple, tuple] = {}

    def __init__(self, env: Environment, template: str, words, seen, drawing: Seen) -> None:
        language = get_language()
        own, shared = env.get_template(template), env.get_template(self.SHARED)
        key = (own, shared, language)
        modules = self.MODULES.get(key)
        if modules is None:
            values = helpers(language)
            values["words"] = words  # the game's own (its template is the game's)
            modules = self.MODULES[key] = (own.make_module(values), shared.make_module(values))
        self.modules, self.seen, self.drawing = modules, seen, drawing

    def draw(self, macro: str, args: tuple) -> Markup:
        own, shared = self.modules
        with drawing_for(self.seen, self.drawing):
            return (getattr(own, macro, None) or getattr(shared, macro))(*args)


# What a board's markup calls: its macros, the helpers (``functools.partial``), plain functions.
PLAIN_CALLABLES = frozenset(
    {Macro, functools.partial, types.FunctionType, types.BuiltinFunctionType}
)


class BoardContext(Context):
    """Jinja calls everything a template calls through ``Context.call``, which looks at each
    callable (and at its ``__call__``) for a mark that it takes the context first: hundreds
    of checks a board. A macro, a ``partial`` or a plain function takes the context only
    when it carries the mark itself (``jinja_pass_arg``): those without it are called at once,
    as ``Context.call`` would call them; everything else goes through it."""

    def call(__self, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        if type(__obj) in PLAIN_CALLABLES and not hasattr(__obj, "jinja_pass_arg"):
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            try:
                return __obj(*args, **kwargs)
            except StopIteration:
                return __self.environment.undefined(
                    "value was undefined because a callable raised a StopIteration exception"
                )
        return super().call(__obj, *args, **kwargs)


class BoardEnvironment(Environment):
    """``a.b`` reads a dict's key first: a board's context is dicts (the presenters'), and the
    attribute tried first failed with an exception for each of them. Calls go through
    ``BoardContext``."""

    template_class = BoardTemplate
    context_class = BoardContext

    def parts(self, template: str, words, seen, drawing) -> Parts:
        """A board's parts' drawer (``Parts``): the machinery reaches it through the template
        engine, as it reaches the boards."""
        return Parts(self, template, words, seen, drawing)

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    options["undefined"] = ChainableUndefined
    options["extensions"] = [*options.get("extensions", ()), RegionExtension]
    env = BoardEnvironment(**options)
    env.globals.update(say=say, url=url)
    env.filters.update(
        playable_codes=playable_codes,
        hand_reasons=hand_reasons,
        iso=iso,
        signed=signed,
        omit=omit,
    )
    return env
