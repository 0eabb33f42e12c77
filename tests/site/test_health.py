"""/healthz and /readyz, answered in front of Django."""

from unittest import mock

import pytest
from channels.testing import HttpCommunicator
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper

from cardsite.asgi import application
from games import live

pytestmark = pytest.mark.django_db(transaction=True)


async def get(path, method="GET", host=b"10.0.0.7"):
    # A balancer probes by address: the Host header is none of ALLOWED_HOSTS.
    comm = HttpCommunicator(application, method, path, headers=[(b"host", host)])
    return await comm.get_response(timeout=5)


def body(response):
    import json

    return json.loads(response["body"])


def header(response, name):
    return dict(response["headers"]).get(name)


async def test_liveness_answers_without_language_session_or_host_check():
    response = await get("/healthz")
    assert response["status"] == 200
    assert body(response) == {"status": "ok"}
    assert header(response, b"content-type") == b"application/json"
    assert header(response, b"set-cookie") is None


async def test_readiness_checks_the_database_and_the_channel_layer():
    response = await get("/readyz")
    assert response["status"] == 200, response["body"]
    assert body(response) == {"status": "ok", "database": "ok", "channel_layer": "ok"}


async def test_readiness_names_a_database_that_does_not_answer():
    with mock.patch.object(
        BaseDatabaseWrapper, "cursor", side_effect=OperationalError("connection refused")
    ):
        response = await get("/readyz")
    assert response["status"] == 503
    assert body(response) == {
        "status": "unavailable",
        "failed": ["database"],
        "database": "error",
        "channel_layer": "ok",
    }


async def test_readiness_names_a_channel_layer_that_does_not_answer():
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    with mock.patch.object(type(layer), "send", side_effect=ConnectionError("refused")):
        response = await get("/readyz")
    assert response["status"] == 503
    assert body(response)["failed"] == ["channel_layer"]


async def test_readiness_is_503_while_the_process_drains():
    with mock.patch.object(live.PROCESS, "draining", True):
        response = await get("/readyz")
        alive = await get("/healthz")
    assert response["status"] == 503
    assert body(response) == {"status": "draining"}
    assert alive["status"] == 200  # still alive: it is finishing its work


async def test_only_get_and_head():
    assert (await get("/readyz", "POST"))["status"] == 405
    head = await get("/healthz", "HEAD")
    assert head["status"] == 200
    assert head["body"] == b""


async def test_other_paths_still_reach_django():
    response = await get("/healthz/", host=b"127.0.0.1")
    assert response["status"] == 404  # Django's answer, not the health check's
