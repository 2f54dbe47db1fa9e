"""Sending committed chat frames from synchronous code (a lobby socket's database
thread, the admin) to every server process: a lobby room's group, or the match's
group whose runtime hands the frame to its viewers (backend/matches/runtime/hub.py).
A match socket's own messages take the runtime's path instead (MatchHub.chat)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from backend.lobbies.broadcast import room_group
from backend.matches.runtime import group_name


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def to_lobby_from_sync(lobby_id: int):
    """The on_commit callback that sends a lobby room's new message to the room."""
    return lambda frame: _send(room_group(lobby_id), {"type": "chat.frame", "frame": frame})


def removed_from_sync(match_id: int | None, lobby_id: int | None, frame: dict) -> None:
    """A removal, to the room or match the message was in."""
    if match_id is not None:
        _send(group_name(match_id), {"type": "match.chat", "match": match_id, "chat": frame})
    else:
        _send(room_group(lobby_id), {"type": "chat.frame", "frame": frame})
