"""Errors to Sentry: off without a DSN; every event scrubbed of cards, game state, secrets."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from cardsite import errors

ROOT = Path(__file__).resolve().parents[2]


def test_the_scrubber_removes_cards_state_and_secrets_and_keeps_the_rest():
    frame = {"action": "play", "card": "QS", "cards": ["AH", "TD"], "version": 12}
    event = {
        "message": "illegal card QS for seat 2 (holding AH, 10 others)",
        "exception": {
            "values": [
                {
                    "type": "IllegalAction",
                    "value": "not_in_hand: QS",
                    "stacktrace": {
                        "frames": [
                            {
                                "function": "handle",
                                "vars": {
                                    "data": frame,
                                    "frame": frame,
                                    "state": {"hands": [["2C", "3C"]], "trick": []},
                                    "hand": ["4D"],
                                    "observation": {"hand": ["5H"], "phase": "play"},
                                    "task": "BotTask(code='x', observation={'hand': ['6S']})",
                                    "code": "0c5d8f6e-1b2a-4c3d-9e8f-7a6b5c4d3e2f",
                                    "seat": 2,
                                },
                            }
                        ]
                    },
                }
            ]
        },
        "request": {
            "url": "https://cards.example.com/en/tables/x/",
            "data": {"password": "hunter2", "username": "ren"},
            "headers": {"Cookie": "sessionid=abc", "Authorization": "Bearer t0k", "Host": "x"},
        },
        "breadcrumbs": {"values": [{"category": "ws", "data": {"cards": ["KH"]}}]},
        "extra": {"outcome": "stale", "Hand": ["7C"]},
        "tags": {"game": "gongzhu"},
    }
    scrubbed = errors.scrub(event, {})
    text = json.dumps(scrubbed)
    for secret in ("QS", "AH", "TD", "2C", "3C", "4D", "5H", "6S", "KH", "7C"):
        assert f'"{secret}"' not in text and f" {secret}" not in text and f"'{secret}'" not in text
    for secret in ("hunter2", "sessionid=abc", "t0k"):
        assert secret not in text
    vars_ = scrubbed["exception"]["values"][0]["stacktrace"]["frames"][0]["vars"]
    assert vars_["frame"] == {
        "action": "play",
        "card": errors.SCRUBBED,
        "cards": errors.SCRUBBED,
        "version": 12,
    }
    for key in ("data", "state", "hand", "observation"):
        assert vars_[key] == errors.SCRUBBED
    # What the operator needs to find the bug stays.
    assert vars_["seat"] == 2 and vars_["code"] == "0c5d8f6e-1b2a-4c3d-9e8f-7a6b5c4d3e2f"
    assert scrubbed["exception"]["values"][0]["type"] == "IllegalAction"
    assert scrubbed["message"] == "illegal card [card] for seat 2 (holding [card], 10 others)"
    assert scrubbed["request"]["headers"]["Host"] == "x"
    assert scrubbed["extra"] == {"outcome": "stale", "Hand": errors.SCRUBBED}
    assert scrubbed["tags"] == {"game": "gongzhu"}
    assert event["exception"]["values"][0]["stacktrace"]["frames"][0]["vars"]["frame"] is frame
    assert frame["card"] == "QS"  # the event is copied, the program's own objects untouched


def test_without_a_dsn_nothing_starts(monkeypatch):
    import sentry_sdk

    calls = []
    monkeypatch.setattr(sentry_sdk, "init", lambda **kw: calls.append(kw))
    assert errors.init("") is False
    assert calls == []
    assert errors.init("https://key@sentry.example.invalid/1") is True
    (options,) = calls
    assert options["before_send"] is errors.scrub
    assert options["send_default_pii"] is False
    assert [type(i).__name__ for i in options["integrations"]] == ["DjangoIntegration"]


def test_an_error_reaches_the_transport_scrubbed():
    """The real SDK (in a process of its own: it patches Django for good) with a transport
    that keeps the events: an exception raised with a hand in its local variables."""
    script = textwrap.dedent(
        """
        import json, sys
        import sentry_sdk
        from cardsite import errors

        sent = []

        class Keep(sentry_sdk.transport.Transport):
            def capture_envelope(self, envelope):
                for item in envelope.items:
                    sent.append(item.payload.get_bytes().decode())

        assert errors.init("https://key@sentry.example.invalid/1", transport=Keep)

        def play(frame):
            hand = ["QS", "AH"]
            observation = {"hand": hand, "phase": "play"}
            raise RuntimeError("cannot play " + frame["card"])

        try:
            play({"action": "play", "card": "QS", "version": 3})
        except RuntimeError:
            sentry_sdk.capture_exception()
        sentry_sdk.flush()
        print(json.dumps(sent))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    (event,) = json.loads(result.stdout)
    assert "RuntimeError" in event and '"play"' in event  # the error and where it happened
    assert "QS" not in event and "AH" not in event
