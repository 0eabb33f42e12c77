"""Tables and their seats: a match against the computer created (or a deal played again),
a table for people created, joined, seated, started, left and played again; resigning;
invitations, short codes, the lobby's open tables; an account's tables when it goes.

A shared table is created waiting, with a seat plan (a person or a computer level per
seat), joined by its invitation link or short code, and started by its host once every
person's seat is taken. Seating, starting, leaving, timeouts and take-backs go through the
table's lock like every move.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from games import ratings
from games.models import Seat, Table
from games.registry import table_game
from games.services.moves import LEVELS, _open_hand
from games.services.pacing import _schedule_bots
from games.services.reading import get_table, load_state, seat_of
from games.services.store import Refused, _one_with_seats, _seat, _with_seats, parse_code
from games.services.unit import Unit, _locked, _locked_seat, _notify_lobby


def _seed() -> int:
    return secrets.randbits(128)


def _validated(game_name: str, options: dict | None, seats: int | None):
    """The game's info, the seat count and the whole options of a new table, or refused."""
    try:
        info = table_game(game_name).info
    except KeyError as e:
        raise Refused("bad_options") from e
    seats = seats or info.default_seats
    if seats not in info.seat_counts:
        raise Refused("bad_seats")
    opts = {**info.default_options, **(options or {})}
    if set(opts) != set(info.default_options):
        raise Refused("bad_options")
    return info, seats, opts


def _new_match(game_name: str, seats: int, opts: dict):
    seed = _seed()
    try:
        state = table_game(game_name).engine.new_match(seed=seed, seats=seats, options=opts or None)
    except (ValueError, TypeError) as e:
        raise Refused("bad_options") from e
    return seed, state


def create_table(
    user,
    game_name: str,
    level: str = "normal",
    options: dict | None = None,
    seats: int | None = None,
    replaces=None,
) -> Table:
    """A new table with ``user`` in seat 0 and bots elsewhere, dealt and recorded.

    ``replaces``: the code of the player's session this one succeeds (new settings make new
    totals); that session ends and stays in the history.
    """
    _info, seats, opts = _validated(game_name, options, seats)
    if level not in LEVELS:
        raise Refused("bad_level")
    seed, state = _new_match(game_name, seats, opts)
    with transaction.atomic():
        unit = Unit()
        table = _dealt_table(
            unit, user, game_name, seed, state, opts, [level] * (seats - 1), level=level
        )
        if replaces:
            _end_session(unit, replaces, user)
    return table


def turned(deal: dict, dealer: int | None, seat: int) -> tuple[dict, int | None]:
    """A deal and its dealer turned so that seat ``seat``'s cards are seat 0's."""
    n = len(deal["hands"])
    hands = {k: (v[seat:] + v[:seat] if k == "hands" else v) for k, v in deal.items()}
    return hands, None if dealer is None else (dealer - seat) % n


def one_hand_table(
    unit: Unit,
    user,
    game_name: str,
    start: dict,
    options: dict,
    levels: list[str],
    *,
    level: str,
    seed: int | None = None,
    **fields,
) -> Table:
    """A table of one hand dealt from ``start`` (``{"deal", "dealer"}``, as
    ``new_match_from_deal`` takes them), ``user`` in seat 0 and a computer player of
    ``levels[i - 1]`` in each seat ``i`` after it, recorded and told: a deal played again, a
    lesson, a deal of the day (``fields``: the table's own columns for each). Unrated (its
    ``start``); its later hands, if it had any, would come from ``seed`` (a new one if None).
    Inside the caller's transaction."""
    game = table_game(game_name).engine
    seed = _seed() if seed is None else seed
    try:
        state = game.new_match_from_deal(start["deal"], start["dealer"], options or None, seed=seed)
    except (ValueError, TypeError) as e:
        raise Refused("bad_options") from e
    return _dealt_table(
        unit, user, game_name, seed, state, options, levels, level=level, start=start, **fields
    )


def _dealt_table(
    unit: Unit, user, game_name: str, seed, state, options: dict, levels: list[str], **fields
) -> Table:
    """A table dealt ``state``: its row (``fields``: its own columns), ``user`` in seat 0, a
    computer player of ``levels[i - 1]`` in each seat ``i`` after it, its first hand opened."""
    table = Table.objects.create(
        game=game_name,
        options=options,
        seed=str(seed),
        state=table_game(game_name).engine.to_json(state),
        owner=user,
        **fields,
    )
    Seat.objects.create(table=table, index=0, user=user)
    for i, bot_level in enumerate(levels, start=1):
        Seat.objects.create(table=table, index=i, kind=Seat.Kind.BOT, bot_level=bot_level)
    _open_hand(unit, table, state)
    return table


