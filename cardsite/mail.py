"""Mail in production without a mail server: a line in the log that says a message was not
sent, to whom (the domain only) and what about, and never its body.

Django's console backend wrote the whole message to the process's output, which production
keeps as its log: a password-reset link, a working key to the account, in plain text for
whoever reads the logs (findings 3.1). Development keeps the console backend, where the link
in the terminal is how a developer resets a password.
"""

from __future__ import annotations

import logging

from django.core.mail.backends.base import BaseEmailBackend

log = logging.getLogger("cardsite.mail")


def _domain(address: str) -> str:
    return "…@" + address.rpartition("@")[2] if "@" in address else "…"


class NotSentBackend(BaseEmailBackend):
    """Sends nothing; logs one redacted warning per message (no body, no full address)."""

    def send_messages(self, email_messages) -> int:
        for message in email_messages or []:
            log.warning(
                "mail not sent (no EMAIL_HOST is set): to %s, subject %r",
                ", ".join(_domain(a) for a in message.recipients()),
                message.subject,
            )
        return 0
