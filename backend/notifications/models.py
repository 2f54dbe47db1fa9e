"""What players are told, and where: the outbox, their devices, their choices.

The outbox sits below the matches app (its store writes your-move rows in the
very statement that writes the move), so this module imports nothing of the
apps that enqueue: only the user model by name.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

YOUR_MOVE, MATCH_START, REMATCH, MATCH_END, CHAT = "your_move", "match_start", "rematch", "match_end", "chat"
KINDS = (YOUR_MOVE, MATCH_START, REMATCH, MATCH_END, CHAT)
# What a new account is told by push once it subscribes a device; e-mail is opt-in: nothing by default.
DEFAULT_PUSH = list(KINDS)


def default_push() -> list:
    return list(DEFAULT_PUSH)


class Outbox(models.Model):
    """One thing to tell one user, written in the transaction of what caused it.

    The worker (notify_worker) claims due rows by setting `lease_until`, sends,
    then sets `done_at` or, on a failure worth retrying, a later `due_at`.
    `sent_to` lists the devices already served, so a retry serves only the rest.
    Unique per (kind, user, match, version): a cause seen twice is told once."""

    kind = models.CharField(max_length=16)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match_id = models.BigIntegerField()  # a bare id, like Match.rematch_lobby_id: matches import this app
    version = models.IntegerField(default=0, db_default=0)  # the match version that caused it (0: none)
    extra = models.JSONField(default=dict, db_default={})  # public facts only (a rematch lobby's code)
    created_at = models.DateTimeField(db_default=models.functions.Now())
    due_at = models.DateTimeField(db_default=models.functions.Now())
    attempts = models.IntegerField(default=0, db_default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    sent_to = models.JSONField(default=list, db_default=[])  # Subscription ids served
    # Set when the user wants this by e-mail: the next digest (services.send_digests) takes it.
    email_due = models.BooleanField(default=False, db_default=False)
    done_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="", db_default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "user", "match_id", "version"],
                                               name="notifications_outbox_once")]
        indexes = [
            models.Index(fields=["due_at"], name="notifications_outbox_due_idx", condition=Q(done_at__isnull=True)),
            models.Index(fields=["user"], name="notifications_outbox_mail_idx", condition=Q(email_due=True)),
        ]


class Subscription(models.Model):
    """A device's Web Push subscription (PushSubscription.toJSON())."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    label = models.CharField(max_length=100, blank=True, default="")  # what the account page shows
    created_at = models.DateTimeField(auto_now_add=True)


class Preferences(models.Model):
    """What a user is told by push and by e-mail; no row: the defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="notification_preferences")
    push = models.JSONField(default=default_push)
    email = models.JSONField(default=list)
    last_digest_at = models.DateTimeField(null=True, blank=True)


def enqueue(kind: str, user_ids, match_id: int, version: int = 0, extra: dict | None = None) -> None:
    """Outbox rows for `user_ids`, inside the caller's transaction; a row already there stays as it is."""
    Outbox.objects.bulk_create([Outbox(kind=kind, user_id=user, match_id=match_id, version=version,
                                       extra=extra or {}) for user in dict.fromkeys(user_ids) if user is not None],
                               ignore_conflicts=True)
