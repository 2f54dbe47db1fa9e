"""A match as persisted: the latest state snapshot, its seats and the append-only action log.

Replaying `engine.setup(len(seats), options, seed)` and every ActionLog row in
version order rebuilds `Match.state` exactly (tests/platform/test_matches_replay.py).
Everything an action or a hand-over to the bot changes is a column of the
Match row (version, clock, control, human_acted, deadline_at) or its log row,
so that one conditional UPDATE on `version` writes it together (store.py).
The state itself, the largest value, is written every MATCH_STATE_EVERY
versions and when the match ends; the state of any version is the stored one
stepped through the log rows after `state_version` (store.read_snapshot).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from . import clock as clocks


def untimed() -> dict:
    return dict(clocks.UNTIMED)


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
    # The full state at version `state_version`: never leaves the server (only engine.view output does).
    state = models.JSONField()
    state_version = models.IntegerField(default=0)
    public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    # As chosen in the lobby (clock.validate); fixed for the match.
    time_control = models.JSONField(default=untimed)
    # The server's clock (clock.py); null for matches older than clocks. Never sent as is: clock.frame is.
    clock = models.JSONField(null=True, blank=True)
    # Who plays each seat now (seating.py): None for its owner, or a hand-over to the bot.
    control = models.JSONField(default=list)
    # Set by the first action of a seat its user plays; from then on the match cannot be aborted.
    human_acted = models.BooleanField(default=False)
    # In a step where silence answers (engine.defaults): when the platform answers for the silent seats, epoch ms.
    window_until = models.BigIntegerField(null=True, blank=True)
    # The latest a player's hold may move window_until to (MATCH_HOLD_MAX_S after the step began).
    window_cap = models.BigIntegerField(null=True, blank=True)
    # When the platform must act next (the earliest clock to run out, or window_until), for the sweep.
    deadline_at = models.DateTimeField(null=True, blank=True)
    # The lobby a player opened for a rematch (once per match); like Lobby.match_id, a bare id.
    rematch_lobby_id = models.BigIntegerField(null=True, blank=True)
    # Chosen in the lobby: the result changes the players' ratings (backend/ratings). Only with a
    # person in every seat (services.create_match refuses a rated match with a bot).
    rated = models.BooleanField(default=False, db_default=False)
    # When the finish was recorded (each player's result, the ratings: signals.match_finished).
    # Set by the very transaction that records it, under a condition on its being unset, so however
    # many processes learn of the finish, one records it.
    recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            # "Finished, not yet recorded": the sweep's look for finishes a process died before recording.
            models.Index(fields=["finished_at"], name="matches_unrecorded_idx",
                         condition=Q(status="finished", recorded_at__isnull=True)),
            # "Active matches whose deadline has passed": an index range scan over timed matches only.
            models.Index(fields=["status", "deadline_at"], name="matches_deadline_idx",
                         condition=Q(deadline_at__isnull=False)),
        ]

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
    # For the absent-player rule: epoch ms when a connection of this seat was last known open
    # (positive, refreshed by each server process's presence heartbeat) or when its last one
    # closed (negative). On the seat, not the match row, so that it never waits for (or holds
    # up) a move's row lock.
    seen_ms = models.BigIntegerField(null=True, blank=True)

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
    """One applied action.  Rows are only ever inserted (by store.write and its group-commit form)."""

    # No index of its own: both unique constraints below start with the match,
    # and every move would pay for a third index.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log", db_index=False)
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
