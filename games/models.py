"""Tables (matches), their seats, hands and the append-only action log.

History is the log: from a table's seed and its logged actions any hand replays exactly.
Each hand also keeps its deal and the engine version that played it, so a replay can tell
when the rules code has changed since and fall back to the record.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.registry import game_choices
from games.tables.common import LEVEL_CHOICES


class Table(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("running")
        FINISHED = "finished", _("finished")
        RESIGNED = "resigned", _("resigned")

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    game = models.CharField(max_length=20, choices=game_choices)
    options = models.JSONField(default=dict, blank=True)
    # 128 bits from `secrets`, kept as text (beyond a 64-bit integer column); never shown
    # before the match ends, since one known deal must not reveal the next.
    seed = models.CharField(max_length=40)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tables"
    )
    level = models.CharField(max_length=8, choices=LEVEL_CHOICES, default="normal")
    # When the next bot move is due (null: no bot to move). The bot driver finds due tables
    # here after a restart; a claim stops two processes from thinking about the same move.
    bot_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    bot_claimed_until = models.DateTimeField(null=True, blank=True)
    # Fast-forward: the bots play without pauses until the player is to move again.
    hurry = models.BooleanField(default=False)
    # The hand being played (or the last one): a move needs its id, and reading it here
    # saves a query per move.
    current_hand = models.ForeignKey(
        "Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["owner", "status"])]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.code}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    bot_level = models.CharField(max_length=8, choices=LEVEL_CHOICES, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="unique_seat")]

    def __str__(self) -> str:
        return f"seat {self.index} of {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


class Hand(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    deal = models.JSONField(help_text="The cards dealt, per seat (and any stock).")
    engine_version = models.CharField(max_length=40)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    breakdown = models.JSONField(null=True, blank=True)
    totals = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="unique_hand")]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.table_id}"

    @property
    def finished(self) -> bool:
        return self.ended_at is not None


class ActionLog(models.Model):
    """Append-only: one row per applied action, human or bot."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="log")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(help_text="The table's version after this action.")
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="unique_log_seq")]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} seat {self.seat}: {self.action}"
