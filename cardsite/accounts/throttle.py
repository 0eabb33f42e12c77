"""Login throttling: attempts per username and per client address, shared by every process.

An attempt is counted before its password is checked (see ``cardsite.ratelimit``): once the
username or the address has used up its attempts in the window, further attempts are refused
without a password check, so a guesser learns nothing and costs us no hashing. Counting first
is what keeps parallel guesses out: had we counted failures after the check, twenty guesses
sent at once would all have been checked before the first failure was recorded.

A successful login clears the username's count and gives its address's attempt back, so only
failed attempts use up the limits.
"""

from __future__ import annotations

import math

from django.conf import settings

from cardsite import ratelimit

Throttled = ratelimit.Exceeded


def _user(username: str) -> ratelimit.Limit:
    return ratelimit.Limit.of(
        "login-user", username, settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_FAILURE_WINDOW
    )


def _address(ip: str) -> ratelimit.Limit:
    return ratelimit.Limit.of(
        "login-ip", ip, settings.LOGIN_FAILURE_LIMIT * 4, settings.LOGIN_FAILURE_WINDOW
    )


def attempt(username: str, ip: str) -> list[ratelimit.Use]:
    """Count an attempt before its password is checked; raises ``Throttled``."""
    limits = [_address(ip)] if ip else []
    if username:
        limits.append(_user(username))
    return ratelimit.take(*limits)


def succeeded(username: str, uses: list[ratelimit.Use]) -> None:
    user = _user(username)
    ratelimit.reset(user)
    for use in uses:
        if use.name != user.name:
            use.give_back()


def minutes(seconds: int) -> int:
    return max(1, math.ceil(seconds / 60))
