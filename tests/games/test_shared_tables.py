"""Tables for people: seating, starting, several people playing, timers, auto-play, leaving,
presence, watchers and what happens to the history when an account goes.

Every change goes through the services under the table's lock; these tests drive them
directly, from threads released together where two things race.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import driver, services, views, views_live
from games.models import ActionLog, Presence, Seat, Table
from games.registry import table_game, table_games
from tests.games.test_races import at_once

pytestmark = pytest.mark.django_db(transaction=True)
PLAYABLE = [g.name for g in table_games() if g.playable]
CARD = re.compile(r'data-card="(\w\w)"')


def user(name):
    return get_user_model().objects.create_user(name, password="Kartenspiel-2026")


def fresh(table) -> Table:
    return services.get_table(table.code)


def state_of(table):
    table = fresh(table)
    return table_game(table.game).engine.from_json(table.state)


def two_people(game="gongzhu", **kwargs):
    """A started table: ren (host, seat 0) and mia (seat 1), computer players elsewhere."""
    ren, mia = user("ren"), user("mia")
    seats = table_game(game).info.default_seats
    plan = ["person", "person"] + ["easy"] * (seats - 2)
    table = services.create_shared_table(ren, game, plan, **kwargs)
    services.join_table(table.code, mia)
    services.start_match(table.code, ren)
    return fresh(table), ren, mia


def people_move(table, people: dict, rng, limit=400) -> int:
    """Let the bots move and the people play random legal moves until the hand is over."""
    engine = table_game(table.game).engine
    for moves in range(limit):
        services.run_bots(table.code)
        table = fresh(table)
        state = engine.from_json(table.state)
        if engine.hand_over(state):
            return moves
        movers = [m for m in engine.to_move(state) if m in people]
        assert movers, "the table waits for nobody"
        seat = movers[0]
        action = rng.choice(engine.legal_actions(state, seat))
        services.submit_action(table.code, people[seat], action, table.version)
    raise AssertionError("the hand did not end")


# ---------------------------------------------------------------- seating and starting


def test_a_table_for_people_waits_for_them_and_its_host_starts_it():
    ren, mia, ole = user("ren"), user("mia"), user("ole")
    table = services.create_shared_table(ren, "gongzhu", ["person", "person", "person", "hard"])
    assert table.status == Table.Status.WAITING and not table.seed and table.state == {}
    assert len(table.invite) >= 24 and re.fullmatch(r"[A-Z2-9]{6}", table.short_code)
    with pytest.raises(services.Refused) as refused:
        services.start_match(table.code, ren)
    assert refused.value.code == "seats_open"
    services.join_table(table.code, mia)
    assert services.join_table(table.code, mia).pk == table.pk  # a second tab resumes
    with pytest.raises(services.Refused) as refused:
        services.start_match(table.code, mia)
    assert refused.value.code == "host_only"
    # The host gives the last free seat to a computer player instead of waiting for ole.
    services.set_seat(table.code, ren, 2, "normal")
    with pytest.raises(services.Refused) as refused:
        services.join_table(table.code, ole)
    assert refused.value.code == "table_full"
    services.start_match(table.code, ren)
    table = fresh(table)
    assert table.status == Table.Status.ACTIVE and table.seed and table.hands.count() == 1
    with pytest.raises(services.Refused) as refused:
        services.join_table(table.code, ole)
    assert refused.value.code == "match_started"
    kinds = [(s.kind, s.user_id is not None, s.bot_level) for s in table.seats.all()]
    assert kinds == [
        ("person", True, ""),
        ("person", True, ""),
        ("bot", False, "normal"),
        ("bot", False, "hard"),
    ]


def test_bad_seat_plans_and_timers_are_refused():
    ren = user("ren")
    for plan, timer, code in [
        (["easy", "person", "easy", "easy"], 0, "bad_seats"),  # the host sits at seat 0
        (["person", "person"], 0, "bad_seats"),  # Gong Zhu is for four
        (["person", "genius", "easy", "easy"], 0, "bad_seats"),
        (["person", "easy", "easy", "easy"], 45, "bad_timer"),
        ("person", 0, "bad_seats"),
    ]:
        with pytest.raises(services.Refused) as refused:
            services.create_shared_table(ren, "gongzhu", plan, turn_seconds=timer)
        assert refused.value.code == code
    assert not Table.objects.exists()


def test_a_seat_taken_twice_at_once_goes_to_one_of_them():
    ren, mia, ole = user("ren"), user("mia"), user("ole")
    table = services.create_shared_table(ren, "doudizhu", ["person", "person", "easy"])

    def join(person):
        try:
            services.join_table(table.code, person)
            return "seated"
        except services.Refused as e:
            return e.code

    results = at_once(lambda: join(mia), lambda: join(ole))
    assert sorted(results) == ["seated", "table_full"]
    seated = {s.user_id for s in fresh(table).seats.all() if s.user_id}
    assert len(seated) == 2 and ren.pk in seated


def test_invitations_and_codes_lead_to_their_table_only():
    ren, mia = user("ren"), user("mia")
    table = services.create_shared_table(ren, "gandengyan", ["person", "person", "easy"])
    assert services.find_invitation(table.invite).pk == table.pk
    spaced = f" {table.short_code[:3].lower()}-{table.short_code[3:]} "
    assert services.find_short_code(spaced).pk == table.pk
    for bad in ["", "x" * 20, None, 7, "../" * 8, table.invite[:-1] + "?"]:
        with pytest.raises(services.Refused):
            services.find_invitation(bad)
    for bad in ["", "ABC", None, "ÄÖÜ123", "0" * 6]:
        with pytest.raises(services.Refused):
            services.find_short_code(bad)
    solo = services.create_table(ren, "gongzhu")
    with pytest.raises(services.Refused) as refused:
        services.join_table(solo.code, mia)  # a table against the computer is no one's to join
    assert refused.value.code == "no_such_table"


def test_the_lobby_lists_public_tables_with_a_free_seat():
    ren, mia = user("ren"), user("mia")
    public = services.create_shared_table(
        ren, "doudizhu", ["person", "person", "easy"], public=True
    )
    services.create_shared_table(ren, "doudizhu", ["person", "person", "easy"])  # private
    assert [t["invite"] for t in views_live.open_tables()] == [public.invite]
    services.join_table(public.code, mia)
    assert views_live.open_tables() == []


# ---------------------------------------------------------------- playing together


@pytest.mark.parametrize("game", PLAYABLE)
def test_two_people_play_a_hand_each_seeing_only_their_own_cards(game, fixed_deal):
    # A fixed deal, whose first hand does not end the match (a random one now and then does).
    fixed_deal(20261201)
    table, ren, mia = two_people(game)
    engine = table_game(game).engine
    moves = people_move(table, {0: ren, 1: mia}, random.Random(game))
    assert moves > 0
    assert set(ActionLog.objects.filter(table=table).values_list("seat", flat=True)) >= {0, 1}
    # A fresh hand: each person's board holds their own cards and no one else's.
    services.start_next_hand(table.code, mia, fresh(table).version)
    state = state_of(table)
    for seat, person in ((0, ren), (1, mia)):
        html, _ = views_live.snapshot(table.code, person, "en")
        shown = set(CARD.findall(html))
        mine = set(engine.observation(state, seat)["hand"])
        others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
        assert mine <= shown
        assert not (shown & others - set(engine.public_view(state).get("kitty") or [])), seat


def test_nobody_acts_for_another_seat():
    table, ren, mia = two_people("doudizhu")
    services.run_bots(table.code)
    table = fresh(table)
    state = state_of(table)
    engine = table_game("doudizhu").engine
    mover = engine.to_move(state)[0]
    person, other = (ren, mia) if mover == 0 else (mia, ren)
    assert mover in (0, 1), "the bots have moved up to a person"
    legal = engine.legal_actions(state, mover)
    with pytest.raises(services.Refused) as refused:
        services.submit_action(table.code, other, legal[0], table.version)
    assert refused.value.code == "not_your_turn"
    assert fresh(table).version == table.version
    services.submit_action(table.code, person, legal[0], table.version)


def test_two_people_acting_at_once_each_get_their_own_move():
    """In Gong Zhu's exposure phase both decide at once: both decisions are applied."""
    engine = table_game("gongzhu").engine
    for _ in range(30):  # a deal where both have something to expose
        Table.objects.all().delete()
        get_user_model().objects.all().delete()
        table, ren, mia = two_people("gongzhu")
        state = state_of(table)
        if {0, 1} <= set(engine.to_move(state)):
            break
    else:
        raise AssertionError("no deal gave both people an exposure choice")
    version = table.version
    moves = {s: engine.legal_actions(state, s)[0] for s in (0, 1)}

    def act(person, seat):
        try:
            services.submit_action(table.code, person, moves[seat], version)
            return "applied"
        except services.Refused as e:
            return e.code

    results = at_once(lambda: act(ren, 0), lambda: act(mia, 1))
    # Both act on the same version: one applies, the other is told the table moved on and
    # sends again (nothing is lost or applied twice).
    assert sorted(results) == ["applied", "stale"]
    loser = 0 if results[0] == "stale" else 1
    services.submit_action(table.code, (ren, mia)[loser], moves[loser], fresh(table).version)
    seats = ActionLog.objects.filter(table=table, seq__gt=version, seat__in=(0, 1))
    assert sorted(seats.values_list("seat", flat=True)) == [0, 1]


