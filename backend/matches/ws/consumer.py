"""The match WebSocket: one connection per viewer (a seat or a spectator).

The channel layer only ever carries "version N" (plus presence); this
consumer computes its own viewer's message from the per-process snapshot
cache: engine.view for its seat, legal actions when its seat may act, and the
events since its last message that its seat may see.
"""

from __future__ import annotations

import asyncio
import json
import time

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.consumer import get_handler_name
from django.conf import settings

from .. import jsoncodec, live, presence
from ..cache import CACHE
from ..errors import MatchError
from ..services import MAX_CLIENT_ID, group_name, valid_client_id

MAX_MESSAGE_BYTES = 16 * 1024

CLOSE_CODES = {"unauthenticated": 4401, "forbidden": 4403, "not_found": 4404}


class TokenBucket:
    """Per-connection rate limit: `rate` messages a second, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


_dumps = jsoncodec.dumps


class MatchConsumer(AsyncWebsocketConsumer):
    info = None
    seat = None
    sent_version = -1
    joined = False
    ready = False  # the first full state has gone out
    presence_sent = None  # (seats, spectators) of the last presence message
    wire = None  # wire.Wire under Daphne: state messages written straight to the socket

    async def dispatch(self, message):
        # Channels would hop to the DB thread before every message to close
        # stale connections (aclose_old_connections): 5 thread hops per action
        # for a 4-viewer match.  This consumer touches the database only via
        # live._db, whose DatabaseSyncToAsync already does that in its thread.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # ---- lifecycle -----------------------------------------------------------
    async def connect(self):
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.bucket = TokenBucket(settings.MATCH_WS_RATE, settings.MATCH_WS_BURST)
        self.peers = presence.Peers(self.channel_name)
        info = await live.info(self.match_id)
        if info is None:
            return await self._refuse("not_found", "There is no such match.")
        seat = info.seat_of(self.user_id)
        if seat is None and not info.public:
            if self.user_id is None:
                return await self._refuse("unauthenticated", "Log in to watch this private match.")
            return await self._refuse("forbidden", "This match is private.")
        self.info, self.seat, self.engine = info, seat, info.engine
        self.wire = self.scope.get("wire")  # set under Daphne (wire.WireMiddleware)
        self.push_lock = asyncio.Lock()
        await self.accept()
        # Join before reading the snapshot so no later version can slip past;
        # pushes relayed meanwhile wait for the lock, so the full state goes first.
        async with self.push_lock:
            await live.join(self.match_id, self)
            self.joined = True
            snapshot = await live.snapshot(self.match_id)
            self.sent_version = snapshot.version
            await self._send_state(snapshot, [])
            self.ready = True
        self.peers.hear(self.channel_name, seat)
        await self.channel_layer.group_send(group_name(self.match_id), {
            "type": "presence.join", "match": self.match_id, "channel": self.channel_name, "seat": seat})
        # After a restart nobody may be driving the bots: whoever connects does.
        live.schedule_bots(info, snapshot)

    async def _refuse(self, code: str, message: str):
        await self.accept()
        await self._error(code, message)
        await self.close(code=CLOSE_CODES[code])

    async def disconnect(self, close_code):
        if self.joined:
            await live.leave(self.match_id, self)
            await self.channel_layer.group_send(group_name(self.match_id), {
                "type": "presence.leave", "match": self.match_id, "channel": self.channel_name})

    # ---- from the client -----------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        # Every message costs a token, oversized ones too: a flood of them is
        # refused as a flood, without measuring each.
        if not self.bucket.take():
            return await self._error("rate_limited", "Too many messages; slow down.")
        raw = text_data if text_data is not None else bytes_data
        size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))
        if size > MAX_MESSAGE_BYTES:
            return await self._error("too_large", f"Messages are limited to {MAX_MESSAGE_BYTES // 1024} KiB.")
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
            return await self._error("bad_message", "Messages must be JSON (and not nested too deeply).")
        if not isinstance(message, dict):
            return await self._error("bad_message", "A message must be a JSON object.")
        kind = message.get("type")
        if kind == "sync":
            snapshot = await live.snapshot(self.match_id)
            return await self._push(snapshot, force=True)
        if kind == "action":
            return await self._action(message)
        return await self._error("bad_message", "Unknown message type; expected \"action\" or \"sync\".")

    async def _action(self, message: dict):
        client_id, version, action = message.get("id"), message.get("version"), message.get("action")
        echo = client_id if valid_client_id(client_id) else None
        if echo is None:
            return await self._error("bad_message", f"\"id\" must be a string of 1 to {MAX_CLIENT_ID} characters.", echo)
        if not isinstance(version, int) or isinstance(version, bool):
            return await self._error("bad_message", "\"version\" must be the version you last received.", echo)
        if not isinstance(action, dict):
            return await self._error("bad_message", "\"action\" must be an object.", echo)
        if self.seat is None:
            if self.user_id is None:
                return await self._error("unauthenticated", "Log in and take a seat to play.", echo)
            return await self._error("forbidden", "Spectators cannot act.", echo)
        if "seat" in message and message["seat"] != self.seat:
            return await self._error("forbidden", "You can only act for your own seat.", echo)
        try:
            applied = await live.apply(self.match_id, self.seat, version, action, client_id)
        except MatchError as exc:
            return await self._error(exc.code, exc.message, echo)
        # A resend of an applied action is answered with the current state.
        await self._push(applied.snapshot, force=applied.duplicate)

    # ---- from this process's relay (live.join) and the channel layer ----------
    def relay(self, message: dict) -> None:
        """A message of this match's group, handed over by the process's relay."""
        kind = message["type"]
        if kind == "match.version":
            self.version_committed(message["version"])
        elif kind == "presence.alive":
            if self.peers.hear_all(message["viewers"]) and self.ready:
                live._spawn(self._send_presence())
        elif kind == "presence.join":
            if message["channel"] != self.channel_name:
                self.peers.hear(message["channel"], message["seat"])
                live._spawn(self.channel_layer.send(message["channel"], {
                    "type": "presence.here", "channel": self.channel_name, "seat": self.seat}))
            if self.ready:
                live._spawn(self._send_presence())
        elif kind == "presence.leave":
            if self.peers.gone(message["channel"]) and self.ready:
                live._spawn(self._send_presence())

    def expire_peers(self, now: float, ttl: float) -> None:
        """From the process's presence heartbeat (live._Relay.heartbeat)."""
        if self.peers.expire(now, ttl) and self.ready:
            live._spawn(self._send_presence())

    def version_committed(self, version: int) -> None:
        if version <= self.sent_version:
            return
        # The common case, an action just committed in this process: every
        # part is in the cache and the socket is idle, so the message goes out
        # right here, with no task, lock or database hop per viewer.
        if self.wire is not None and self.ready and not self.push_lock.locked() and self._push_now(version):
            return
        live._spawn(self._catch_up(version))

    def _push_now(self, version: int) -> bool:
        snapshot = CACHE.snapshot(self.match_id)
        if snapshot is None or snapshot.version < version:
            return False
        lists = CACHE.events_between(self.match_id, self.sent_version, snapshot.version)
        if lists is None:
            return False
        if not self.wire.send_text(self._state_text(snapshot, self._visible(lists))):
            return False
        self.sent_version = snapshot.version
        return True

    async def _catch_up(self, version: int):
        if version > self.sent_version:
            await self._push(await live.snapshot(self.match_id, version))

    async def presence_here(self, event):
        """Direct answer of a viewer that was here before this one joined."""
        self.peers.hear(event["channel"], event["seat"])
        await self._send_presence()

    # ---- to the client ---------------------------------------------------------
    async def _push(self, snapshot, force: bool = False):
        # Pushes come from this consumer's own messages and from in-process
        # notifications; the lock keeps versions in order and each sent once.
        async with self.push_lock:
            await self._push_locked(snapshot, force)

    async def _push_locked(self, snapshot, force: bool):
        if snapshot.version <= self.sent_version and not force:
            return
        if snapshot.version > self.sent_version:
            lists = await live.events_between(self.match_id, self.sent_version, snapshot.version)
        else:
            lists = []
        self.sent_version = max(self.sent_version, snapshot.version)
        await self._send_state(snapshot, self._visible(lists))

    def _visible(self, lists: list[list]) -> list:
        return [e for events in lists for e in self.engine.visible_events(events, self.seat)]

    async def _send_state(self, snapshot, events: list):
        await self.send(text_data=self._state_text(snapshot, events))

    def _state_text(self, snapshot, events: list) -> str:
        seat = self.seat
        rendered = snapshot.rendered.get(seat)
        if rendered is None:
            rendered = self._render(snapshot)[seat]
        # The whole message as compact JSON, built from the parts its viewers share.
        return (
            f'{{"type":"state","version":{snapshot.version},"seat":{_dumps(seat)},'
            f'"status":{_dumps(snapshot.status)},"view":{rendered[0]},"legal_actions":{rendered[1]},'
            f'"events":{_dumps(events)}}}'
        )

    def _render(self, snapshot) -> dict:
        """(view JSON, legal actions JSON) of every seat watched from this
        process, computed together: engine.views shares the common part."""
        seats = {c.seat for c in live.viewers(self.match_id)}
        seats.add(self.seat)
        seats.difference_update(snapshot.rendered)
        state, engine = snapshot.state, self.engine
        for seat, view in engine.views(state, seats).items():
            legal = engine.legal_actions(state, seat) if seat is not None and seat in snapshot.to_move else []
            snapshot.rendered[seat] = (_dumps(view), _dumps(legal))
        return snapshot.rendered

    async def _send_presence(self):
        seats, spectators = self.peers.summary()
        if (seats, spectators) == self.presence_sent:
            return  # a late "here" from someone already counted changes nothing
        self.presence_sent = (seats, spectators)
        await self.send(text_data=_dumps({"type": "presence", "connected": seats, "spectators": spectators}))

    async def _error(self, code: str, message: str, client_id: str | None = None):
        await self.send(text_data=_dumps({"type": "error", "code": code, "message": message, "id": client_id}))
