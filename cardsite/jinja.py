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
"""

import functools

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext
from jinja2 import ChainableUndefined, Environment, Template
from markupsafe import Markup, escape

from games.templatetags.cards import hand_card, hand_reasons, playable_codes, table_card
from games.templatetags.numbers import signed


@functools.lru_cache(maxsize=4096)
def _translated(message: str, language: str | None) -> Markup:
    return Markup(gettext(message))


def say(message, **values) -> Markup:
    """A sentence of ``BOARD_WORDS`` with its values (escaped); ``n``, a number, chooses the
    plural."""
    return Markup(message % {k: v if isinstance(v, int) else escape(v) for k, v in values.items()})


def url(name: str, **kwargs) -> str:
    return reverse(name, kwargs=kwargs)


def iso(moment) -> str:
    """A moment for a script: ISO 8601 in the site's time zone (Django's ``|date:'c'``)."""
    return timezone.localtime(moment).isoformat()


class BoardTemplate(Template):
    """A board's render asks for the active language once: ``_`` and the cards are bound to
    it (a board has dozens of sentences and cards, and each lookup of the language costs a
    context-local read). Every render goes through here, so they are no globals."""

    def render(self, *args, **kwargs):
        context = dict(*args, **kwargs)
        language = get_language()
        context["_"] = functools.partial(_translated, language=language)
        context["table_card"] = functools.partial(table_card, language=language)
        context["hand_card"] = functools.partial(hand_card, language=language)
        return super().render(context)


class BoardEnvironment(Environment):
    """``a.b`` reads a dict's key first: a board's context is dicts (the presenters'), and the
    attribute tried first failed with an exception for each of them."""

    template_class = BoardTemplate

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    options["undefined"] = ChainableUndefined
    env = BoardEnvironment(**options)
    env.globals.update(say=say, url=url)
    env.filters.update(
        playable_codes=playable_codes, hand_reasons=hand_reasons, iso=iso, signed=signed
    )
    return env