def test_fast_forward_is_refused_while_another_person_waits():
    table, ren, mia = two_people("gongzhu")
    Table.objects.filter(pk=table.pk).update(bot_due_at=timezone.now() + timedelta(seconds=5))
    with pytest.raises(services.Refused) as refused:
        services.fast_forward(table.code, ren)
    assert refused.value.code == "others_waiting"


def test_a_level_frame_at_a_table_for_people_is_refused_and_moves_no_version():
    """Any seated person could send {"action": "level"} there: it changed nothing but the
    version, so the other person's move came back stale (40 frames: v5 -> v44)."""
    table, ren, mia = two_people("gongzhu")
    before = fresh(table).version
    for level in ("hard", "easy", "hard"):
        html, _version = views_live.handle(
            str(table.code), ren, "de", {"action": "level", "level": level}
        )
        assert "vor der Partie gewählt" in html
    assert fresh(table).version == before


def test_choosing_the_level_a_table_has_changes_nothing():
    ren = user("ren")
    table = services.create_table(ren, "gongzhu", "normal")
    before = fresh(table).version
    services.set_level(table.code, ren, "normal")
    assert fresh(table).version == before  # no new version, nobody's move made stale
    services.set_level(table.code, ren, "hard")
    assert fresh(table).version == before + 1 and fresh(table).level == "hard"


