"""Requests the process cannot serve now get 503 with Retry-After, in the page's language, not
a 500 (``cardsite.busy``). The burst itself, on PostgreSQL with the production hasher, is a
fault test: tests/faults/test_burst.py."""

from __future__ import annotations

import asyncio
import logging
from unittest import mock

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from cardsite import busy
from cardsite.accounts.hashers import PBKDF2ReleasingHasher


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "sentence"),
    [("en", "Busy for a moment"), ("de", "Gerade viel los")],
)
def test_a_database_error_in_a_view_is_the_busy_page_with_retry_after(
    client, caplog, lang, sentence
):
    failing = mock.patch(
        "games.models.Table.objects.filter", side_effect=OperationalError("pool timeout")
    )
    with failing, caplog.at_level(logging.WARNING):
        response = client.get(f"/{lang}/")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    page = response.content.decode()
    assert sentence in page and f'<html lang="{lang}">' in page
    # One line said it, without a traceback.
    records = [r for r in caplog.records if r.name == "cardsite.busy"]
    assert len(records) == 1 and records[0].exc_info is None


def test_beyond_its_slots_a_request_waits_then_is_told_503(settings):
    settings.HTTP_DB_SLOTS = 1
    settings.BUSY_WAIT = 0.2
    request = RequestFactory().get("/de/lobby")

    async def scenario():
        release = asyncio.Event()
        entered = []

        async def view(req):
            entered.append(req)
            await release.wait()
            return HttpResponse("served")

        admit = busy.Admission(view)
        first = asyncio.create_task(admit(request))
        while not entered:  # the first request holds the one slot
            await asyncio.sleep(0)
        second = await admit(request)  # waits BUSY_WAIT for a slot, then is turned away
        assert len(entered) == 1
        release.set()
        served = await first
        third = await admit(request)  # the slot is free again
        return served, second, third

    served, second, third = asyncio.run(scenario())
    assert served.status_code == 200 and third.status_code == 200
    assert second.status_code == 503 and second["Retry-After"]
    assert "Gerade viel los" in second.content.decode()


def test_static_files_are_not_held_at_the_door(settings):
    settings.HTTP_DB_SLOTS = 1
    settings.BUSY_WAIT = 0.05
    calls = []

    async def scenario():
        hold = asyncio.Event()

        async def view(req):
            calls.append(req.path)
            if not req.path.startswith("/static/"):
                await hold.wait()
            return HttpResponse("ok")

        admit = busy.Admission(view)
        page = asyncio.create_task(admit(RequestFactory().get("/en/")))
        while not calls:
            await asyncio.sleep(0)
        css = await admit(RequestFactory().get("/static/css/site.css"))
        hold.set()
        await page
        return css

    assert asyncio.run(scenario()).status_code == 200


def test_the_hasher_gives_the_connection_back_before_it_hashes():
    hasher = PBKDF2ReleasingHasher()
    with mock.patch("cardsite.accounts.hashers.release_connection") as released:
        encoded = hasher.encode("Kartenspiel-2026!", hasher.salt(), iterations=1000)
        assert released.call_count == 1
        assert hasher.verify("Kartenspiel-2026!", encoded)
        assert released.call_count == 2
    # Django's own algorithm and name: hashes made before stay valid.
    assert encoded.startswith("pbkdf2_sha256$1000$")
