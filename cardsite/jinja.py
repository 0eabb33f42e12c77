"""The template environment of the live boards (Jinja2; every other page is Django's language).

A board is drawn once per shown move and per socket: a Gong Zhu board in Django's language
took 1.1–1.3 ms, most of it the language's general cost per tag and variable, the most
expensive step of a live action after its transaction. Jinja2 compiles a template to Python.

The words: ``_("…")`` for a sentence, its placeholders filled with ``|format(name=…)``
(the translation and the filled-in values both escaped, as Django's tags do). Written so,
``makemessages`` finds them as it finds them in Django's templates (the Makefile lists the
.jinja files); a sentence with a plural form is made in Python (``ngettext``), not in a board.
"""

import functools

from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import get_language, gettext, ngettext
from jinja2 import Environment, Undefined
from markupsafe import Markup

from games.templatetags.cards import hand_card, hand_reasons, playable_codes, table_card


@functools.lru_cache(maxsize=4096)
def _translated(message: str, language: str | None) -> Markup:
    return Markup(escape(gettext(message)))


def translate(message: str) -> Markup:
    """The sentence in the active language, escaped (a translation holds no markup)."""
    return _translated(message, get_language())


def url(name: str, **kwargs) -> str:
    return reverse(name, kwargs=kwargs)


def iso(moment) -> str:
    """A moment for a script: ISO 8601 in the site's time zone (Django's ``|date:'c'``)."""
    return timezone.localtime(moment).isoformat()


def cards_left(n: int) -> str:
    return ngettext("%(n)s card left", "%(n)s cards left", n) % {"n": n}


def watching(n: int) -> str:
    return ngettext("%(n)s watching", "%(n)s watching", n) % {"n": n}


class BoardEnvironment(Environment):
    """``a.b`` reads a dict's key first: a board's context is dicts (the presenters'), and the
    attribute tried first failed with an exception for each of them."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    options["undefined"] = Undefined  # a missing value is empty, as in Django's language
    env = BoardEnvironment(**options)
    env.globals.update(
        _=translate,
        url=url,
        table_card=table_card,
        hand_card=hand_card,
        cards_left=cards_left,
        watching=watching,
    )
    env.filters.update(playable_codes=playable_codes, hand_reasons=hand_reasons, iso=iso)
    return env
