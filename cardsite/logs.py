"""Log lines: one JSON object per line in production, plain text in development.

``settings.LOGGING`` picks the formatter: JSON when ``LOG_FORMAT=json`` or, by default, when
``DEBUG`` is off; ``LOG_FORMAT=text`` forces the readable form. A line carries the time, the
level, the logger, the message and whatever the call passed in ``extra`` (the action lines of
``games.actions``: table, seat, action, version, outcome, duration_ms), and a traceback
under ``exc`` for an exception.

The stdlib's logging and these few lines rather than python-json-logger: a line is a flat
dict dumped with ``json.dumps``, nothing to configure, one dependency fewer.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

# The attributes every LogRecord has; anything else on a record came from ``extra``.
_STANDARD = frozenset(
    logging.LogRecord("", 0, "", 0, "", None, None).__dict__.keys()
    | {"message", "asctime", "taskName"}
)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        # default=str: an object passed in ``extra`` becomes its text, never a failed line.
        return json.dumps(line, ensure_ascii=False, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def choose_format(value: str | None, debug: bool) -> str:
    """``LOG_FORMAT`` ("json" or "text"); unset: text with DEBUG on, JSON with it off."""
    value = (value or "").strip().lower()
    if value in ("json", "text"):
        return value
    return "text" if debug else "json"


def logging_config(fmt: str, level: str, actions_level: str) -> dict:
    """``settings.LOGGING`` for ``fmt`` ("json" or "text")."""
    formatter = {"()": "cardsite.logs.JsonFormatter"} if fmt == "json" else {"format": TEXT_FORMAT}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"site": formatter},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "site"}},
        "root": {"handlers": ["console"], "level": level},
        # One line per player's action (games.views_live.handle), at INFO.
        "loggers": {"games.actions": {"level": actions_level}},
    }
