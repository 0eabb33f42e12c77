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
        # A table for people, before its host starts the match: no deal, no seed yet.
        WAITING = "waiting", _("waiting for players")

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    game = models.CharField(max_length=20, choices=game_choices)
    options = models.JSONField(default=dict, blank=True)
    # 128 bits from `secrets`, kept as text (beyond a 64-bit integer column); never shown
    # before the match ends, since one known deal must not reveal the next.
    seed = models.CharField(max_length=40)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # Who created the table (the host of a shared one). A deleted account leaves the table to
    # the others who played at it (see ``games.signals``).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables",
    )
    level = models.CharField(max_length=8, choices=LEVEL_CHOICES, default="normal")
    # When the next bot move is due (null: no bot to move). The bot driver finds due tables
    # here after a restart; a claim stops two processes from thinking about the same move.
    bot_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    bot_claimed_until = models.DateTimeField(null=True, blank=True)
    # Fast-forward: the bots play without pauses until the player is to move again.
    hurry = models.BooleanField(default=False)
    # Bots' replies applied together with the move before them but still being shown, each at
    # its paced time: ``{"until": T, "steps": [[t, version, state], ...]}`` (times in seconds
    # since the epoch). Until T, a reader sees the last step whose time has come
    # (``services.as_shown``), not ``state``; null (or T past) when nothing is on the way.
    reveal = models.JSONField(null=True, blank=True, default=None)
    # The hand being played (or the last one): a move needs its id, and reading it here
    # saves a query per move.
    current_hand = models.ForeignKey(
        "Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    # -- a table for people (``shared``): created with seats for persons, joined by invitation
    shared = models.BooleanField(default=False)
    spectators = models.BooleanField(default=False, help_text="Others may watch.")
    public = models.BooleanField(
        default=False, help_text="Listed in the lobby while seats are free."
    )
    # The turn timer (0: off): a person to move longer than this is played for by Normal.
    turn_seconds = models.PositiveSmallIntegerField(default=0)
    # The invitation link's secret and the short code to read out (both unique, shared only).
    invite = models.CharField(max_length=32, unique=True, null=True, blank=True)
    short_code = models.CharField(max_length=8, unique=True, null=True, blank=True)
    # When the current turn's timer runs out, and the earliest of every deadline (the turn
    # timer, a disconnected player's grace): the bot driver finds due tables here, so a
    # restart loses no timer.
    turn_due_at = models.DateTimeField(null=True, blank=True)
    timer_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # "Play again": the match the same people were invited to after this one.
    successor = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # "Play the same deal again": the finished hand this one-hand table deals again (unrated),
    # the seat the player had there (their seat 0 here: the deal turned so), and the deal and
    # dealer it started from (its replay starts there, not from the seed).
    replay_of = models.ForeignKey(
        "Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays"
    )
    replay_seat = models.PositiveSmallIntegerField(default=0)
    start = models.JSONField(null=True, blank=True)
    # A guided first hand (its game's ``lesson.LESSON``, games.lessons): ``{"offset": k,
    # "quiz": answered}``. The script's move due is at index ``version - offset`` (a quiz
    # answered is a new version that moves no card); null at every other table.
    lesson = models.JSONField(null=True, blank=True, default=None)
    # A deal of the day's table (games.services.daily): one hand, against Hard, never watched.
    daily = models.ForeignKey(
        "DailyDeal", null=True, blank=True, on_delete=models.SET_NULL, related_name="tables"
    )
    # Moves on whenever the row or one of its seats is written, by anyone: the database's
    # triggers see to it (migration 0012), whatever the write (a save, an update, the admin).
    # A move's writer sets it one on (``store._save_row``) and keeps the table as written, so
    # that the next move's locked read asks the row for this number alone when nothing else
    # wrote it meanwhile (``store._by_code``).
    revision = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["owner", "status"]),
            models.Index(fields=["public", "status"]),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.code}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_waiting(self) -> bool:
        return self.status == self.Status.WAITING

    @property
    def seat_list(self) -> list:
        """The seats, in their order: those the table's read attached (a prefetch, or
        ``services.store._attach_seats``) as they are, else read. ``seats.all()`` made a
        manager and a queryset on every call, and a move asks a dozen times."""
        cache = self.__dict__.get("_prefetched_objects_cache")
        if cache is not None and "seats" in cache:
            return cache["seats"]._result_cache
        return list(self.seats.all())


# The level that plays for a person who is away (auto-play, 托管).
AUTOPLAY_LEVEL = "normal"


