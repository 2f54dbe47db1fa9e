"""/ws/lobbies/ (the open list) and /ws/lobbies/<id>/ (one room). Server-to-client only.

Each connection speaks the language of its handshake (backend/common/i18n.py): the
sentences it sends, its own and the services' refusals, are written in it.
"""

from __future__ import annotations

import json
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.utils.translation import gettext as _

from backend.common.errors import AppError, ws_error
from backend.common.i18n import ScopeLanguageMixin
from backend.common.ratelimit import TokenBucket

from .. import broadcast, chat, services
from ..presenters import lobby_data, lobby_for, member_ids

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
MAX_MESSAGE_BYTES = 4 * 1024


def _open_list() -> list[dict]:
    return [lobby_data(lobby) for lobby in services.open_public_lobbies()]


class _ReadOnly(ScopeLanguageMixin, AsyncJsonWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send_json(ws_error("bad_message", _("This socket only sends updates; use the REST API to act.")))


class LobbyListConsumer(_ReadOnly):
    """Holds the open public list and merges each changed lobby into it by version."""

    async def connect(self):
        self.versions: dict[int, int] = {}  # every lobby seen, open or not, so late updates are dropped
        self.open: dict[int, dict] = {}
        await self.channel_layer.group_add(broadcast.LIST_GROUP, self.channel_name)
        await self.accept()
        for data in await database_sync_to_async(_open_list)():
            self._merge(data)
        await self._send_list()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(broadcast.LIST_GROUP, self.channel_name)

    def _merge(self, data: dict) -> bool:
        if data["version"] <= self.versions.get(data["id"], -1):
            return False
        self.versions[data["id"]] = data["version"]
        if data["status"] == "open":
            self.open[data["id"]] = data
        else:
            self.open.pop(data["id"], None)
        return True

    async def _send_list(self):
        newest = sorted(self.open, reverse=True)[: services.MAX_LISTED]
        await self.send_json({"type": "lobbies", "lobbies": [self.open[i] for i in newest]})

    async def lobbies_changed(self, event):
        if self._merge(event["lobby"]):
            await self._send_list()


class LobbyRoomConsumer(_ReadOnly):
    group = None
    by_rematch = False  # a player of the match this lobby rematches: may watch without the code
    version = -1

    async def connect(self):
        self.lobby_id = int(self.scope["url_route"]["kwargs"]["lobby_id"])
        self.user = self.scope.get("user")
        self.code = (parse_qs(self.scope.get("query_string", b"").decode("latin1")).get("code") or [None])[0]
        # Join first so no change between the snapshot and the subscription is missed.
        self.group = broadcast.room_group(self.lobby_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        try:
            data, self.by_rematch = await database_sync_to_async(self._snapshot)()
        except AppError as exc:
            await self.send_json(ws_error(exc.code, exc.message))
            await self.close(code=CLOSE_NOT_FOUND if exc.code == "not_found" else CLOSE_FORBIDDEN)
            return
        self.version = data["version"]
        await self.send_json({"type": "lobby", "lobby": data})
        self.admitted = True

    def _snapshot(self):
        lobby = services.get_lobby(self.lobby_id, self.user, self.code)
        return lobby_for(lobby, self.user), services.played_rematched_match(lobby, self.user)

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def lobby_changed(self, event):
        data = dict(event["lobby"])
        if not self.admitted or data["version"] <= self.version:
            return  # shown out, already sent (the snapshot) or overtaken by a newer update
        self.version = data["version"]
        user_id = self._user_id()
        member = user_id is not None and user_id in member_ids(data)
        if data["private"]:
            # Watching without a seat holds while the code it came with is the lobby's (a kick changes it).
            if event.get("kicked") is not None and event["kicked"] == user_id:
                return await self._show_out(services.kicked_message())
            if not (member or self.by_rematch or services.same_code(data["invite_code"], self.code)):
                return await self._show_out(_("You are no longer in this private lobby."))
        if not member:
            data["invite_code"] = None
        await self.send_json({"type": "lobby", "lobby": data})

    async def _show_out(self, message: str) -> None:
        """No more news or chat from the room: one `forbidden`, then the socket closes."""
        self.admitted = False
        await self.send_json(ws_error("forbidden", message))
        await self.close(code=CLOSE_FORBIDDEN)

    # ---- chat (docs/api.md, Chat): the one thing a client says on this socket ----
    admitted = False
    chat_muted: set[int] | None = None  # read with the history, or when the first line comes

    def _user_id(self) -> int | None:
        return self.user.pk if self.user is not None and self.user.is_authenticated else None

    async def _chat_history(self) -> None:
        frame = await database_sync_to_async(chat.lobby_history)(self.lobby_id, self.user, self.code)
        self.chat_muted = {m["id"] for m in frame["muted"]}
        await self.send_json(frame)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.admitted:  # refused at connect
            return
        if not hasattr(self, "bucket"):
            self.bucket = TokenBucket(settings.MATCH_WS_RATE, settings.MATCH_WS_BURST)
        client_id = None
        try:
            raw = text_data if text_data is not None else bytes_data
            if raw is None or len(raw) > MAX_MESSAGE_BYTES:
                raise AppError("too_large", _("Messages on this socket are limited to 4 KiB."))
            try:
                message = json.loads(raw)
            except (ValueError, RecursionError):
                message = None
            if not isinstance(message, dict):
                raise AppError("bad_message", _("A message must be a JSON object."))
            # Refusals carry the message's id: the page tells them from the room's own (which have none).
            client_id = message.get("id") if isinstance(message.get("id"), str) else None
            if not self.bucket.take():
                raise AppError("rate_limited", _("Too many messages; slow down."))
            await self._chat(message)
        except AppError as exc:
            await self.send_json(ws_error(exc.code, str(exc.message), **({"id": client_id[:64]} if client_id else {})))
        except DatabaseError:  # the database is away: this message is lost, the room stays open
            log.warning("a chat message in lobby %s could not be handled", self.lobby_id, exc_info=True)
            error = ws_error("unavailable", _("The game server cannot reach its database just now; try again in a moment."))
            await self.send_json({**error, **({"id": client_id[:64]} if client_id else {})})

    async def _chat(self, message: dict) -> None:
        kind, user = message.get("type"), self.user
        if kind == "chat":
            await database_sync_to_async(chat.post_lobby)(user, self.lobby_id, self.code, message.get("text"))
        elif kind == "chat_remove":
            await database_sync_to_async(chat.remove_in_lobby)(user, self.lobby_id, message.get("message"))
        elif kind == "chat_mute":
            frame = await database_sync_to_async(chat.set_mute)(self._user_id(), message.get("user"),
                                                                message.get("muted"))
            if self.chat_muted is not None:  # else read, this mute included, with the history or the next line
                (self.chat_muted.add if frame["muted"] else self.chat_muted.discard)(frame["user"])
            await self.send_json(frame)
        elif kind == "chat_history":
            await self._chat_history()
        else:
            raise AppError("bad_message", _('This socket takes chat messages only; use the REST API to act.'))

    async def chat_frame(self, event):
        """A committed chat frame of this room, from the group."""
        frame = event["frame"]
        if not self.admitted:
            return
        if self.chat_muted is None:  # group messages wait for this: handled one at a time
            self.chat_muted = await database_sync_to_async(chat.mutes)(self._user_id())
        if frame["type"] == "chat" and frame["message"]["author"]["id"] in self.chat_muted:
            return
        await self.send_json(frame)
