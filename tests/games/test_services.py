"""The one write path: versions, turns, seats, bots, hands and the log."""

import random
import re
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import history, realtime, services
from games.engine import get_game
from games.models import ActionLog, Hand, Table
from games.services import store
from games.services.unit import Unit
from tests.games.conftest import play_until_human, until_moves_on_their_way

pytestmark = pytest.mark.django_db
GAME = get_game("gongzhu")


def state_of(table):
    table.refresh_from_db()
    return GAME.from_json(table.state)


def human_move(table, owner, rng):
    state = state_of(table)
    action = rng.choice(GAME.legal_actions(state, 0))
    return services.submit_action(table.code, owner, action, table.version)


def play_hand(table, owner, rng):
    while True:
        play_until_human(table)
        state = state_of(table)
        if GAME.hand_over(state):
            return table
        human_move(table, owner, rng)


def test_it_creates_a_table_with_the_bots_already_decided(table, owner):
    assert [s.user_id for s in table.seats.all()] == [owner.pk, None, None, None]
    assert {s.bot_level for s in table.seats.all() if s.is_bot} == {"easy"}
    assert len(table.seed) >= 30 and int(table.seed) < 2**128
    hand = table.hands.get()
    assert (
        hand.number == 1
        and len(hand.deal["hands"]) == 4
        and all(len(h) == 13 for h in hand.deal["hands"])
    )
    state = state_of(table)
    # The exposure phase waits only for the human, if the human has a choice at all.
    legal = GAME.legal_actions(state, 0) if 0 in GAME.to_move(state) else []
    if len(legal) > 1:
        assert GAME.to_move(state) == [0]
    else:
        assert GAME.observation(state, 0)["phase"] == "play"
    # Every bot decision was logged in the deal transaction.
    assert ActionLog.objects.filter(table=table).count() == table.version


def test_a_stale_version_is_refused_and_changes_nothing(table, owner):
    play_until_human(table)
    state = state_of(table)
    before = (table.version, table.state)
    action = GAME.legal_actions(state, 0)[0]
    with pytest.raises(services.Refused) as exc:
        services.submit_action(table.code, owner, action, table.version - 1)
    assert exc.value.code == "stale"
    table.refresh_from_db()
    assert (table.version, table.state) == before


def test_a_duplicate_submission_is_refused(table, owner):
    play_until_human(table)
    state = state_of(table)
    action = GAME.legal_actions(state, 0)[0]
    version = table.version
    services.submit_action(table.code, owner, action, version)
    table.refresh_from_db()
    after = (table.version, table.state)
    with pytest.raises(services.Refused) as exc:
        services.submit_action(table.code, owner, action, version)  # a double click
    assert exc.value.code == "stale"
    table.refresh_from_db()
    assert (table.version, table.state) == after


def test_an_illegal_move_is_refused_with_its_code(table, owner):
    rng = random.Random(4)
    for _ in range(60):
        play_until_human(table)
        state = state_of(table)
        obs = GAME.observation(state, 0)
        bad = [c for c in obs["hand"] if c not in obs["legal_cards"]]
        if obs["phase"] == "play" and bad:
            before = table.state
            with pytest.raises(services.Refused) as exc:
                services.submit_action(
                    table.code, owner, {"type": "play", "card": bad[0]}, table.version
                )
            assert exc.value.code in (
                "must_follow_suit",
                "exposed_card_first_trick",
                "not_your_turn",
            )
            table.refresh_from_db()
            assert table.state == before
            return
        if GAME.hand_over(state):
            break
        human_move(table, owner, rng)
    pytest.skip("no refusable card came up in this deal")


def test_an_outsider_cannot_act(table, outsider):
    state = state_of(table)
    with pytest.raises(services.Refused) as exc:
        services.submit_action(
            table.code, outsider, {"type": "play", "card": state.hands[0][0]}, table.version
        )
    assert exc.value.code == "not_seated"


def test_a_move_out_of_turn_is_refused(owner, settings):
    settings.GAME_PACING = True  # paced bots: a bot is to move between the player's moves
    rng = random.Random(2)
    table = services.create_table(owner, "gongzhu", "easy")
    for _ in range(40):
        shown = services.get_table(table.code)  # the bots' replies may be on their way
        state = GAME.from_json(shown.state)
        movers = GAME.to_move(state)
        if GAME.observation(state, 0)["phase"] == "play" and 0 not in movers:
            with pytest.raises(services.Refused) as exc:
                services.submit_action(
                    table.code, owner, {"type": "play", "card": state.hands[0][0]}, shown.version
                )
            assert exc.value.code == "not_your_turn"
            return
        if 0 in movers:
            action = rng.choice(GAME.legal_actions(state, 0))
            services.submit_action(table.code, owner, action, shown.version)
        else:
            services.run_bots(table.code, limit=1)
    pytest.fail("seat 0 was never waiting")


