"""Requests the process cannot serve now are told so (503 and Retry-After), never a 500.

Every page request runs in a thread of its own and borrows a database connection from the
process's pool (``DB_POOL_SIZE``) for as long as it runs; the sockets' database thread, the
sockets' authentication and the review writer hold one each (``LIVE_CONNECTIONS``). Two things
keep a burst of requests (the outside review: 20 parallel sign-ups, 4–9 of them HTTP 500 with
a ``PoolTimeout``) from running the pool dry:

- ``Admission``, the first middleware, lets at most ``HTTP_DB_SLOTS`` page requests into
  Django at once (the pool less the live side's connections). The others wait here, on the
  event loop, holding no thread and no connection, and get the busy page after ``BUSY_WAIT``
  seconds: the pool then never has more borrowers than connections.
- ``release_connection`` gives a request's connection back before a password is hashed
  (PBKDF2: a few hundred milliseconds of CPU, under a burst several seconds), so the slots
  turn over at the pace of the database, not of the hasher.

A database error that still reaches a view (the pool timed out, the database is away) is
answered by ``DatabaseAway`` with the same page, with one warning line and no traceback.
The page names no user and reads nothing from the database.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import translation

log = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
# Seconds a client is asked to wait before trying again.
RETRY_AFTER = 5


def release_connection() -> None:
    """Give this thread's database connection back to the pool (or close it) before long work
    that needs none; the next query borrows one again. Inside a transaction it is kept."""
    if not connection.in_atomic_block:
        connection.close()


def busy_response(request) -> HttpResponse:
    language = translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE
    with translation.override(language):
        body = render_to_string("errors/busy.html", {"LANG": language})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class Admission:
    """At most ``settings.HTTP_DB_SLOTS`` page requests in Django's threads at once.

    Under ASGI only: a synchronous handler (the test client) has no loop to wait on and
    passes every request through."""

    async_capable = True
    sync_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)
        self._slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
        self._static = "/" + settings.STATIC_URL.lstrip("/")

    def __call__(self, request):
        if not self.async_mode:
            return self.get_response(request)
        return self._admit(request)

    async def _admit(self, request):
        if request.path_info.startswith(self._static):
            return await self.get_response(request)  # files: no database, no thread to spare
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:  # one per event loop: a semaphore waits on the loop it was used on
            slots = self._slots[loop] = asyncio.Semaphore(settings.HTTP_DB_SLOTS)
        try:
            await asyncio.wait_for(slots.acquire(), settings.BUSY_WAIT)
        except TimeoutError:
            log.warning("busy: a request waited %s s for a slot, told 503", settings.BUSY_WAIT)
            return busy_response(request)
        try:
            return await self.get_response(request)
        finally:
            slots.release()


class DatabaseAway:
    """A database error in a view: the busy page, not the 500 page and a traceback."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        log.warning(
            "database unavailable for %s %s, told 503: %s",
            request.method,
            request.path_info,
            type(exception).__name__,
        )
        return busy_response(request)
