"""Errors to Sentry, when the operator names a DSN (``SENTRY_DSN``); nothing otherwise.

sentry-sdk with its Django integration (channels' consumers are covered by its ASGI
support). ``scrub`` runs on every event before it leaves the process: a hand in play must not
end up in an error tracker, so every value under a key that holds cards or game state
(``card``, ``cards``, ``state``, ``hand``, ``observation``, … – the frames' keys and the engine's)
is replaced, wherever it sits in the event: a frame in a local variable of a traceback, a
request's body, a breadcrumb's data, a log message's ``extra``. No personal data is sent
(``send_default_pii`` off: no cookies, no user's address).
"""

from __future__ import annotations

import re

SCRUBBED = "[scrubbed]"

# Keys whose values are cards or game state, in frames, observations, the engine's state and
# the site's models; matched without regard to case.
SECRET_KEYS = frozenset(
    {
        "card",
        "cards",
        "state",
        "hand",
        "hands",
        "observation",
        "deal",
        "legal",
        "combo",
        "selected",
        "hint",
        "text_data",
        "data",
        "task",
        # What a password, a session or a token may be called.
        "password",
        "password1",
        "password2",
        "sessionid",
        "csrftoken",
        "csrfmiddlewaretoken",
        "cookie",
        "authorization",
        "token",
        "invite",
        "secret_key",
    }
)
# The engines' card codes (games.engine.cards: a rank then a suit, "TS", "2C", or a joker,
# "BJ", "RJ") in a string not under such a key: a message, or the repr of an object in a
# traceback's variables (Sentry sends those as text).
CARD_CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|BJ|RJ)\b")
MAX_DEPTH = 20


def _scrub(value, depth: int = 0):
    if depth > MAX_DEPTH:
        return SCRUBBED
    if isinstance(value, dict):
        return {
            k: SCRUBBED if isinstance(k, str) and k.lower() in SECRET_KEYS else _scrub(v, depth + 1)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_scrub(v, depth + 1) for v in value]
    if isinstance(value, str):
        return CARD_CODE.sub("[card]", value)
    return value


def scrub(event: dict, hint: dict | None = None) -> dict:
    """Sentry's ``before_send`` (and ``before_send_transaction``): the event without cards,
    game state or credentials."""
    return _scrub(event)


def init(dsn: str, environment: str = "production", release: str | None = None, **options) -> bool:
    """Start reporting to Sentry if ``dsn`` is set; False (nothing started) otherwise.
    ``options`` go to ``sentry_sdk.init`` as they are (a test's transport)."""
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        integrations=[DjangoIntegration()],
        send_default_pii=False,
        before_send=scrub,
        before_send_transaction=scrub,
        before_breadcrumb=lambda crumb, hint: _scrub(crumb),
        traces_sample_rate=0.0,
        **options,
    )
    return True