@pytest.mark.parametrize("game_name", ["gongzhu", "gandengyan", "doudizhu"])
def test_paced_a_persons_move_brings_the_quick_bots_replies_in_its_one_transaction(
    owner, settings, clock, game_name, django_capture_on_commit_callbacks, monkeypatch
):
    """One transaction and one notice per person's move: the quick bots' replies are
    applied with it and shown one by one (the reveal), and nothing is left due for the
    driver until the person's turn, unless the hand ends."""
    settings.GAME_PACING = True
    notices = []
    monkeypatch.setattr(
        realtime, "send_to_group", lambda group, message, failed: notices.append(message)
    )
    engine = get_game(game_name)
    table = services.create_table(owner, game_name, "normal")
    rng = random.Random(4)
    for _ in range(60):
        shown = services.get_table(table.code)
        if getattr(shown, "next_shown_at", None) is not None:
            clock.to(shown.next_shown_at)  # the replies on their way show
            continue
        state = engine.from_json(shown.state)
        if engine.hand_over(state):
            services.start_next_hand(table.code, owner, shown.version)
            continue
        if 0 not in engine.to_move(state):
            clock.to(shown.bot_due_at)  # the driver's move (the first of a deal, say)
            services.play_due_bot_move(table.code)
            continue
        before = shown.version
        action = rng.choice(engine.legal_actions(state, 0))
        notices.clear()
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_action(table.code, owner, action, before)
        raw = Table.objects.get(pk=table.pk)
        after = engine.from_json(raw.state)
        if engine.hand_over(after) or not raw.reveal:
            continue  # the player moved again at once, or the hand's end waits for the driver
        seqs = list(ActionLog.objects.filter(table=raw, seq__gt=before).values_list("seq", "seat"))
        assert seqs[0] == (before + 1, 0)
        assert len(seqs) >= 2 and all(seat != 0 for _, seat in seqs[1:])
        assert raw.version == before + len(seqs)
        assert raw.reveal["steps"][0][1] == before + 1  # the first shown: the person's move
        assert notices == [{"type": "table.changed", "version": raw.version}]
        if 0 in engine.to_move(after):
            assert raw.bot_due_at is None
            return
    pytest.fail("no move of the player's drew the bots' replies")


def test_a_whole_hand_is_recorded_and_replays_exactly(table, owner):
    play_hand(table, owner, random.Random(5))
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended_at is not None
    assert sum(len(c) for c in hand.deal["hands"]) == 52
    state = state_of(table)
    assert hand.scores == GAME.hand_result(state)["scores"]
    steps = history.replay_steps(table, 1)
    assert steps is not None
    assert steps[-1][2] == GAME.public_view(state)
    assert len(steps) == ActionLog.objects.filter(hand=hand).count()


def test_replay_notices_a_changed_engine(table, owner, monkeypatch):
    play_hand(table, owner, random.Random(6))
    Hand.objects.filter(table=table).update(engine_version="gongzhu-0")
    assert history.replay_steps(table, 1) is None
    context = history.replay_context(table, 1, owner)
    assert not context["verified"]
    assert len(context["tricks"]) == 13  # the record as logged


def test_next_hand_and_level_change(owner):
    for _ in range(20):
        table = services.create_table(owner, "gongzhu", "easy")
        play_hand(table, owner, random.Random(7))
        if not GAME.match_over(state_of(table)):
            break  # about one deal in 75 ends the match in its first hand: no next hand then
    services.set_level(table.code, owner, "hard")
    table.refresh_from_db()
    assert {s.bot_level for s in table.seats.all() if s.is_bot} == {"easy"}  # not during the hand
    with pytest.raises(services.Refused):
        services.start_next_hand(table.code, owner, table.version - 1)
    dealt = services.start_next_hand(table.code, owner, table.version)
    # The frames that follow render the table as committed: its seats at the new level too.
    kept = services.committed_table(table.code, dealt.version)
    assert {s.bot_level for s in kept.seats.all() if s.is_bot} == {"hard"}
    table.refresh_from_db()
    assert {s.bot_level for s in table.seats.all() if s.is_bot} == {"hard"}
    assert table.hands.count() == 2
    assert GAME.observation(state_of(table), 0)["hand_number"] == 2


def test_bot_moves_are_claimed_once(owner, settings):
    from games.bots.task import BotTask, choose

    settings.GAME_PACING = True
    table = services.create_table(owner, "gongzhu", "hard")  # Hard thinks outside the lock
    rng = random.Random(8)
    for _ in range(30):
        state = state_of(table)
        if table.bot_due_at is not None:
            first = services.play_due_bot_move(table.code, force=True)
            second = services.play_due_bot_move(table.code, force=True)
            assert isinstance(first, BotTask) and second is None
            action = choose(first)
            assert services.apply_bot_move(first, action) is not None
            assert services.apply_bot_move(first, action) is None  # the version moved on
            return
        if 0 in GAME.to_move(state):
            human_move(table, owner, rng)
            table.refresh_from_db()
    pytest.fail("no bot move came due")


