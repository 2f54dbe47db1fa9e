"""A match as persisted: the latest state snapshot, its seats and the append-only action log.

Replaying `engine.setup(len(seats), options, seed)` and every ActionLog row in
version order rebuilds `Match.state` exactly (tests/platform/test_matches_replay.py).
"""

from django.conf import settings
from django.db import models


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    game = models.CharField(max_length=40)
    options = models.JSONField(default=dict)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    # Number of actions applied; the optimistic-lock token clients echo back.
    version = models.IntegerField(default=0)
    # The full state: never leaves the server (only engine.view output does).
    state = models.JSONField()
    public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self):
        return f"Match {self.pk} ({self.game}, v{self.version}, {self.status})"


class MatchSeat(models.Model):
    """Seat `seat` of a match: a user, or a bot named after one of ENGINE.bots."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="match_seats"
    )
    bot = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matches_seat_unique"),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=False, bot="") | models.Q(user__isnull=True) & ~models.Q(bot="")),
                name="matches_seat_user_xor_bot",
            ),
        ]


class ActionLog(models.Model):
    """One applied action.  Rows are only ever inserted (by services.apply_action)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log")
    version = models.IntegerField()  # the match version this action produced (1, 2, ...)
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # The client's action id; unique per match so a resent action is never applied twice.
    client_id = models.CharField(max_length=64)
    events = models.JSONField(default=list)  # every event, hidden ones included; filtered per viewer
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="matches_log_version_unique"),
            models.UniqueConstraint(fields=["match", "client_id"], name="matches_log_client_id_unique"),
        ]