def create_same_deal_table(user, source: Table, again: dict, seat: int) -> Table:
    """A one-hand table with a finished hand's deal (``history.deal_of_hand``), the player in
    seat 0 with the cards they held in seat ``seat``, the computer players at their levels
    (a person's seat at Normal). Unrated: the player has seen every hand of that deal."""
    seats = sorted(source.seat_list, key=lambda s: s.index)
    n = len(seats)
    deal, dealer = turned(again["deal"], again["dealer"], seat)
    levels = [(s.bot_level or source.level) if s.is_bot else "normal" for s in seats]
    with transaction.atomic():
        return one_hand_table(
            Unit(),
            user,
            source.game,
            {"deal": deal, "dealer": dealer},
            source.options,
            [levels[(i + seat) % n] for i in range(1, n)],
            level=source.level,
            replay_of=again["hand"],
            replay_seat=seat,
        )


def _end_session(unit: Unit, code, user) -> None:
    try:
        old = Table.objects.select_for_update().get(code=parse_code(code))
    except (Refused, Table.DoesNotExist):
        return  # no such session (a stale or forged form): there is nothing to end
    if seat_of(old, user) is None or not old.is_active:
        return
    old.status = Table.Status.FINISHED
    old.finished_at = timezone.now()
    old.bot_due_at = None
    old.version += 1
    old.save()
    unit.notify(old)


def resign(code, user) -> Table:
    """End a match against the computer. At a table of people, leave it instead: the match
    goes on without the player."""
    with transaction.atomic():
        unit = Unit()
        table, seat = _locked_seat(code, user)
        if table.shared:
            return leave_table(code, user)
        if not table.is_active:
            raise Refused("match_finished")
        table.status = Table.Status.RESIGNED
        table.finished_at = timezone.now()
        table.bot_due_at = None
        table.reveal = None  # the match ends here: the board as it is
        table.version += 1
        table.save()
        ratings.rate(table, _last_totals(table), resigned_by=seat)
        unit.notify(table)
    return table


def _last_totals(table: Table) -> list[int]:
    """The match totals after its last finished hand (zeros before the first)."""
    hand = table.hands.filter(ended_at__isnull=False).order_by("-number").only("totals").first()
    return list(hand.totals) if hand and hand.totals else [0] * len(table.seat_list)


TURN_TIMERS = (0, 30, 60, 120)
PERSON = "person"

# The short code to read out: no 0/O or 1/I to confuse.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SHORT_CODE_LENGTH = 6


def _short_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(SHORT_CODE_LENGTH))
        if not Table.objects.filter(short_code=code).exists():
            return code


def normal_short_code(text) -> str:
    """A short code as typed ("kx7 p2m", "KX7-P2M") in its stored spelling."""
    if not isinstance(text, str):
        return ""
    return "".join(c for c in text.upper() if c.isascii() and c.isalnum())[:SHORT_CODE_LENGTH]


def _changed(unit: Unit, table: Table, fields=None) -> None:
    table.version += 1
    table.save(update_fields=fields)
    unit.notify(table)
    if table.public:
        _notify_lobby()


def _waiting_table(host, game_name, options, *, spectators, public, turn_seconds) -> Table:
    """A table for people as it waits for them: no seed or deal yet, an invitation and a
    code to read out."""
    return Table.objects.create(
        game=game_name,
        options=options,
        seed="",
        state={},
        status=Table.Status.WAITING,
        owner=host,
        shared=True,
        spectators=bool(spectators),
        public=bool(public),
        turn_seconds=turn_seconds,
        invite=secrets.token_urlsafe(18),
        short_code=_short_code(),
    )


def create_shared_table(
    host,
    game_name: str,
    plan,
    options: dict | None = None,
    *,
    spectators: bool = False,
    public: bool = False,
    turn_seconds: int = 0,
) -> Table:
    """A table for people, waiting for them: ``plan`` gives each seat, "person" or a computer
    player's level; the host takes seat 0."""
    if not isinstance(plan, (list, tuple)) or not plan:
        raise Refused("bad_seats")
    _info, seats, opts = _validated(game_name, options, len(plan))
    if plan[0] != PERSON or any(p != PERSON and p not in LEVELS for p in plan):
        raise Refused("bad_seats")
    if turn_seconds not in TURN_TIMERS:
        raise Refused("bad_timer")
    _new_match(game_name, seats, opts)  # the engine refuses options it cannot play now
    with transaction.atomic():
        unit = Unit()
        table = _waiting_table(
            host, game_name, opts, spectators=spectators, public=public, turn_seconds=turn_seconds
        )
        for i, choice in enumerate(plan):
            if choice == PERSON:
                Seat.objects.create(table=table, index=i, user=host if i == 0 else None)
            else:
                Seat.objects.create(table=table, index=i, kind=Seat.Kind.BOT, bot_level=choice)
        unit.notify(table)
        if table.public:
            _notify_lobby()
    return table


