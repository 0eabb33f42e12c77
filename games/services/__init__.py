"""The one write path for tables, by concern.

Every change to a table goes through here, in one transaction: lock the row, check the
version the player saw, apply through the engine, log, save, and after commit tell the
table's group "changed, version N". The modules, each using only those before it:

- ``store``: reading tables and seats, writing a move's rows (SQL compiled once per
  process) and the process's caches; ``Refused``.
- ``pacing``: the moves on their way (``as_shown``) and what is due next.
- ``reading``: the table as its viewers see it, and each seat's view.
- ``unit``: a command's unit of work: lock and check, the log lines to write, the notice.
- ``presence``: sockets, presence, deadlines and auto-play, reactions.
- ``tally``: the deal of the day's aggregates, counted as each player finishes.
- ``moves``: a player's and the bots' moves, hands dealt and ended.
- ``seating``: tables created, joined, left, started and played again.
- ``lessons``: guided first hands begun, their questions answered, what a player finished.
- ``daily``: the deal of the day: drawn, played once, its standings and comparison, streaks.

The names used outside the package are here; the others live in their module (a test that
patches one patches it there).
"""

from games.bots.task import BotTask
from games.models import Table
from games.services.daily import (
    deal_of,
    has_seen,
    may_see_played,
    seen_played,
    start_daily,
    streak,
    today,
)
from games.services.lessons import answer_quiz, finished_lessons, start_lesson
from games.services.moves import (
    LEVELS,
    apply_bot_move,
    fast_forward,
    hint_for,
    may_hurry,
    play_due_bot_move,
    run_bots,
    set_level,
    start_next_hand,
    submit_action,
)
from games.services.pacing import as_shown, pacing
from games.services.presence import (
    REACTIONS,
    heartbeat,
    react,
    socket_closed,
    socket_opened,
    sweep_presence,
    take_back,
)
from games.services.reading import (
    Board,
    board,
    committed_table,
    game_of,
    get_table,
    kept_for,
    load_state,
    look,
    presence_of,
    seat_of,
    seat_view,
    showing_table,
    view_for,
)
from games.services.seating import (
    TURN_TIMERS,
    create_same_deal_table,
    create_shared_table,
    create_table,
    decline_seat,
    find_invitation,
    find_short_code,
    forget_player,
    join_table,
    leave_table,
    open_tables,
    play_again,
    resign,
    set_seat,
    start_match,
)
from games.services.store import Refused, forget_person, parse_code

__all__ = [
    "deal_of",
    "has_seen",
    "may_see_played",
    "seen_played",
    "start_daily",
    "streak",
    "today",
    "LEVELS",
    "REACTIONS",
    "TURN_TIMERS",
    "Board",
    "BotTask",
    "Refused",
    "Table",
    "answer_quiz",
    "apply_bot_move",
    "as_shown",
    "board",
    "committed_table",
    "create_same_deal_table",
    "create_shared_table",
    "create_table",
    "decline_seat",
    "fast_forward",
    "may_hurry",
    "find_invitation",
    "find_short_code",
    "finished_lessons",
    "forget_person",
    "forget_player",
    "game_of",
    "get_table",
    "heartbeat",
    "hint_for",
    "join_table",
    "kept_for",
    "leave_table",
    "load_state",
    "look",
    "open_tables",
    "pacing",
    "parse_code",
    "play_again",
    "play_due_bot_move",
    "presence_of",
    "react",
    "resign",
    "run_bots",
    "seat_of",
    "seat_view",
    "set_level",
    "set_seat",
    "showing_table",
    "socket_closed",
    "socket_opened",
    "start_lesson",
    "start_match",
    "start_next_hand",
    "submit_action",
    "sweep_presence",
    "take_back",
    "view_for",
]