def test_table_codes_cannot_be_guessed_by_the_hundred():
    """Codes were tried 170 a second from one client (findings 3.5): a visitor gets ten a
    minute, an address thirty; beyond, a translated refusal and no lookup."""
    table, ren, _mia = two_people("gandengyan")
    guesser = Client()
    guesser.force_login(user("eve"))
    for _ in range(views.JOIN_CODES_PER_CLIENT):
        page = guesser.post("/de/tables/join/", {"code": "zzzzzz"}, follow=True).content.decode()
        assert "Zu viele Codes" not in page
    page = guesser.post("/de/tables/join/", {"code": "zzzzzz"}, follow=True).content.decode()
    assert "Zu viele Codes ausprobiert" in page
    # Even the right code now waits: the guesser learns nothing from the refusal.
    right = guesser.post("/de/tables/join/", {"code": table.short_code}, follow=True)
    assert "Zu viele Codes ausprobiert" in right.content.decode()
    # Other visitors from the same address share its larger allowance, then it ends too.
    refused = 0
    for n in range(views.JOIN_CODES_PER_ADDRESS):
        other = Client()
        other.force_login(user(f"eve{n}"))
        said = other.post("/en/tables/join/", {"code": "zzzzzz"}, follow=True).content.decode()
        refused += "Too many codes tried" in said
    # The address had room for thirty; the guesser's ten counted there (a refused try is
    # given back), so the others had twenty.
    allowed = views.JOIN_CODES_PER_ADDRESS - refused
    assert allowed == views.JOIN_CODES_PER_ADDRESS - views.JOIN_CODES_PER_CLIENT


# ---------------------------------------------------------------- timers and auto-play


def _persons_turn(table):
    """Run the bots until a person (seat 0 or 1) is to move; that seat."""
    engine = table_game(table.game).engine
    services.run_bots(table.code)
    state = state_of(table)
    movers = engine.to_move(state)
    assert set(movers) & {0, 1}, movers
    return next(m for m in movers if m in (0, 1))


def _expire(table, field="turn_due_at"):
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=table.pk).update(**{field: past, "timer_due_at": past})


