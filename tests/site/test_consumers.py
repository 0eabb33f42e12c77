"""The live channel through the real ASGI stack (origin check, session auth, language)."""

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from cardsite.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://localhost")


def session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


@pytest.fixture
def player(transactional_db):
    return get_user_model().objects.create_user("mei", password="Kartenspiel-2026")


async def test_a_foreign_origin_is_refused():
    comm = WebsocketCommunicator(
        application, "/ws/en/lobby/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected
    await comm.disconnect()


async def test_no_origin_is_refused():
    comm = WebsocketCommunicator(application, "/ws/en/lobby/")
    connected, _ = await comm.connect()
    assert not connected


async def test_anonymous_is_invited_to_play_and_closed_with_4401():
    comm = WebsocketCommunicator(application, "/ws/de/lobby/", headers=[ORIGIN])
    connected, _ = await comm.connect()
    assert connected  # accepted first, so the htmx extension does not retry forever
    text = await comm.receive_from()
    assert "Jetzt spielen" in text  # a game's button makes a guest: no log-in needed
    assert "Melde dich an" not in text
    assert 'data-state="login"' in text
    closed = await comm.receive_output()
    assert closed == {"type": "websocket.close", "code": 4401}
    await comm.disconnect()


@pytest.mark.parametrize(
    ("lang", "greeting"), [("en", "Live – connected as mei"), ("de", "Live – verbunden als mei")]
)
async def test_a_player_gets_messages_in_the_language_of_the_page(player, lang, greeting):
    from asgiref.sync import sync_to_async

    cookie = await sync_to_async(session_cookie)(player)
    comm = WebsocketCommunicator(application, f"/ws/{lang}/lobby/", headers=[ORIGIN, cookie])
    connected, _ = await comm.connect()
    assert connected
    text = await comm.receive_from()
    assert greeting in text
    assert 'hx-swap-oob="outerHTML"' in text

    # A lobby-wide notice arrives rendered in this socket's language.
    from channels.layers import get_channel_layer

    from games import realtime

    await get_channel_layer().group_send(realtime.lobby_group(), {"type": "lobby.notice"})
    notice = await comm.receive_from()
    assert (
        "In der Lobby gibt es Neues." if lang == "de" else "Something new happened in the lobby."
    ) in notice
    await comm.disconnect()


async def test_an_unknown_language_path_is_not_routed(player):
    comm = WebsocketCommunicator(application, "/ws/fr/lobby/", headers=[ORIGIN])
    with pytest.raises(ValueError):
        await comm.connect()


@pytest.mark.slow
async def test_an_idle_socket_survives_the_layers_blocking_pop(player):
    """With Redis, the layer blocks 5 s per receive; a read timeout as short as that used to
    kill idle consumers (redis-py 8). Idle for longer than one pop, then a notice arrives."""
    import asyncio

    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer

    from games import realtime

    cookie = await sync_to_async(session_cookie)(player)
    comm = WebsocketCommunicator(application, "/ws/en/lobby/", headers=[ORIGIN, cookie])
    assert (await comm.connect())[0]
    await comm.receive_from()
    await asyncio.sleep(6.5)  # the point of the test is time passing with nothing to read
    await get_channel_layer().group_send(realtime.lobby_group(), {"type": "lobby.notice"})
    assert "Something new happened" in await comm.receive_from(timeout=10)
    await comm.disconnect()
