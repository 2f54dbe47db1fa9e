"""The relay between server processes: this process's news (versions,
chat, presence) to a match's group on the channel layer, and the other
processes' news from it to the rooms here.

The hub hands itself in and the relay reaches back only for its rooms,
its tasks and what it does with news (refresh, reconcile, presence); this
module never imports the hub.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging

from . import delivery
from .room import Room

log = logging.getLogger(__name__)

RELAY_RETRY_S = 0.5


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


class Relay:
    """This process's end of the channel layer (`layer` None: one process, nothing to relay)."""

    def __init__(self, hub, layer):
        self.hub = hub
        self.layer = layer
        self.channel: str | None = None
        self.down = False  # the channel layer failed since it last worked

    async def follow(self, match_id: int) -> None:
        """Hear the match's group from now on."""
        if self.layer is None:
            return
        if self.channel is None:
            self.channel = await self.layer.new_channel("match-relay.")
            self.hub.services.append(self.hub.loop.create_task(self._receive(), context=contextvars.Context()))
        await self.layer.group_add(group_name(match_id), self.channel)

    async def unfollow(self, match_id: int) -> None:
        if self.layer is not None and self.channel is not None and match_id not in self.hub.rooms:
            await self.layer.group_discard(group_name(match_id), self.channel)

    def publish_version(self, room: Room) -> None:
        self.publish(room.id, {"type": "match.version", "match": room.id, "version": room.snapshot.version,
                               "process": self.hub.process})

    def publish_chat(self, room: Room, frame: dict) -> None:
        self.publish(room.id, {"type": "match.chat", "match": room.id, "process": self.hub.process, "chat": frame})

    def publish(self, match_id: int, message: dict) -> None:
        self.hub.spawn(self._send_to_group(match_id, message))

    async def _send_to_group(self, match_id: int, message: dict) -> None:
        try:
            await self.layer.group_send(group_name(match_id), message)
        except Exception:  # the channel layer is away: the hub's reconcile catches the viewers up
            if not self.down:
                log.warning("the channel layer refused a message; matches catch up from the database",
                            exc_info=True)
            self.down = True

    async def _receive(self) -> None:
        hub = self.hub
        while True:
            try:
                message = await self.layer.receive(self.channel)
                if self.down:  # it is back: whatever was said meanwhile is lost
                    self.down = False
                    hub.spawn(hub.reconcile())
                room = hub.rooms.get(message.get("match"))
                if room is None or message.get("process") == hub.process:
                    continue
                if message["type"] == "match.version":
                    room.heard = max(room.heard, message["version"])
                    if message["version"] > room.snapshot.version:
                        hub.spawn(hub.refresh(room))
                elif message["type"] == "match.notice":
                    delivery.offer_notice(room, message["notice"])
                elif message["type"] == "match.chat":
                    delivery.offer_chat(room, message["chat"])
                elif message["type"] == "presence":
                    newcomer = hub.presence.heard(room, message)  # it just began to follow the match
                    if newcomer:
                        self.publish_version(room)  # what it read may already be behind
            except asyncio.CancelledError:
                raise
            except Exception:
                if not self.down:
                    log.warning("the channel layer is away; matches catch up from the database", exc_info=True)
                self.down = True
                await asyncio.sleep(RELAY_RETRY_S)