def test_a_turn_timer_runs_out_auto_play_moves_and_the_player_takes_the_seat_back():
    table, ren, mia = two_people("doudizhu", turn_seconds=30)
    seat = _persons_turn(table)
    person = (ren, mia)[seat]
    table = fresh(table)
    assert table.turn_due_at is not None and table.timer_due_at == table.turn_due_at
    assert timedelta(seconds=25) < table.turn_due_at - timezone.now() <= timedelta(seconds=30)
    before = table.version
    _expire(table)
    assert str(table.code) in driver._due_tables()  # found by any process's sweep
    services.play_due_bot_move(table.code)
    table = fresh(table)
    me = next(s for s in table.seats.all() if s.index == seat)
    assert me.autoplay and table.version == before + 1
    assert table.bot_due_at is not None  # the computer now plays the seat, at its pace
    html, _ = views_live.snapshot(table.code, person, "en")
    assert 'data-testid="take-back"' in html
    other = (mia, ren)[seat]  # the other person sees the seat marked
    html, _ = views_live.snapshot(table.code, other, "en")
    assert re.search(rf'data-testid="seat-level-{seat}">auto-play<', html)
    services.run_bots(table.code, limit=1)
    assert ActionLog.objects.filter(table=table, seq=before + 2, seat=seat).exists()
    services.take_back(table.code, person)
    me = Seat.objects.get(table=table, index=seat)
    assert not me.autoplay
    html, _ = views_live.snapshot(table.code, person, "en")
    assert 'data-testid="take-back"' not in html


def test_acting_takes_the_seat_back():
    table, ren, mia = two_people("gongzhu", turn_seconds=60)
    seat = _persons_turn(table)
    Seat.objects.filter(table=table, index=seat).update(autoplay=True)
    table = fresh(table)
    state = state_of(table)
    engine = table_game("gongzhu").engine
    services.submit_action(
        table.code, (ren, mia)[seat], engine.legal_actions(state, seat)[0], table.version
    )
    assert not Seat.objects.get(table=table, index=seat).autoplay


def _race_timeout_against_a_move() -> str:
    """A person's move sent just as their turn timer runs out: what became of the move."""
    engine = table_game("doudizhu").engine
    table, ren, mia = two_people("doudizhu", turn_seconds=30)
    seat = _persons_turn(table)
    table = fresh(table)
    version = table.version
    action = engine.legal_actions(state_of(table), seat)[0]
    _expire(table)

    def late_move():
        try:
            services.submit_action(table.code, (ren, mia)[seat], action, version)
            return "moved"
        except services.Refused as e:
            return e.code

    move, _ = at_once(late_move, lambda: services.play_due_bot_move(table.code))
    me = Seat.objects.get(table=table, index=seat)
    logged = ActionLog.objects.filter(table=table, seq=version + 1)
    if move == "moved":
        # The move came first: its seat's turn is over and no timer put it on auto-play.
        assert logged.get().seat == seat and not me.autoplay
    else:
        # The timeout came first: auto-play, and the late move was refused as stale.
        assert move == "stale" and me.autoplay and not logged.exists()
    Table.objects.all().delete()
    get_user_model().objects.all().delete()
    return move


def test_a_timeout_racing_a_late_move_lets_exactly_one_of_them_act():
    outcomes = {_race_timeout_against_a_move() for _ in range(6)}
    assert outcomes <= {"moved", "stale"}


def test_a_timer_survives_a_restart():
    """A deadline is a row in the database: a new process's driver finds it due and acts."""
    table, ren, mia = two_people("gandengyan", turn_seconds=30)
    seat = _persons_turn(table)
    _expire(table)
    fresh_driver = driver.Driver()  # a restarted process: nothing in memory
    assert fresh_driver.running == set()
    assert str(table.code) in driver._due_tables()
    services.play_due_bot_move(table.code)
    assert Seat.objects.get(table=table, index=seat).autoplay
    table = fresh(table)
    assert str(table.code) not in driver._due_tables() or table.bot_due_at is not None


def test_a_player_away_longer_than_the_grace_is_played_for(settings):
    table, ren, mia = two_people("gongzhu")
    services.socket_opened(table.code, mia, "chan-mia")
    assert services.presence_of(fresh(table))[0][1] == "connected"
    assert services.presence_of(fresh(table))[0][0] == "away"  # ren has no socket open
    services.socket_closed("chan-mia")
    table = fresh(table)
    assert services.presence_of(table)[0][1] == "reconnecting"
    due = Seat.objects.get(table=table, index=1).away_due_at
    assert due is not None and table.timer_due_at == due
    # Back within the grace: nothing happens.
    services.socket_opened(table.code, mia, "chan-mia-2")
    assert Seat.objects.get(table=table, index=1).away_due_at is None
    services.socket_closed("chan-mia-2")
    Seat.objects.filter(table=table, index=1).update(
        away_due_at=timezone.now() - timedelta(seconds=1)
    )
    _expire(table, "timer_due_at")
    services.play_due_bot_move(table.code)
    assert Seat.objects.get(table=table, index=1).autoplay
    assert services.presence_of(fresh(table))[0][1] == "away"