def test_bots_never_get_the_state(monkeypatch, table):
    seen = []
    from games.bots import gongzhu as bots

    original = bots.EasyBot.act

    def spy(self, observation, legal, rng):
        seen.append(observation)
        assert isinstance(observation, dict) and "hands" not in observation
        return original(self, observation, legal, rng)

    monkeypatch.setattr(bots.EasyBot, "act", spy)
    services.run_bots(table.code)
    for obs in seen:
        assert set(obs["hand"]) <= set(table.hands.get().deal["hands"][obs["seat"]])


def test_resign_ends_the_match(table, owner):
    services.resign(table.code, owner)
    table.refresh_from_db()
    assert table.status == Table.Status.RESIGNED
    with pytest.raises(services.Refused):
        services.submit_action(table.code, owner, {"type": "play", "card": "2S"}, table.version)


def test_an_action_is_one_transaction_with_one_table_write(table, owner, settings):
    settings.GAME_PACING = True  # only the player's move (unpaced, the bots' replies join it)
    play_until_human(table)
    state = state_of(table)
    action = GAME.legal_actions(state, 0)[0]
    with CaptureQueriesContext(connection) as ctx:
        services.submit_action(table.code, owner, action, table.version)
    writes = [
        q["sql"]
        for q in ctx.captured_queries
        if q["sql"].startswith("UPDATE") and "games_table" in q["sql"]
    ]
    assert len(writes) == 1


def test_unpaced_bots_reply_in_the_players_transaction(table, owner):
    """Without pacing the bots' replies join the player's move: one commit, one notice."""
    play_until_human(table)
    state = state_of(table)
    version = table.version
    with CaptureQueriesContext(connection) as ctx:
        services.submit_action(table.code, owner, GAME.legal_actions(state, 0)[0], version)
    table.refresh_from_db()
    state = state_of(table)
    assert GAME.hand_over(state) or 0 in GAME.to_move(state)  # the player is to move again
    moves = ActionLog.objects.filter(table=table, seq__gt=version).count()
    assert moves == table.version - version >= 1
    commits = [
        q for q in ctx.captured_queries if q["sql"] in ("COMMIT",) or q["sql"].startswith("RELEASE")
    ]
    assert len([q for q in ctx.captured_queries if q["sql"].startswith("BEGIN")]) <= 1
    assert len(commits) <= 1
    # The moves are written together: one statement inserts their log lines (a row of values
    # each), one update of the row.
    sql = [q["sql"] for q in ctx.captured_queries]
    inserts = [s for s in sql if 'INSERT INTO "games_actionlog"' in s]
    assert len(inserts) == 1 and inserts[0].startswith('INSERT INTO "games_actionlog"')
    assert len(re.findall(r"\)\s*,\s*\(", inserts[0].partition(" VALUES ")[2])) == moves - 1
    assert len([s for s in sql if s.startswith('UPDATE "games_table"')]) == 1
    logged = ActionLog.objects.filter(table=table, seq__gt=version).order_by("seq")
    assert [log.seq for log in logged] == list(range(version + 1, table.version + 1))
    assert [log.by_computer for log in logged] == [False] + [True] * (moves - 1)


def test_a_transactions_log_lines_go_in_statements_of_at_most_a_hundred(table, monkeypatch):
    """Each line with its own values, in order, however many a transaction has."""
    monkeypatch.setattr(store, "LOG_LINES_PER_INSERT", 7)
    start = table.version
    lines = [
        ActionLog(
            table=table,
            hand_id=table.current_hand_id,
            seq=start + i,
            seat=i % 4,
            action={"type": "play", "card": f"{i}S", "note": 'it\'s (a) "test", (b)'},
            by_computer=i % 3 == 0,
        )
        for i in range(1, 17)
    ]
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        Unit(log=list(lines)).save_log()
    inserts = [q for q in ctx.captured_queries if "games_actionlog" in q["sql"]]
    assert len(inserts) == 3  # 7 + 7 + 2
    saved = ActionLog.objects.filter(table=table, seq__gt=start).order_by("seq")
    assert [(a.seq, a.seat, a.action, a.by_computer) for a in saved] == [
        (a.seq, a.seat, a.action, a.by_computer) for a in lines
    ]
    assert all(a.created_at is not None and a.hand_id == table.current_hand_id for a in saved)