def find_invitation(token) -> Table:
    """The shared table an invitation link names (whatever its state), or refused."""
    if not isinstance(token, str) or not 16 <= len(token) <= 32:
        raise Refused("bad_invitation")
    try:
        return _one_with_seats(Table.objects, invite=token, shared=True)
    except Table.DoesNotExist as e:
        raise Refused("bad_invitation") from e


def find_short_code(text) -> Table:
    code = normal_short_code(text)
    if len(code) != SHORT_CODE_LENGTH:
        raise Refused("bad_short_code")
    try:
        return _one_with_seats(Table.objects, short_code=code, shared=True)
    except Table.DoesNotExist as e:
        raise Refused("bad_short_code") from e


def open_tables(limit: int = 20) -> list[Table]:
    """Public tables waiting for people, with a free seat: the lobby's list."""
    tables = _with_seats(
        Table.objects.filter(public=True, status=Table.Status.WAITING).order_by("-created_at")
    )[: limit * 2]
    return [t for t in tables if any(s.is_open and not s.reserved_for_id for s in t.seat_list)][
        :limit
    ]


def join_table(code, user, index: int | None = None) -> Table:
    """Take a seat (the first free one, or ``index``). Someone already seated resumes theirs."""
    with transaction.atomic():
        unit = Unit()
        table = _locked(code)
        if not table.shared:
            raise Refused("no_such_table")
        if seat_of(table, user) is not None:
            return table
        if not table.is_waiting:
            raise Refused("match_started" if table.is_active else "bad_invitation")
        free = [
            s
            for s in table.seat_list
            if s.is_open and s.reserved_for_id in (None, getattr(user, "pk", None))
        ]
        free.sort(key=lambda s: (s.reserved_for_id is None, s.index))  # one's own seat first
        if index is not None:
            chosen = [s for s in free if s.index == index]
            if not chosen:
                raise Refused("seat_taken")
            free = chosen
        if not free:
            raise Refused("table_full")
        seat = free[0]
        seat.user = user
        seat.reserved_for = None
        seat.save(update_fields=["user", "reserved_for"])
        _changed(unit, table)
    return table


def decline_seat(code, user) -> Table:
    """Decline a seat kept for ``user`` ("Play again"): it is open to anyone again."""
    with transaction.atomic():
        unit = Unit()
        table = _locked(code)
        seat = next((s for s in table.seat_list if s.reserved_for_id == user.pk), None)
        if seat is None or not table.is_waiting:
            raise Refused("bad_invitation")
        seat.reserved_for = None
        seat.save(update_fields=["reserved_for"])
        _changed(unit, table)
    return table


def _locked_for_host(code, user) -> Table:
    """The table locked, for its host while it waits for people; refused for anyone else, and
    once its match has started."""
    table, _mine = _locked_seat(code, user)
    if table.owner_id != user.pk:
        raise Refused("host_only")
    if not table.is_waiting:
        raise Refused("match_started")
    return table


def set_seat(code, user, index, choice: str) -> Table:
    """The host makes a free seat a computer player (a level) or opens it for a person."""
    with transaction.atomic():
        unit = Unit()
        table = _locked_for_host(code, user)
        if not isinstance(index, int) or not 0 <= index < table.seats.count():
            raise Refused("bad_seats")
        if choice != PERSON and choice not in LEVELS:
            raise Refused("bad_level")
        seat = _seat(table, index)
        if seat.user_id is not None:
            raise Refused("seat_taken")
        if choice == PERSON:
            seat.kind, seat.bot_level = Seat.Kind.PERSON, ""
        else:
            seat.kind, seat.bot_level, seat.reserved_for = Seat.Kind.BOT, choice, None
        seat.save(update_fields=["kind", "bot_level", "reserved_for"])
        _changed(unit, table)
    return table


