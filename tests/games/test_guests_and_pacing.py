import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from cardsite.accounts.models import profile_for
from games import services, views_live
from games.engine import get_game
from games.models import ActionLog, Table
from games.registry import table_game

pytestmark = pytest.mark.django_db
GAME = get_game("gongzhu")


def test_play_now_makes_a_guest_and_seats_them(client):
    response = client.post("/en/play/gongzhu/", {"level": "hard"})
    assert response.status_code == 302
    table = Table.objects.get()
    assert response.url == f"/en/tables/{table.code}/"
    user = table.seats.get(index=0).user
    assert profile_for(user).is_guest and not user.has_usable_password()
    assert {s.bot_level for s in table.seats.all() if s.is_bot} == {"hard"}
    assert client.get(response.url).status_code == 200


def test_guest_creation_is_rate_limited_per_address(client, settings):
    settings.GUEST_LIMIT_PER_HOUR = 2
    from django.test import Client

    for _ in range(2):
        assert Client().post("/en/play/gongzhu/").status_code == 302
    response = Client().post("/en/play/gongzhu/", follow=True)
    assert "Too many guest games" in response.content.decode()
    assert Table.objects.count() == 2


def test_signing_up_keeps_the_guests_matches(client):
    client.post("/en/play/gongzhu/")
    table = Table.objects.get()
    guest = table.owner
    response = client.post(
        "/en/accounts/signup/",
        {
            "username": "mina",
            "email": "",
            "password1": "Kartenspiel-2026",
            "password2": "Kartenspiel-2026",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="mina")
    assert user.pk == guest.pk
    assert not profile_for(user).is_guest
    assert (
        "mina" in client.get("/en/matches/").content.decode()
        or client.get("/en/matches/").status_code == 200
    )
    assert table.code.hex[:8] in client.get("/en/matches/").content.decode().replace("-", "")


def test_stale_guests_are_deleted_with_their_matches(client):
    client.post("/en/play/gongzhu/")
    guest = Table.objects.get().owner
    long_ago = timezone.now() - timedelta(days=40)
    get_user_model().objects.filter(pk=guest.pk).update(date_joined=long_ago, last_login=long_ago)
    active = get_user_model().objects.get(pk=guest.pk)
    call_command("delete_stale_guests", "--days", "30")
    assert get_user_model().objects.filter(pk=active.pk).exists()  # played recently: kept
    Table.objects.update(updated_at=long_ago)
    keeper = get_user_model().objects.create_user("kept", password="x")
    get_user_model().objects.filter(pk=keeper.pk).update(
        date_joined=timezone.now() - timedelta(days=40)
    )
    call_command("delete_stale_guests", "--days", "30")
    assert not get_user_model().objects.filter(pk=guest.pk).exists()
    assert not Table.objects.exists()
    assert get_user_model().objects.filter(pk=keeper.pk).exists()


def test_bots_are_paced_and_fast_forward_skips_the_pauses(settings, django_user_model, clock):
    settings.GAME_PACING = True
    owner = django_user_model.objects.create_user("ren", password="x")
    rng = random.Random(1)
    table = services.create_table(owner, "gongzhu", "easy")
    for _ in range(30):
        shown = services.get_table(table.code)
        state = GAME.from_json(shown.state)
        if 0 not in GAME.to_move(state):
            break  # the bots are to move, as the table shows
        services.submit_action(
            table.code, owner, rng.choice(GAME.legal_actions(state, 0)), shown.version
        )
    table.refresh_from_db()
    # Their moves are due (the driver's) or already made and on their way (``reveal``).
    on_their_way = getattr(shown, "next_shown_at", None)
    due = on_their_way or table.bot_due_at.timestamp()
    assert due > timezone.now().timestamp() + 0.3  # a pause a person can follow
    fast = re.compile(r'<span class="slot" id="fast"( hidden)?>')
    html, _v = views_live.snapshot(table.code, owner, "en")
    assert fast.search(html).group(1) is None  # the button shows while the bots move
    services.fast_forward(table.code, owner)
    table.refresh_from_db()
    assert table.reveal is None  # whatever was on its way shows now
    if not on_their_way:
        assert table.hurry and table.bot_due_at <= timezone.now()
    services.run_bots(table.code)
    table.refresh_from_db()
    assert not table.hurry  # back to the player: pacing resumes
    shown = services.get_table(table.code)
    assert shown.version == table.version and 0 in GAME.to_move(GAME.from_json(shown.state))
    html, _v = views_live.snapshot(table.code, owner, "en")
    assert fast.search(html).group(1) == " hidden"  # and the button is hidden again


def test_a_paced_move_and_its_replies_work_out_each_public_view_once(
    settings, django_user_model, clock, monkeypatch
):
    """The bots' pause compares the public view before and after each move: in a transaction
    of several moves, the view after one is the view before the next, worked out once."""
    settings.GAME_PACING = True
    owner = django_user_model.objects.create_user("pace-views", password="x")
    table = services.create_table(owner, "gongzhu", "easy")
    views = []
    engine = table_game("gongzhu").engine  # the services' own
    real_view = engine.public_view
    monkeypatch.setattr(engine, "public_view", lambda s: views.append(1) or real_view(s))
    replied = 0
    for _ in range(40):
        shown = services.get_table(table.code)
        state = GAME.from_json(shown.state)
        if 0 not in GAME.to_move(state):
            clock.to(timezone.now() + timedelta(seconds=60))
            services.run_bots(table.code)
            continue
        views.clear()
        logged = ActionLog.objects.count()
        services.submit_action(table.code, owner, GAME.legal_actions(state, 0)[0], shown.version)
        moves = ActionLog.objects.count() - logged  # the player's move and the replies with it
        assert len(views) <= moves + 1  # not two per move
        replied += moves > 1
    assert replied >= 3
