"""A lobby room's chat: who writes, reads and removes in a room, and sending its frames to the room.

The lobby socket calls chat (backend/chat) only through here; chat knows
nothing of lobbies. Docs: docs/api.md, Chat.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from backend.chat import services as chat
from backend.common.errors import AppError

from . import services as lobbies
from .broadcast import room_group
from .models import Lobby

mutes, set_mute = chat.mutes, chat.set_mute


def _to_room(lobby_id: int, frame: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(room_group(lobby_id), {"type": "chat.frame", "frame": frame})


def post_lobby(author, lobby_id: int, code: str | None, text) -> dict:
    """Write in a room: its signed-in viewers but those its host kicked; the frame goes to the room once committed."""
    chat.require_author(author)
    text = chat.clean_text(text)
    lobby = lobbies.get_lobby(lobby_id, author, code)
    if lobbies.was_kicked(lobby, author):  # a public room: anyone reads it, but the kicked do not write
        raise AppError("forbidden", lobbies.kicked_message())
    return chat.post(author, text, lambda frame: _to_room(lobby_id, frame), lobby_id=lobby_id, channel=chat.LOBBY)


def lobby_history(lobby_id: int, viewer, code: str | None) -> dict:
    """A room's history, for a viewer who may see the room now (a kicked user may not, nor the old code)."""
    lobbies.get_lobby(lobby_id, viewer, code)
    return chat.lobby_history(lobby_id, viewer.pk if viewer is not None and viewer.is_authenticated else None)


def remove_in_lobby(host, lobby_id: int, message_id) -> dict:
    """The lobby's host removes a message of its room."""
    chat.require_author(host)
    message_id = chat.message_id(message_id)
    with transaction.atomic():
        lobby = Lobby.objects.filter(pk=lobby_id).only("host_id").first()
        if lobby is None or lobby.host_id != host.pk:
            raise AppError("forbidden", _("Only the lobby's host may remove messages."))
        return chat.remove_one(host, message_id, lobby_id=lobby_id)


def on_message_removed(sender, lobby_id=None, frame=None, **kwargs) -> None:
    """A removal (backend/chat/signals.py) in a room, by its host or staff: to the room."""
    if lobby_id is not None:
        _to_room(lobby_id, frame)