def start_match(code, user) -> Table:
    """The host deals the first hand once every person's seat is taken."""
    with transaction.atomic():
        unit = Unit()
        table = _locked_for_host(code, user)
        if any(s.is_open for s in table.seat_list):
            raise Refused("seats_open")
        seed, state = _new_match(table.game, table.seats.count(), table.options)
        table.seed = str(seed)
        table.status = Table.Status.ACTIVE
        table.version += 1
        table.state = table_game(table.game).engine.to_json(state)
        _open_hand(unit, table, state)
        if table.public:
            _notify_lobby()
    return table


def _still_in(seat: Seat) -> bool:
    """A person who has not left the match: playing, or away with a computer playing for
    them meanwhile (auto-play), which they end by coming back."""
    return seat.kind == Seat.Kind.PERSON and seat.user_id is not None and not seat.left


def leave_table(code, user) -> Table:
    """Leave: a free seat again before the match (the host's leaving closes the table).

    During it, a computer player takes the seat for the rest of the match, and the others go
    on, those away on auto-play too (they have not left: it is still their match). Only the
    last person still in it leaving ends it: they chose to end it, so the match is resigned
    and rated at once. The leavers come last whenever it is rated (``ratings.participants``),
    at its end or then, as a player who quits does on BGA; the last person is ranked as
    resigning the match (a session, which has no other end, by its totals)."""
    with transaction.atomic():
        unit = Unit()
        table, index = _locked_seat(code, user)
        seat = _seat(table, index)
        if table.is_waiting:
            if table.owner_id == user.pk:
                table.status = Table.Status.RESIGNED
                table.finished_at = timezone.now()
            else:
                seat.user = None
                seat.save(update_fields=["user"])
        elif table.is_active and not seat.left:
            others = [s for s in table.seat_list if s.index != index and _still_in(s)]
            if not table.shared or not others:
                table.status = Table.Status.RESIGNED  # nobody else is left to play for
                table.finished_at = timezone.now()
                table.bot_due_at = None
                table.reveal = None
                ratings.rate(table, _last_totals(table), resigned_by=index)
            else:
                seat.left = seat.autoplay = True
                seat.away_due_at = None
                seat.save(update_fields=["left", "autoplay", "away_due_at"])
                _schedule_bots(table, load_state(table))
        else:
            return table
        table.version += 1
        table.save()
        unit.notify(table)
        if table.public:
            _notify_lobby()
    return table


def play_again(code, user) -> Table:
    """After a match of people: a new table with the same seats, game and settings, where
    ``user`` is seated: one click each. Whoever asks first is its host and sits down at once;
    every other person of the match has their seat kept for them, and asking in turn seats
    them there (or they decline, ``decline_seat``). Asked again, the same new table."""
    with transaction.atomic():
        unit = Unit()
        old, index = _locked_seat(code, user)
        if not old.shared:
            raise Refused("no_such_table")
        if old.status == Table.Status.ACTIVE or old.status == Table.Status.WAITING:
            raise Refused("match_not_over")
        if old.successor_id is not None:
            return join_table(old.successor.code, user)  # their kept seat (or theirs already)
        table = _waiting_table(
            user,
            old.game,
            old.options,
            spectators=old.spectators,
            public=old.public,
            turn_seconds=old.turn_seconds,
        )
        for seat in old.seat_list:
            if seat.is_bot:
                Seat.objects.create(
                    table=table, index=seat.index, kind=Seat.Kind.BOT, bot_level=seat.bot_level
                )
            elif seat.index == index:
                Seat.objects.create(table=table, index=seat.index, user=user)
            else:
                back = seat.user if seat.user_id is not None and not seat.left else None
                Seat.objects.create(table=table, index=seat.index, reserved_for=back)
        old.successor = table
        old.version += 1
        old.save(update_fields=["successor", "version", "updated_at"])
        unit.notify(old)
        unit.notify(table)
        if table.public:
            _notify_lobby()
    return table


def forget_player(user) -> None:
    """Before an account is deleted: its matches against the computer go with it; a match it
    played with other people stays theirs (the seat then reads "deleted player"), and one
    still running goes on with a computer player in the seat: the account leaves it as
    Leave does (``leave_table``), ending it only if nobody else is still in it."""
    codes = list(Table.objects.filter(seats__user=user).values_list("code", flat=True))
    for code in codes:
        table = get_table(code)
        others = [s for s in table.seat_list if s.user_id not in (None, user.pk)]
        if not others:
            table.delete()
        elif table.is_active or table.is_waiting:
            leave_table(code, user)
