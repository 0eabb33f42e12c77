"""Login throttling, counted in the cache that every process shares.

Failures are counted per username and per client address within a sliding window; once
either count reaches its limit, further attempts are refused before the password is checked,
so a guesser learns nothing and costs us no hashing.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]
    return f"login-fail:{kind}:{digest}"


def _limits() -> dict[str, int]:
    per_user = settings.LOGIN_FAILURE_LIMIT
    return {"user": per_user, "ip": per_user * 4}


def blocked_for(username: str, ip: str) -> int:
    """Seconds until the next attempt is allowed, or 0 if it is allowed now."""
    limits = _limits()
    for kind, value in (("user", username), ("ip", ip)):
        if not value:
            continue
        key = _key(kind, value)
        if (cache.get(key) or 0) >= limits[kind]:
            first = cache.get(key + ":first") or _now()
            return max(1, settings.LOGIN_FAILURE_WINDOW - int(_now() - first))
    return 0


def record_failure(username: str, ip: str) -> None:
    window = settings.LOGIN_FAILURE_WINDOW
    for kind, value in (("user", username), ("ip", ip)):
        if not value:
            continue
        key = _key(kind, value)
        # add() only creates the counter; incr() is atomic on Redis, so two processes
        # counting at once never lose a failure.
        cache.add(key + ":first", _now(), timeout=window)
        cache.add(key, 0, timeout=window)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=window)


def clear(username: str) -> None:
    key = _key("user", username)
    cache.delete_many([key, key + ":first"])


def minutes(seconds: int) -> int:
    return max(1, math.ceil(seconds / 60))


def _now() -> float:
    return time.time()