class Seat(models.Model):
    class Kind(models.TextChoices):
        PERSON = "person", _("a person")
        BOT = "bot", _("computer player")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PERSON)
    # The person in the seat (null: open, before the match; a deleted account after it).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    bot_level = models.CharField(max_length=8, choices=LEVEL_CHOICES, blank=True)
    # A computer player plays for the person: their timer ran out, they were away too long,
    # or they left the match (``left``: for the rest of it).
    autoplay = models.BooleanField(default=False)
    left = models.BooleanField(default=False)
    # A disconnected person's grace runs out then (and auto-play begins).
    away_due_at = models.DateTimeField(null=True, blank=True)
    # "Play again": the seat is kept for this person until they accept or decline.
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="unique_seat")]

    def __str__(self) -> str:
        return f"seat {self.index} of {self.table_id}"

    @property
    def is_bot(self) -> bool:
        """A computer player chosen as such."""
        return self.kind == self.Kind.BOT

    @property
    def is_open(self) -> bool:
        return self.kind == self.Kind.PERSON and self.user_id is None

    @property
    def plays_itself(self) -> bool:
        """The machinery moves for this seat: a computer player, a person on auto-play, or the
        seat of an account deleted during the match."""
        return self.is_bot or self.autoplay or self.left or self.user_id is None

    @property
    def level_to_play(self) -> str:
        return self.bot_level if self.is_bot else AUTOPLAY_LEVEL


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
    # A computer's move: a computer player's, or one made for a person (auto-play, a forced
    # move). A hand's review weighs the person's own decisions only.
    by_computer = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="unique_log_seq")]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} seat {self.seat}: {self.action}"


class LessonProgress(models.Model):
    """A player's guided first hand of a game: begun (its table), and when finished."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lessons"
    )
    game = models.CharField(max_length=20, choices=game_choices)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_lesson_per_game")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} lesson{' finished' if self.finished_at else ''}"


class DailyDeal(models.Model):
    """One game's deal of one day: the same cards and seat for everyone who plays it, and the
    day's aggregates, kept as players finish (never counted per view)."""

    game = models.CharField(max_length=20, choices=game_choices)
    day = models.DateField()
    # The table's seed: with the same moves, Hard plays the same way for everyone.
    seed = models.CharField(max_length=40)
    # The deal turned so that the player's cards are seat 0's, and who deals (as
    # ``new_match_from_deal`` takes it); the options and the number of seats it is played with.
    deal = models.JSONField()
    dealer = models.SmallIntegerField(null=True, blank=True)
    options = models.JSONField(default=dict, blank=True)
    players = models.PositiveIntegerField(default=0)  # finished entries
    best = models.IntegerField(null=True, blank=True)
    best_entry = models.ForeignKey(
        "DailyEntry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "day"], name="one_deal_a_day")]

    def __str__(self) -> str:
        return f"{self.game} deal of {self.day}"


class DailyEntry(models.Model):
    """One player's go at a deal of the day: begun, then finished with its score and the
    player's moves (what the comparison with the others reads)."""

    daily = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_entries"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    score = models.IntegerField(null=True, blank=True)
    moves = models.JSONField(default=list, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["daily", "user"], name="one_entry_a_deal")]
        indexes = [models.Index(fields=["daily", "-score"])]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.daily}: {self.score}"


class DailyScore(models.Model):
    """How many finished a deal of the day with this score: places and percentiles read it."""

    daily = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="scores")
    score = models.IntegerField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["daily", "score"], name="one_count_a_score")]

    def __str__(self) -> str:
        return f"{self.daily}: {self.count} × {self.score}"


class DailyChoice(models.Model):
    """How many players, having made the same moves before (``position``: their digest), then
    made ``move`` (its JSON): what the comparison after the hand reads."""

    daily = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="choices")
    position = models.CharField(max_length=40)
    move = models.CharField(max_length=300)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["daily", "position", "move"], name="one_count_a_choice")
        ]

    def __str__(self) -> str:
        return f"{self.daily} at {self.position[:8]}: {self.count} × {self.move}"


class DailySeen(models.Model):
    """A player who saw a deal of the day played (a replay) before playing it: not entered."""

    daily = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["daily", "user"], name="seen_once")]

    def __str__(self) -> str:
        return f"{self.user_id} saw {self.daily}"


class Presence(models.Model):
    """One open socket at a shared table: its seat (null: a spectator) and when it was last
    heard from. A process that dies leaves its rows behind; they go stale and are swept."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presences")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE)
    channel = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.channel} at {self.table_id} (seat {self.seat})"


class RatedMatch(models.Model):
    """A match that counted for the ratings: who took part and their places (games.ratings)."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="rated")
    game = models.CharField(max_length=20, choices=game_choices)
    places = models.JSONField(help_text="Per seat: place, and the rated user or the bot level.")
    rated_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.game} {self.table_id} rated {self.rated_at:%Y-%m-%d}"


class Rating(models.Model):
    """A player's rating in one game (OpenSkill: mean and uncertainty)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.CharField(max_length=20, choices=game_choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} μ={self.mu:.1f} σ={self.sigma:.1f}"


class RatingChange(models.Model):
    """One player's rating before and after one rated match: the history a profile draws."""

    match = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.CharField(max_length=20, choices=game_choices)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_change_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} {self.mu_before:.1f} → {self.mu:.1f}"


class HandReview(models.Model):
    """Hard's look at one seat's decisions in a finished hand (games.reviews), kept with it.

    ``decisions`` holds, per decision weighed, the position as that seat saw it and Hard's
    values; the counts say how far the low-priority review worker has got."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveSmallIntegerField(default=0)
    done = models.PositiveSmallIntegerField(default=0)
    decisions = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="one_review_per_seat")]

    def __str__(self) -> str:
        return f"review of {self.hand} for seat {self.seat}: {self.status}"
