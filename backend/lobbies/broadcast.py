"""Live lobby updates, sent only after the change is committed.

The room group gets the lobby with its invite code and each consumer decides
whether its viewer may see the code, so one message serves every viewer. The
list group gets the one public lobby that changed; list consumers keep the
list themselves.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from .models import Lobby
from .presenters import lobby_data, with_relations

LIST_GROUP = "lobbies"


def room_group(lobby_id: int) -> str:
    return f"lobby.{lobby_id}"


def after_commit(lobby_id: int, private: bool, *, kicked: int | None = None) -> None:
    transaction.on_commit(lambda: send_now(lobby_id, private, kicked=kicked))


def send_now(lobby_id: int, private: bool, *, kicked: int | None = None) -> None:
    """`kicked`: the user this change kicked, whose room sockets close (a kick by the host)."""
    layer = get_channel_layer()
    if layer is None:
        return
    lobby = with_relations(Lobby.objects).get(pk=lobby_id)
    data = lobby_data(lobby, show_code=True)
    async_to_sync(layer.group_send)(room_group(lobby_id), {"type": "lobby.changed", "lobby": data, "kicked": kicked})
    if not private:
        # Only the changed lobby travels; each list consumer merges it by version, so
        # callbacks of concurrent commits arriving out of order cannot roll the list back.
        async_to_sync(layer.group_send)(LIST_GROUP, {"type": "lobbies.changed", "lobby": {**data, "invite_code": None}})
