"""The log of players' actions: one JSON object per line, and never a card of a hand."""

import io
import json
import logging
import random
import re

import pytest

from cardsite.logs import JsonFormatter, choose_format, logging_config
from games import views_live
from games.engine import get_game
from games.models import Hand
from tests.games.conftest import play_until_human

pytestmark = pytest.mark.django_db
GAME = get_game("gongzhu")


@pytest.fixture
def json_log():
    """Everything logged at INFO and above, as production writes it (LOG_FORMAT=json)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    root, actions = logging.getLogger(), logging.getLogger("games.actions")
    levels = root.level, actions.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    actions.setLevel(logging.INFO)
    yield stream
    root.removeHandler(handler)
    root.setLevel(levels[0])
    actions.setLevel(levels[1])


def state_of(table):
    table.refresh_from_db()
    return GAME.from_json(table.state)


def send(table, owner, frame):
    return views_live.handle(str(table.code), owner, "en", frame, "gongzhu")


def test_each_action_is_one_json_line_without_any_card_in_play(table, owner, json_log):
    rng = random.Random(3)
    deal = Hand.objects.get(table=table, number=1).deal["hands"]
    sent = []

    def move():
        play_until_human(table)
        state = state_of(table)
        action = rng.choice(GAME.legal_actions(state, 0))
        frame = {"action": action["type"], "version": table.version}
        frame.update({k: v for k, v in action.items() if k != "type"})
        send(table, owner, frame)
        sent.append((frame["action"], "applied"))

    for _ in range(3):
        move()
    play_until_human(table)
    state = state_of(table)
    own = GAME.observation(state, 0)["hand"]
    others = [c for seat, cards in enumerate(deal) if seat != 0 for c in cards if c not in own]
    # Refusals: a card the seat does not hold, a stale version, a frame that is a card itself.
    send(table, owner, {"action": "play", "card": others[0], "version": table.version})
    sent.append(("play", None))
    send(table, owner, {"action": "play", "card": own[0], "version": table.version - 1})
    sent.append(("play", "stale"))
    send(table, owner, {"action": own[0], "cards": own, "version": table.version})
    sent.append(("unknown", "bad_frame"))
    send(table, owner, {"action": "hint", "version": table.version})  # the hint names a card
    sent.append(("hint", "applied"))
    move()

    output = json_log.getvalue()
    lines = [json.loads(line) for line in output.splitlines()]  # each line is one object
    actions = [line for line in lines if line["logger"] == "games.actions"]
    assert len(actions) == len(sent)
    for line, (kind, outcome) in zip(actions, sent, strict=True):
        assert line["table"] == str(table.code)
        # An unreadable frame is refused before the table is read: no seat to tell.
        assert line["seat"] == (None if outcome == "bad_frame" else 0)
        assert line["action"] == kind
        assert outcome is None or line["outcome"] == outcome
        assert isinstance(line["version"], int)
        assert line["duration_ms"] >= 0
        assert {"time", "level", "message"} <= line.keys()
    assert actions[3]["outcome"] not in ("applied", "stale")  # an illegal card, by its code

    # No card of any hand in play, anywhere in the output (every card of the deck was dealt).
    dealt = {c for cards in deal for c in cards}
    assert len(dealt) == 52
    leaked = {c for c in dealt if re.search(rf"\b{c}\b", output)}
    assert not leaked, f"cards in the log: {sorted(leaked)}"


def test_json_lines_carry_extra_fields_and_tracebacks():
    formatter = JsonFormatter()
    record = logging.LogRecord("games.actions", logging.INFO, __file__, 1, "a %s", ("b",), None)
    record.table, record.seat = "t-1", 2
    line = json.loads(formatter.format(record))
    assert line["message"] == "a b" and line["table"] == "t-1" and line["seat"] == 2
    assert line["level"] == "INFO" and line["logger"] == "games.actions"
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    line = json.loads(formatter.format(record))
    assert "ValueError: boom" in line["exc"] and "\n" not in formatter.format(record)


def test_production_logs_json_and_development_text():
    assert choose_format(None, debug=False) == "json"
    assert choose_format("", debug=True) == "text"
    assert choose_format("json", debug=True) == "json"
    assert choose_format("TEXT", debug=False) == "text"
    json_config = logging_config("json", "WARNING", "INFO")
    assert json_config["formatters"]["site"] == {"()": "cardsite.logs.JsonFormatter"}
    assert json_config["loggers"]["games.actions"]["level"] == "INFO"
    assert "format" in logging_config("text", "WARNING", "INFO")["formatters"]["site"]
