"""Each player's standing per game: the current rating, and one row per finished match played.

Written only by services.record, once per finished match (Match.recorded_at
is the claim), so the counters and the history always agree with each other.
"""

from django.conf import settings
from django.db import models

from backend.matches.models import Match

from . import elo


class Rating(models.Model):
    """A player's current rating in one game; a row exists once they finished a rated match of it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=40)
    value = models.FloatField(default=elo.INITIAL)
    matches = models.PositiveIntegerField(default=0)  # rated matches finished
    wins = models.PositiveIntegerField(default=0)  # of them won
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="ratings_rating_user_game_unique")]
        indexes = [models.Index(fields=["game", "-value", "user"], name="ratings_leaderboard_idx")]

    def __str__(self):
        return f"{self.user_id} {self.game} {self.value:.0f}"


FEW_MOVES = "few_moves"


class Result(models.Model):
    """How one player did in one finished match; with the rating before and after when it was rated."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="results")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results")
    game = models.CharField(max_length=40)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()  # 1 best; level players share one (elo.places)
    players = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    forfeit = models.BooleanField()  # resigned, ran out of time or was handed to the bot while away
    rated = models.BooleanField()  # the match moved ratings
    # Why a match played as rated moved no rating: FEW_MOVES, a player made fewer than RATING_MIN_MOVES own moves.
    unrated_reason = models.CharField(max_length=16, blank=True, default="", db_default="")
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="ratings_result_match_user_unique")]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="ratings_result_recent_idx"),
            models.Index(fields=["user", "game", "-finished_at"], name="ratings_result_history_idx",
                         condition=models.Q(rated=True)),
        ]