def test_a_socket_of_a_dead_process_goes_stale_and_is_swept(settings):
    table, ren, mia = two_people("gongzhu")
    services.socket_opened(table.code, mia, "chan-dead")
    Presence.objects.update(seen_at=timezone.now() - timedelta(seconds=600))
    assert services.presence_of(fresh(table))[0][1] == "away"
    assert services.sweep_presence() == 1
    assert not Presence.objects.exists()
    assert Seat.objects.get(table=table, index=1).away_due_at is not None


def test_leaving_hands_the_seat_to_the_computer_and_the_match_goes_on(fixed_deal):
    # A deal whose hand does not end the match (a rare hand with exposures can take a seat
    # below -1000 at once, and a finished match is not resigned by leaving it).
    fixed_deal(12345)
    table, ren, mia = two_people("gongzhu")
    services.leave_table(table.code, mia)
    table = fresh(table)
    me = next(s for s in table.seats.all() if s.index == 1)
    assert me.left and me.autoplay and table.is_active
    with pytest.raises(services.Refused) as refused:
        services.take_back(table.code, mia)
    assert refused.value.code == "left_match"
    people_move(table, {0: ren}, random.Random(3))  # ren plays the hand to its end
    # The last person leaving ends it.
    services.leave_table(table.code, ren)
    assert fresh(table).status == Table.Status.RESIGNED


def test_leaving_before_the_match_frees_the_seat_and_the_host_closes_the_table():
    ren, mia = user("ren"), user("mia")
    table = services.create_shared_table(ren, "doudizhu", ["person", "person", "easy"])
    services.join_table(table.code, mia)
    services.leave_table(table.code, mia)
    assert fresh(table).seats.get(index=1).user is None
    services.leave_table(table.code, ren)
    table = fresh(table)
    assert table.status == Table.Status.RESIGNED
    html, _ = views_live.snapshot(table.code, ren, "en")
    assert "closed" in html


# ---------------------------------------------------------------- watchers


def test_watching_is_the_tables_choice_and_the_seats_see_how_many_watch():
    ren, mia, zoe = user("ren"), user("mia"), user("zoe")
    table, _, _ = (None, None, None)
    table = services.create_shared_table(ren, "gongzhu", ["person", "person", "easy", "easy"])
    services.join_table(table.code, mia)
    services.start_match(table.code, ren)
    assert views_live.snapshot(table.code, zoe, "en") is None
    Table.objects.filter(pk=table.pk).update(spectators=True)
    services.socket_opened(table.code, zoe, "chan-zoe")
    html, _ = views_live.snapshot(table.code, zoe, "en")
    assert 'class="hand__card' not in html
    html, _ = views_live.snapshot(table.code, ren, "en")
    assert re.search(r'data-testid="watchers">1 watching', html)


# ---------------------------------------------------------------- history


def test_deleting_one_account_leaves_the_others_history_intact():
    table, ren, mia = two_people("gongzhu")
    people_move(table, {0: ren, 1: mia}, random.Random(5))
    mia.delete()
    table = fresh(table)
    assert table.hands.filter(ended_at__isnull=False).count() == 1
    seat = table.seats.get(index=1)
    assert seat.user is None and seat.kind == "person"
    client = Client()
    client.force_login(ren)
    page = client.get(reverse("games:my_matches")).content.decode()
    assert "deleted player" in page
    replay = client.get(reverse("games:replay", kwargs={"code": table.code, "number": 1}))
    assert replay.status_code == 200
    # ren's own match against the computer goes with ren's account.
    solo = services.create_table(ren, "gongzhu")
    ren.delete()
    assert not Table.objects.filter(pk=solo.pk).exists()
    assert not Table.objects.filter(pk=table.pk).exists()  # nobody is left who played it


def test_an_account_deleted_mid_match_hands_its_seat_to_the_computer():
    table, ren, mia = two_people("gongzhu")
    mia.delete()
    table = fresh(table)
    assert table.is_active
    assert table.seats.get(index=1).left
    people_move(table, {0: ren}, random.Random(9))


def test_the_stale_guest_cleanup_never_deletes_a_match_another_person_played():
    table, ren, mia = two_people("gongzhu")
    guest = user("guest-1234")
    Seat.objects.filter(table=table, index=1).update(user=guest)
    from cardsite.accounts.models import Profile

    Profile.objects.create(user=guest, is_guest=True)
    long_ago = timezone.now() - timedelta(days=40)
    get_user_model().objects.filter(pk=guest.pk).update(date_joined=long_ago, last_login=long_ago)
    Table.objects.update(updated_at=long_ago)
    call_command("delete_stale_guests", "--days", "30")
    assert not get_user_model().objects.filter(pk=guest.pk).exists()
    assert Table.objects.filter(pk=table.pk).exists()


