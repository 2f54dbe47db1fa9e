"""A match's chat: who writes in which channel of a match, and the removals its viewers hear of.

The match socket calls chat (backend/chat) only through here; chat knows
nothing of matches. Docs: docs/api.md, Chat.
"""

from __future__ import annotations

import re

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from backend.chat import services as chat
from backend.common.errors import AppError
from backend.notifications.models import CHAT, enqueue

from .models import Match, MatchSeat
from .runtime import group_name

match_history, may_read, mutes, set_mute = chat.match_history, chat.may_read, chat.mutes, chat.set_mute


def post_match(author, match_id: int, text) -> dict:
    """Write in a match: a player at the table, a spectator among the spectators
    (`author`: the connection's user, None when not signed in). The socket hands
    the frame to the runtime once this returns (committed)."""
    chat.require_author(author)
    text = chat.clean_text(text)
    seat = MatchSeat.objects.filter(match_id=OuterRef("pk"), user_id=author.pk)
    match = Match.objects.filter(pk=match_id).annotate(seated=Exists(seat)).values("public", "seated").first()
    if match is None:
        raise AppError("not_found", _("There is no such match."))
    if not match["seated"] and not match["public"]:
        raise AppError("forbidden", _("This match is private."))
    told = _addressed(text, match_id, author.pk) if match["seated"] else ()

    def notify(message) -> None:  # the players the line names (@name) hear of it, the line's id as its cause
        enqueue(CHAT, told, match_id, message.pk, {"from": author.get_username()})

    return chat.post(author, text, None, notify if told else None, match_id=match_id,
                     channel=chat.TABLE if match["seated"] else chat.SPECTATORS)


_MENTION = re.compile(r"@([\w.@+-]+)")


def _addressed(text: str, match_id: int, author_id: int) -> list[int]:
    """The other players of the match a table line names with @username (case folded)."""
    names = {name.casefold() for name in _MENTION.findall(text)}
    if not names:
        return []
    seats = MatchSeat.objects.filter(match_id=match_id, user__isnull=False).exclude(user_id=author_id)
    return [user_id for user_id, name in seats.values_list("user_id", "user__username") if name.casefold() in names]


def on_message_removed(sender, match_id=None, frame=None, **kwargs) -> None:
    """A removal (backend/chat/signals.py) in a match: to its viewers on every server process, through the
    match's group, whose runtime hands it to each viewer that reads the channel."""
    layer = get_channel_layer()
    if match_id is not None and layer is not None:
        async_to_sync(layer.group_send)(group_name(match_id), {"type": "match.chat", "match": match_id, "chat": frame})
