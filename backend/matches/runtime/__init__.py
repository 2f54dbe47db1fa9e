"""The match runtime (hub.py): what is live about matches in a server process."""

from asgiref.sync import async_to_sync

from .hub import MatchHub
from .relay import group_name
from .room import Room

__all__ = ["MatchHub", "Room", "group_name", "notify_from_sync", "wake_from_sync"]


def wake_from_sync(match_id: int) -> None:
    """From synchronous code after a commit (a REST request): the hub delivers
    the news and lets due bots play.  Under the server, a request's thread
    reaches the server's own event loop this way (asgiref's async_to_sync
    does so for threads started by sync_to_async).  The hub only takes note
    here and does the work once the request's thread is free again: its
    database calls may need that very thread (SQLite)."""
    async_to_sync(_wake)(match_id)


async def _wake(match_id: int) -> None:
    hub = MatchHub.current()
    hub.spawn(hub.wake(match_id))


def notify_from_sync(match_id: int, notice: dict) -> None:
    """Tell every viewer of a match, on every server process, something that is
    not a new version (a rematch lobby was opened): a `notice` message."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(match_id), {"type": "match.notice", "match": match_id,
                                                               "notice": notice})
