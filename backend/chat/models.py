"""Chat messages and mutes as stored.

A message belongs to a match (channel `table` or `spectators`) or to a lobby
room (channel `lobby`), never both. Removing one (its lobby's host, or staff
in the admin) keeps the row for the record and stops showing it.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        TABLE = "table"  # a match's players
        SPECTATORS = "spectators"  # a match's spectators; players read it only after the match ends
        LOBBY = "lobby"  # a lobby room

    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    lobby = models.ForeignKey("lobbies.Lobby", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=12, choices=Channel.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=300)  # plain text; clients render it as text, never as HTML
    created_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ("-id",)
        indexes = (
            # History: the newest messages of a match's channels or a lobby's, an index range read backwards.
            models.Index(fields=["match", "channel", "id"], name="chat_match_idx"),
            models.Index(fields=["lobby", "id"], name="chat_lobby_idx"),
            # The rate limit counts an author's recent messages.
            models.Index(fields=["author", "created_at"], name="chat_author_recent_idx"),
        )
        constraints = (
            models.CheckConstraint(
                condition=(Q(match__isnull=False, lobby__isnull=True, channel__in=["table", "spectators"])
                           | Q(match__isnull=True, lobby__isnull=False, channel="lobby")),
                name="chat_message_in_a_match_xor_a_lobby",
            ),
        )

    def __str__(self):
        where = f"match {self.match_id} ({self.channel})" if self.match_id else f"lobby {self.lobby_id}"
        return f"{self.author} in {where}: {self.text[:40]}"


class ChatMute(models.Model):
    """`user` no longer sees what `muted` writes, anywhere (only `user` is affected)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~Q(user=models.F("muted")), name="chat_mute_not_self"),
        )
