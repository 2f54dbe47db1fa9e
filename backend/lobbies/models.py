"""A lobby gathers players (and bots) for one game until the host starts it.

Only occupied seats have rows; an empty seat is an index with no row. Every
change locks the lobby row first (services.py), so seat races are serialised.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from backend.matches.models import untimed


class Lobby(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        STARTED = "started"
        CLOSED = "closed"
        EXPIRED = "expired"  # open with no activity for LOBBY_IDLE_MINUTES (services.expire_idle)

    game = models.CharField(max_length=40)
    options = models.JSONField(default=dict)  # validated, defaults filled in
    time_control = models.JSONField(default=untimed)  # validated by backend.matches.clock; passed to the match
    num_seats = models.PositiveSmallIntegerField()
    private = models.BooleanField(default=False)
    # The match changes its players' ratings (backend/ratings): people only, so no bot may sit in a rated lobby.
    rated = models.BooleanField(default=False, db_default=False)
    invite_code = models.CharField(max_length=32, blank=True, default="")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_lobbies")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Seed of the seat shuffle at start; the match seed is drawn from the same RNG. Never sent to clients.
    seed = models.BigIntegerField(null=True, blank=True)
    match_id = models.BigIntegerField(null=True, blank=True)
    # The finished match this lobby offers a rematch of: its players join without the invite code.
    rematch_of = models.BigIntegerField(null=True, blank=True)
    # Bumped by every change (under the row lock) so live clients can drop out-of-order updates.
    version = models.PositiveIntegerField(default=0)
    # Users the host kicked; they may not join again.
    kicked = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The idle clock: set at creation and by every change through the services, not by expiry.
    last_active_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "private"], name="lobbies_open_public_idx"),
            # The expiry sweep runs on every listing: it must stay an index range scan.
            models.Index(fields=["status", "last_active_at"], name="lobbies_idle_idx"),
        ]
        constraints = [models.CheckConstraint(condition=Q(num_seats__gte=1), name="lobbies_lobby_has_seats")]

    def __str__(self):
        return f"Lobby {self.pk} ({self.game}, {self.status})"


class LobbySeat(models.Model):
    """An occupied seat: a user or a bot (exactly one)."""

    lobby = models.ForeignKey(Lobby, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    bot = models.CharField(max_length=40, blank=True, default="")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["lobby", "index"]
        constraints = [
            models.UniqueConstraint(fields=["lobby", "index"], name="lobbies_seat_index_unique"),
            models.UniqueConstraint(fields=["lobby", "user"], name="lobbies_seat_user_unique"),
            models.CheckConstraint(
                condition=Q(user__isnull=False, bot="") | Q(user__isnull=True) & ~Q(bot=""),
                name="lobbies_seat_user_xor_bot",
            ),
        ]