# ---------------------------------------------------------------- over the sockets


async def _frames_until(comm, predicate, limit=30):
    """Frames from ``comm`` until one satisfies ``predicate``: all of them."""
    seen = []
    for _ in range(limit):
        try:
            seen.append(await comm.receive_from(timeout=10))
        except TimeoutError as e:
            raise AssertionError(f"no frame for 10 s; came: {[f[:400] for f in seen]}") from e
        if predicate(seen[-1]):
            return seen
    raise AssertionError(f"the expected frame never came; came: {[f[:300] for f in seen]}")


async def test_two_people_over_their_sockets_see_each_other_react_and_move():
    from asgiref.sync import sync_to_async

    from tests.games.test_consumers import connect

    table, ren, mia = await sync_to_async(two_people)("doudizhu")
    a = await connect(ren, table)
    await a.receive_from(timeout=10)
    b = await connect(mia, table)
    await b.receive_from(timeout=10)
    # ren's page learns that mia is here.
    await _frames_until(a, lambda h: 'data-testid="presence-1"' in h and "presence--connected" in h)

    await a.send_json_to({"action": "react", "key": "nice"})
    for comm in (a, b):
        frames = await _frames_until(comm, lambda h: 'data-testid="reaction"' in h)
        assert "Well played!" in frames[-1] and "ren" in frames[-1]
    for _ in range(2):
        await a.send_json_to({"action": "react", "key": "gg"})
    await a.send_json_to({"action": "react", "key": "gg"})
    await _frames_until(a, lambda h: "Not so fast" in h)
    await a.send_json_to({"action": "react", "key": "<script>"})
    await _frames_until(a, lambda h: "not available at this table" in h)

    # Whoever is to move moves; the other sees the new version, never the mover's cards.
    await sync_to_async(services.run_bots)(table.code)
    t = await sync_to_async(fresh)(table)
    engine = table_game("doudizhu").engine
    state = engine.from_json(t.state)
    mover = engine.to_move(state)[0]
    comms, people = {0: a, 1: b}, {0: ren, 1: mia}
    assert mover in comms
    other = 1 - mover
    action = engine.legal_actions(state, mover)[0]
    frame = {**table_game("doudizhu").frame_for(action), "version": str(t.version)}
    await comms[mover].send_json_to(frame)
    hidden = set(engine.observation(state, mover)["hand"])
    frames = await _frames_until(
        comms[other], lambda h: f'data-version="{t.version}"' not in h and 'id="board"' in h
    )
    assert not (set(CARD.findall("".join(frames))) & hidden)
    assert people[mover]  # the mover acted as themselves

    # mia closes her page: ren's page shows her reconnecting. The test harness cancels a
    # socket's closing after its timeout (1 s by default) where daphne gives it 10 s: on a
    # loaded machine the closing's write of her presence was cut short.
    await b.disconnect(timeout=10)
    await _frames_until(a, lambda h: "presence--reconnecting" in h)
    await a.disconnect()


def test_play_again_invites_the_same_people_to_the_same_seats():
    table, ren, mia = two_people("doudizhu", spectators=True, turn_seconds=60)
    with pytest.raises(services.Refused) as refused:
        services.play_again(table.code, mia)
    assert refused.value.code == "match_not_over"
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    nxt = services.play_again(table.code, mia)  # mia asks first: she hosts the next one
    assert services.play_again(table.code, mia).pk == nxt.pk  # asked again: the same table
    nxt = fresh(nxt)
    assert (nxt.owner_id, nxt.spectators, nxt.turn_seconds, nxt.status) == (
        mia.pk,
        True,
        60,
        Table.Status.WAITING,
    )
    seats = {s.index: s for s in nxt.seats.all()}
    assert seats[1].user_id == mia.pk and seats[0].reserved_for_id == ren.pk
    assert seats[2].is_bot and seats[2].bot_level == "easy"
    # Someone else cannot take ren's kept seat.
    with pytest.raises(services.Refused) as refused:
        services.join_table(nxt.code, user("ole"))
    assert refused.value.code == "table_full"
    html, _ = views_live.snapshot(table.code, ren, "en")
    assert 'data-testid="accept-again"' in html
    services.decline_seat(nxt.code, ren)  # ren declines: the seat is open to anyone
    assert fresh(nxt).seats.get(index=0).reserved_for is None
    services.set_seat(nxt.code, mia, 0, "hard")  # the host gives it to a computer player
    services.start_match(nxt.code, mia)
    assert fresh(nxt).is_active