def test_a_tables_reads_keep_its_people_a_moment_and_forget_one_who_changes(table, owner):
    from cardsite.accounts.models import profile_for
    from games.summary import summarize

    store._PEOPLE.clear()
    with CaptureQueriesContext(connection) as first:
        services.get_table(table.code)
    with CaptureQueriesContext(connection) as again:
        read = services.get_table(table.code)
    assert len(again.captured_queries) == len(first.captured_queries) - 1  # no people read
    assert summarize(read).seats[0].name == "ren"
    profile = profile_for(owner)
    profile.display_name = "Mei"
    profile.save()  # forgotten at once: the next read shows the new name
    assert summarize(services.get_table(table.code)).seats[0].name == "Mei"
    store._PEOPLE[owner.pk] = (-1e9, store._PEOPLE[owner.pk][1])  # as if long ago
    with CaptureQueriesContext(connection) as stale:
        services.get_table(table.code)
    assert len(stale.captured_queries) == len(first.captured_queries)  # read again


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.mark.parametrize("lock", [False, True])
def test_a_table_read_by_code_is_the_table_djangos_query_gives(table, owner, lock):
    """Every field, converted as the ORM converts it (dates, JSON, UUIDs, flags), and the
    seats in their order with their people, read the way every move reads them."""
    Table.objects.filter(pk=table.pk).update(finished_at=table.created_at, public=True)
    with transaction.atomic():
        read = store._by_code(table.code, lock=lock)
    orm = Table.objects.get(code=table.code)
    assert _fields(read) == _fields(orm)
    assert read.finished_at == orm.created_at and read.public is True
    assert not read._state.adding and read._state.db == "default"
    seats = list(orm.seats.order_by("index"))
    assert [_fields(s) for s in read.seats.all()] == [_fields(s) for s in seats]
    assert read.seats.all()[0].user == owner
    with pytest.raises(Table.DoesNotExist):
        store._by_code(str(uuid.uuid4()), lock=False)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_summarys_labels_are_the_models_display_values(table, lang):
    """The game's, the status's and a bot's level's labels, in the page's language, as
    ``get_FOO_display()`` gives them, for every choice."""
    from django.utils import translation

    from games.models import Seat
    from games.summary import summarize

    bot = next(s for s in table.seats.all() if s.is_bot)
    with translation.override(lang):
        for status, _label in Table.Status.choices:
            table.status = status
            summary = summarize(table)
            assert summary.status_label == table.get_status_display()
            assert summary.game_label == table.get_game_display()
        for level, _label in Seat._meta.get_field("bot_level").choices:
            bot.bot_level = level
            table.status = Table.Status.ACTIVE
            assert summarize(table).seats[bot.index].level == bot.get_bot_level_display()


def _moves_on_their_way(owner, clock, turn_seconds=0):
    """A paced Gong Zhu table where a bot's move, at its time, brought others along that are
    still on their way; the table as it is."""
    table = services.create_table(owner, "gongzhu", "normal")
    table.turn_seconds = turn_seconds
    table.save(update_fields=["turn_seconds"])
    return until_moves_on_their_way(table, owner, random.Random(6), clock)


def test_fast_forward_shows_the_moves_on_their_way_at_once_and_starts_the_timer_then(
    owner, settings, clock
):
    settings.GAME_PACING = True
    raw = _moves_on_their_way(owner, clock, turn_seconds=30)
    assert services.get_table(raw.code).version < raw.version
    services.fast_forward(raw.code, owner)
    after = Table.objects.get(pk=raw.pk)
    assert after.reveal is None
    assert services.get_table(raw.code).version == raw.version  # everything shows now
    if 0 in GAME.to_move(GAME.from_json(after.state)):
        # The player's turn shows now, and so their timer runs from now.
        assert after.turn_due_at == clock.now + timedelta(seconds=30)


def test_resigning_while_moves_are_on_their_way_ends_the_match_with_them_shown(
    owner, settings, clock
):
    settings.GAME_PACING = True
    raw = _moves_on_their_way(owner, clock)
    services.resign(raw.code, owner)
    shown = services.get_table(raw.code)
    assert shown.reveal is None and shown.version == raw.version + 1
    assert shown.status == Table.Status.RESIGNED


def test_a_command_leaves_nothing_of_its_transaction_on_the_table(
    table, owner, django_capture_on_commit_callbacks
):
    """What a transaction still has to write and whom it tells are its unit's
    (``services.unit.Unit``): the table a command returns holds its columns, its seats and
    nothing else."""
    play_until_human(table)
    action = GAME.legal_actions(state_of(table), 0)[0]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        moved = services.submit_action(table.code, owner, action, table.version)
    assert callbacks  # the notice was sent
    columns = {f.attname for f in Table._meta.concrete_fields}
    assert set(vars(moved)) - columns == {"_state", "_prefetched_objects_cache"}