def test_play_again_is_one_click_for_each_person():
    table, ren, mia = two_people("doudizhu")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    again = reverse("games:table", kwargs={"code": table.code})
    first = Client()
    first.force_login(mia)
    response = first.post(again, HTTP_HX_REQUEST="true")  # mia's one click: to the new table
    nxt = Table.objects.get(pk=fresh(table).successor_id)
    assert response["HX-Redirect"] == reverse("games:table", kwargs={"code": nxt.code})
    assert services.seat_of(fresh(nxt), mia) == 1

    # ren's page of the last match offers it as it happens; his seat is kept for him by name.
    html, _ = views_live.snapshot(table.code, ren, "en")
    assert "mia asks for another match" in html and 'data-testid="accept-again"' in html
    html, _ = views_live.snapshot(nxt.code, mia, "en")
    assert "kept for ren" in html and "open seat" not in html
    second = Client()
    second.force_login(ren)
    page = second.get(reverse("games:invitation", kwargs={"token": nxt.invite})).content.decode()
    assert "kept for ren" in page and "mia invites you" in page

    response = second.post(again, HTTP_HX_REQUEST="true")  # ren's one click: seated, there
    assert response["HX-Redirect"] == reverse("games:table", kwargs={"code": nxt.code})
    assert services.seat_of(fresh(nxt), ren) == 0
    services.start_match(nxt.code, mia)  # everyone seated: the host starts it as ever
    assert fresh(nxt).is_active


async def test_the_lobby_socket_hears_of_open_tables():
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from cardsite.asgi import application
    from tests.games.test_consumers import ORIGIN, _cookie

    ren = await sync_to_async(user)("ren")
    cookie = await sync_to_async(_cookie)(ren)
    lobby = WebsocketCommunicator(application, "/ws/de/lobby/", headers=[ORIGIN, cookie])
    assert (await lobby.connect())[0]
    await lobby.receive_from(timeout=10)  # "live"
    table = await sync_to_async(services.create_shared_table)(
        ren, "gandengyan", ["person", "person", "normal"], public=True
    )
    frames = await _frames_until(lobby, lambda h: 'id="open-tables"' in h)
    assert table.invite in frames[-1] and "Offene Tische" in frames[-1]  # in the page's language
    mia = await sync_to_async(user)("mia")
    await sync_to_async(services.join_table)(table.code, mia)
    frames = await _frames_until(lobby, lambda h: 'id="open-tables"' in h)
    assert table.invite not in frames[-1]  # full: no longer listed
    await lobby.disconnect()


def test_the_seating_commands_refuse_any_odd_input_without_a_crash():
    """Fuzzed frames for the shared table's own commands, from the host and from a guest."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    ren, mia = user("ren"), user("mia")
    table = services.create_shared_table(ren, "gandengyan", ["person", "person", "easy", "easy"])
    services.join_table(table.code, mia)
    odd = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=True),
        st.text(max_size=30),
        st.sampled_from(["0", "1", "3", "9", "person", "hard", "nice", "", "٣"]),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    )
    frames = st.fixed_dictionaries(
        {"action": st.sampled_from(["start", "seat", "take_back", "react", "again"])},
        optional={"seat": odd, "choice": odd, "key": odd, "version": odd},
    )

    def seats():
        return {s.index: (s.kind, s.user_id, s.bot_level) for s in fresh(table).seats.all()}

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(frame=frames, host=st.booleans())
    def check(frame, host):
        person = ren if host else mia
        if frame["action"] == "start" and host:
            return  # the one command that may legally change the table here
        before = seats()
        html, _ = views_live.handle(str(table.code), person, "de", frame)
        assert 'id="board"' in html or "toast__msg" in html
        if not host or frame["action"] != "seat":
            assert seats() == before

    check()
    assert fresh(table).is_waiting


def test_the_create_form_makes_the_table_it_shows_and_a_visitor_becomes_a_guest():
    client = Client()
    page = client.get("/de/tables/new/gandengyan/").content.decode()
    assert 'name="seat1"' in page and 'name="seat3"' in page and 'data-testid="draw-winner"' in page
    assert "kein Platz (weniger Spieler)" in page
    response = client.post(
        "/de/tables/new/gandengyan/",
        {"seat1": "person", "seat2": "none", "seat3": "hard", "draw": "winner", "timer": "60"},
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/tables/{table.code}/")
    assert table.owner.profile.is_guest and table.options == {"draw": "winner"}
    assert [s.kind for s in table.seats.all()] == ["person", "person"]  # "none" ends the plan
    assert (table.turn_seconds, table.public, table.spectators) == (60, False, False)
    page = client.get(response["Location"]).content.decode()
    assert table.short_code in page.replace(" ", "") and table.invite in page
    # An odd timer or option is refused with the reason, and nothing is made.
    client.post("/de/tables/new/gandengyan/", {"seat1": "person", "timer": "7"})
    client.post("/de/tables/new/gandengyan/", {"seat1": "person", "draw": "nobody"})
    assert Table.objects.count() == 1


def test_the_invitation_page_seats_a_visitor_and_refuses_clearly():
    ren = user("ren")
    table = services.create_shared_table(ren, "doudizhu", ["person", "person", "easy"])
    visitor = Client()
    page = visitor.get(f"/en/join/{table.invite}/").content.decode()
    assert "ren invites you to Dou Dizhu" in page and 'data-testid="take-seat"' in page
    response = visitor.post(f"/en/join/{table.invite}/")
    assert response.status_code == 302
    assert fresh(table).seats.get(index=1).user.profile.is_guest
    late = Client()
    late.force_login(user("ole"))
    response = late.post(f"/en/join/{table.invite}/")
    assert (
        response.status_code == 409
        and "Every seat at this table is taken" in response.content.decode()
    )
    assert Client().get("/en/join/not-a-real-invitation-token/").status_code == 404
    response = Client().post("/en/tables/join/", {"code": "zz zz zz"}, follow=True)
    assert "No open table has that code" in response.content.decode()
    response = Client().post("/en/tables/join/", {"code": table.short_code.lower()})
    assert response["Location"].endswith(f"/join/{table.invite}/")
    watcher = Client()
    watcher.force_login(user("zoe"))
    assert watcher.get(reverse("games:table", kwargs={"code": table.code})).status_code == 403


async def test_the_lobby_socket_lists_the_open_tables_as_it_joins():
    """A table opened between the lobby page's render and its socket's join is listed at once,
    not only at the next change."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from cardsite.asgi import application
    from tests.games.test_consumers import ORIGIN, _cookie

    ren = await sync_to_async(user)("ren")
    table = await sync_to_async(services.create_shared_table)(
        ren, "gandengyan", ["person", "person", "normal"], public=True
    )
    cookie = await sync_to_async(_cookie)(await sync_to_async(user)("mia"))
    lobby = WebsocketCommunicator(application, "/ws/en/lobby/", headers=[ORIGIN, cookie])
    assert (await lobby.connect())[0]
    first = await lobby.receive_from(timeout=10)
    assert 'id="live-status"' in first
    assert 'id="open-tables"' in first and table.invite in first
    await lobby.disconnect()


def test_a_hard_bots_move_brings_the_quick_bots_after_it_along(settings, clock):
    """Paced, a Hard player's move (thought about in a worker) is applied with the quick
    bots' moves that follow it, each shown at its time, like a quick bot's first reply."""
    from games.bots.task import BotTask, choose

    settings.GAME_PACING = True
    ren = user("ren")
    table = services.create_shared_table(ren, "gongzhu", ["person", "hard", "normal", "normal"])
    services.start_match(table.code, ren)
    engine = table_game("gongzhu").engine
    rng = random.Random(4)
    for _ in range(300):
        raw, shown = fresh(table), services.get_table(table.code)
        if getattr(shown, "next_shown_at", None) is not None:
            clock.to(shown.next_shown_at)
            continue
        if raw.bot_due_at is None:
            state = engine.from_json(shown.state)
            action = rng.choice(engine.legal_actions(state, 0))
            services.submit_action(table.code, ren, action, shown.version)
            continue
        clock.to(raw.bot_due_at)
        task = services.play_due_bot_move(table.code)
        if not isinstance(task, BotTask):
            continue
        assert task.seat == 1 and task.level == "hard"
        after = services.apply_bot_move(task, choose(task))
        if after is None or after.reveal is None:
            assert engine.to_move(engine.from_json(after.state)) in ([0], [1])
            continue  # the person (or Hard again) is next: nothing to bring along
        first = after.reveal["steps"][0]
        assert first[1] == task.version + 1  # Hard's move, shown now
        # A quick bot is next: the one after Hard in the trick, or the trick's winner.
        (nxt,) = engine.to_move(engine.from_json(first[2]))
        assert nxt in (2, 3)
        seats = ActionLog.objects.filter(table=after, seq__gt=task.version).order_by("seq")
        assert [line.seat for line in seats][:2] == [1, nxt]
        return
    raise AssertionError("no Hard move was followed by a quick bot's")
