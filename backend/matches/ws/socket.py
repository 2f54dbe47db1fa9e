"""The match WebSocket: one connection per viewer (a seat or a spectator).

A plain ASGI application behind Channels' routing and authentication.  It
reads its client's messages one at a time and hands actions to the hub
(runtime/hub.py); the hub offers it every committed version, and it sends
its own viewer's message: the engine's view for its seat, the legal actions
when its seat may act, and the events since its previous message that its
seat may see.  Everything a connection sends goes out in order through one
outbox; when the outbox is empty a message is written at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from urllib.parse import parse_qs

from django.conf import settings
from django.utils import translation

from backend.common.i18n import language_from_scope
from backend.common.ratelimit import TokenBucket

from .. import chat
from .. import clock as clocks
from .. import jsoncodec, patches, timing
from ..domain import ACTIVE, valid_client_id
from ..errors import MatchError, gettext_lazy as _
from ..runtime import MatchHub
from . import wire

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 16 * 1024
# Servers may close with 1000 or 3000-4999 only: ours are 4xxx, by HTTP status.
# 4513: the database is away just now, try again later; 4503: this server
# stops (a restart), reconnect at once, to another.
SERVICE_RESTART = 4503
CLOSE_CODES = {"unauthenticated": 4401, "forbidden": 4403, "not_found": 4404, "limit_reached": 4429,
               "unavailable": 4513, "restarting": SERVICE_RESTART}
CHAT_MESSAGES = ("chat", "chat_mute", "chat_history")  # a tuple: "type" may be any JSON value
# Difference frames: a viewer's next message is built once and shared by the
# viewers of its seat for this long; its clock counts from that moment.
SHARE_MS = 100


def unavailable() -> MatchError:
    return MatchError("unavailable", _("The game server cannot reach its database just now; try again in a moment."))
_dumps = jsoncodec.dumps


def client_address(scope) -> str | None:
    """The client's address: the peer, or behind TRUSTED_PROXY_COUNT proxies the
    address the outermost trusted proxy saw (X-Forwarded-For, counted from the right)."""
    peer = (scope.get("client") or [None])[0]
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies <= 0:
        return peer
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            hops = [h.strip() for h in value.decode("latin1").split(",") if h.strip()]
            return hops[-proxies] if len(hops) >= proxies else peer
    return peer


class MatchSocket:
    def __init__(self, scope, send):
        self.scope, self.asgi_send = scope, send
        self.match_id = int(scope["url_route"]["kwargs"]["match_id"])
        user = scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.user_id = self.user.pk if self.user is not None else None
        self.address = client_address(scope)
        self.language = language_from_scope(scope)
        self.wire = wire.for_scope(scope)
        self.patching = wants_patches(scope)
        self.held: dict | None = None  # patching: the last state message sent, as values (shared, read-only)
        self.bucket = TokenBucket(settings.MATCH_WS_RATE, settings.MATCH_WS_BURST)
        self.hub: MatchHub | None = None
        self.room = None
        self.seat: int | None = None
        self.sent_version = -1
        self.wanted = -1  # the newest version offered
        self.ready = False  # the first state has gone out
        self.closed = False
        self.outbox: deque[str | None] = deque()  # None: the current state, even if not new
        self.draining: asyncio.Task | None = None
        self.presence_sent = None
        # Chat (backend/chat): whom this user muted, read with the history or on the first
        # line that comes; lines offered before that wait, so a muted author's never slips through.
        self.chat_muted: set[int] | None = None if self.user is not None else set()
        self.chat_waiting: list[dict] = []
        self.chat_reading: asyncio.Task | None = None

    @classmethod
    async def asgi(cls, scope, receive, send) -> None:
        """The ASGI application: connect, then one client message at a time."""
        if (await receive())["type"] != "websocket.connect":
            return
        socket = cls(scope, send)
        if not await socket.connect():
            return
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.receive":
                    await socket.receive(message.get("text"), message.get("bytes"))
                elif message["type"] == "websocket.disconnect":
                    break
        finally:
            socket.disconnected()

    # ---- lifecycle -----------------------------------------------------------
    async def connect(self) -> bool:
        self.hub = hub = MatchHub.current()
        refusal = hub.admit(self.user_id, self.address)
        if refusal is not None:
            return await self._refuse(refusal)
        cached, room = self.match_id in hub.rooms, None
        try:
            room = await hub.room(self.match_id)
            if room is not None and cached:
                # Another process may have committed versions this one has not
                # heard of yet (the news in flight, or lost with the channel
                # layer), and the client may hold one of them from a socket there:
                # the first state is the database's newest, never an older one.
                await hub.refresh(room)
        except MatchError:
            raise
        except Exception:
            log.warning("opening match %s failed", self.match_id, exc_info=True)
            if room is not None:
                hub.release(room)
            return await self._refuse(unavailable())
        if room is None:
            return await self._refuse(MatchError("not_found", _("There is no such match.")))
        seat = room.info.seat_of(self.user_id)
        if seat is None and not room.info.public:
            hub.release(room)
            if self.user_id is None:
                return await self._refuse(MatchError("unauthenticated", _("Log in to watch this private match.")))
            return await self._refuse(MatchError("forbidden", _("This match is private.")))
        await self.asgi_send({"type": "websocket.accept"})
        # The hub lets a room go when its last viewer or bot turn leaves, and that can
        # happen while this socket waits above: a room it no longer holds hears no version.
        room = await hub.held(room)
        if room is None:
            return await self._refuse(MatchError("not_found", _("There is no such match.")), accepted=True)
        self.room, self.seat = room, seat
        # Joined before the first state goes out, so no later version slips past:
        # versions offered meanwhile wait for `ready`.
        hub.join(room, self)
        snapshot = room.snapshot
        await self._send_text(self._full_text(snapshot, []) if self.patching else self._state_text(snapshot, "[]"))
        self.sent_version = snapshot.version
        self.ready = True
        self.presence(*room.presence.summary())
        if self.wanted > self.sent_version:
            self._start_draining()
        return True

    async def _refuse(self, error: MatchError, accepted: bool = False) -> bool:
        if not accepted:
            await self.asgi_send({"type": "websocket.accept"})
        await self._send_text(self._error_text(error, None))
        await self.asgi_send({"type": "websocket.close", "code": CLOSE_CODES[error.code]})
        return False

    def disconnected(self) -> None:
        self.closed = True
        if self.room is not None:
            self.hub.leave(self.room, self)
        if self.draining is not None:
            self.draining.cancel()

    # ---- from the client -----------------------------------------------------
    async def receive(self, text: str | None, data: bytes | None) -> None:
        # Every message costs a token, oversized ones too: a flood of them is
        # refused as a flood, without measuring each.
        if not self.bucket.take():
            return self.error(MatchError("rate_limited", _("Too many messages; slow down.")))
        raw = text if text is not None else data
        if raw is None:
            return self.error(MatchError("bad_message", _("Messages must be JSON objects.")))
        size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
        if size > MAX_MESSAGE_BYTES:
            return self.error(MatchError("too_large", _("Messages are limited to 16 KiB.")))
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
            return self.error(MatchError("bad_message", _("Messages must be JSON (and not nested too deeply).")))
        if not isinstance(message, dict):
            return self.error(MatchError("bad_message", _("A message must be a JSON object.")))
        kind = message.get("type")
        if kind in ("action", "hold"):
            return await self._action(message)
        if kind in CHAT_MESSAGES:
            return await self._chat(kind, message)
        if kind == "ping":  # a client making sure its connection still carries (no database, no state)
            return self._emit('{"type":"pong"}')
        if kind == "sync":
            try:
                await self.hub.refresh(self.room)
            except Exception:  # the database is away: the state as this process knows it
                log.warning("a sync of match %s could not read the database", self.match_id, exc_info=True)
            return self._resend_state()
        self.error(MatchError("bad_message", _('Unknown message type; expected "action", "hold", "sync", "ping" or a chat message.')))

    async def _action(self, message: dict) -> None:
        """An action, or a hold of a step where silence answers (docs/api.md): the same checks, the same answers."""
        client_id, version, action = message.get("id"), message.get("version"), message.get("action")
        hold = message["type"] == "hold"
        if not valid_client_id(client_id):
            return self.error(MatchError("bad_message", _('"id" must be a string of 1 to 64 characters, not beginning '
                                                          'with "bot:" or "platform:" (the server\'s own moves).')))
        if not isinstance(version, int) or isinstance(version, bool):
            return self.error(MatchError("bad_message", _('"version" must be the version you last received.')),
                              client_id)
        if not hold and not isinstance(action, dict):
            return self.error(MatchError("bad_message", _('"action" must be an object.')), client_id)
        if self.seat is None:
            if self.user_id is None:
                return self.error(MatchError("unauthenticated", _("Log in and take a seat to play.")), client_id)
            return self.error(MatchError("forbidden", _("Spectators cannot act.")), client_id)
        if "seat" in message and message["seat"] != self.seat:
            return self.error(MatchError("forbidden", _("You can only act for your own seat.")), client_id)
        try:
            applied = await (self.hub.hold(self.room, self.seat, version, client_id) if hold
                             else self.hub.act(self.room, self.seat, version, action, client_id))
        except MatchError as exc:
            return self.error(exc, client_id)
        except Exception:  # nothing was written; the same id may be sent again
            log.warning("an action in match %s could not be written", self.match_id, exc_info=True)
            return self.error(unavailable(), client_id)
        if applied.duplicate:  # a resend of an applied action is answered with the current state
            self._resend_state()

    # ---- chat (docs/api.md, Chat) ----------------------------------------------
    async def _chat(self, kind: str, message: dict) -> None:
        client_id = message.get("id") if valid_client_id(message.get("id")) else None
        try:
            if kind == "chat":
                frame = await self.hub.db(chat.post_match, self.user, self.match_id, message.get("text"))
                self.hub.chat(self.room, frame)  # committed: to every viewer, this one included
            elif kind == "chat_mute":
                frame = await self.hub.db(chat.set_mute, self.user_id, message.get("user"), message.get("muted"))
                for viewer in tuple(self.room.viewers):  # this user's other sockets on the match here
                    if viewer.user_id == self.user_id and viewer.chat_muted is not None:
                        (viewer.chat_muted.add if frame["muted"] else viewer.chat_muted.discard)(frame["user"])
                self._emit(_dumps(frame))
            else:
                await self._chat_history()
        except MatchError as exc:
            self.error(exc, client_id)
        except Exception:
            log.warning("a chat message in match %s could not be handled", self.match_id, exc_info=True)
            self.error(unavailable(), client_id)

    async def _chat_history(self) -> None:
        """The newest lines this viewer may read, on request (the web app asks on
        every (re)connect, and again when the match ends: the spectators' channel
        opens to the players then). Clients that never chat never cost a read."""
        active = self.room.snapshot.status == ACTIVE
        frame = await self.hub.db(chat.match_history, self.match_id, self.seat is not None, active, self.user_id)
        self.chat_muted = {m["id"] for m in frame["muted"]}
        self._emit(_dumps(frame))
        self._chat_flush({m["id"] for m in frame["messages"]})

    async def _chat_mutes(self) -> None:
        try:
            muted = await self.hub.db(chat.mutes, self.user_id)
        except Exception:  # the database is away: the lines go out unfiltered rather than not at all
            log.warning("reading the chat mutes in match %s failed", self.match_id, exc_info=True)
            muted = set()
        finally:
            self.chat_reading = None
        self.chat_muted = muted
        self._chat_flush(set())

    def _chat_flush(self, shown: set[int]) -> None:
        waiting, self.chat_waiting = self.chat_waiting, []
        for later in waiting:
            if later["type"] != "chat" or later["message"]["id"] not in shown:
                self.chat(later)

    def chat(self, frame: dict) -> None:
        """A committed chat frame of this match: sent if this viewer may read its channel now."""
        if not self.ready or self.closed:
            return
        if self.chat_muted is None:
            self.chat_waiting.append(frame)
            if self.chat_reading is None:
                self.chat_reading = self.hub.spawn(self._chat_mutes())
            return
        seated, active = self.seat is not None, self.room.snapshot.status == ACTIVE
        channel = frame["message"]["channel"] if frame["type"] == "chat" else frame["channel"]
        if not chat.may_read(channel, seated, active):
            return
        if frame["type"] == "chat" and frame["message"]["author"]["id"] in self.chat_muted:
            return
        self._emit(_dumps(frame))

    # ---- from the hub ----------------------------------------------------------
    def offer(self, version: int) -> None:
        """A newer version of the match is in the room."""
        if version > self.wanted:
            self.wanted = version
        if not self.ready or self.closed or version <= self.sent_version:
            return
        if self.draining is None and not self.outbox and self._write_state_now():
            return
        self._start_draining()

    def notice(self, notice: dict) -> None:
        """Something for the viewers that is not a version (docs/api.md: notice)."""
        if self.ready:
            self._emit(_dumps({"type": "notice", **notice}))

    async def restart(self) -> None:
        """This process stops: what is queued goes out, then close with SERVICE_RESTART."""
        while self.draining is not None and not self.closed:
            await asyncio.shield(self.draining)
        if not self.closed:
            self.closed = True
            await self.asgi_send({"type": "websocket.close", "code": SERVICE_RESTART})

    def presence(self, seats: list[int], spectators: int) -> None:
        if not self.ready or (seats, spectators) == self.presence_sent:
            return
        self.presence_sent = (seats, spectators)
        self._emit(_dumps({"type": "presence", "connected": seats, "spectators": spectators}))

    # ---- to the client ---------------------------------------------------------
    def error(self, exc: MatchError, client_id: str | None = None) -> None:
        self._emit(self._error_text(exc, client_id))

    def _error_text(self, exc: MatchError, client_id: str | None) -> str:
        with translation.override(self.language):
            message = str(exc.message)
        return _dumps({"type": "error", "code": exc.code, "message": message, "id": client_id})

    def _resend_state(self) -> None:
        self.outbox.append(None)
        self._start_draining()

    def _emit(self, text: str) -> None:
        if self.closed:
            return
        if self.draining is None and not self.outbox and self.wire is not None and self.wire.send_text(text):
            return
        self.outbox.append(text)
        self._start_draining()

    def _write_state_now(self) -> bool:
        """The common case, an action just committed: the events are in the
        room and the socket is idle, so the message is written right here
        with no task; False when that cannot be done."""
        if self.wire is None:
            return False
        snapshot = self.room.snapshot
        if self.patching:
            events = self.room.events_list(snapshot, self.sent_version, self.seat)
            if events is None or not self.wire.send_text(self._patch_text(snapshot, events)):
                return False
            self.sent_version = snapshot.version
            return True
        events = self.room.events_json(snapshot, self.sent_version, self.seat)
        if events is None or not self.wire.send_text(self._state_text(snapshot, events)):
            return False
        self.sent_version = snapshot.version
        return True

    def _start_draining(self) -> None:
        if self.draining is None and not self.closed and self.ready:
            self.draining = self.hub.spawn(self._drain())

    async def _drain(self) -> None:
        try:
            while not self.closed:
                if self.outbox:
                    text = self.outbox.popleft()
                    await (self._send_state(force=True) if text is None else self._send_text(text))
                elif self.wanted > self.sent_version:
                    await self._send_state()
                else:
                    break
        except Exception:
            log.debug("sending to a match socket failed", exc_info=True)
        finally:
            self.draining = None

    async def _send_state(self, force: bool = False) -> None:
        snapshot = self.room.snapshot
        if snapshot.version > self.sent_version:
            lists = await self.hub.events_between(self.room, self.sent_version, snapshot.version)
        elif force:
            lists = []
        else:
            return
        if self.patching:
            events = self._visible(lists)
            # A sync or a resent action asks for the whole state.
            text = self._full_text(snapshot, events) if force or self.held is None \
                else self._patch_text(snapshot, events)
        else:
            text = self._state_text(snapshot, _dumps(self._visible(lists)))
        self.sent_version = max(self.sent_version, snapshot.version)
        await self._send_text(text)

    async def _send_text(self, text: str) -> None:
        await self.asgi_send({"type": "websocket.send", "text": text})

    def _visible(self, lists: list[list]) -> list:
        engine, seat = self.room.engine, self.seat
        return [e for events in lists for e in engine.visible_events(events, seat)]

    # ---- difference frames (docs/api.md) ------------------------------------------
    def _message(self, snapshot, events: list, now: int) -> dict:
        """The state message `_state_text` would write, as values (the parts
        every viewer shares are shared objects: patches.diff meets them again)."""
        view, legal = self.room.rendered_all(snapshot, self.seat)
        shared = snapshot.shared.get(("values", now))
        if shared is None:
            shared = snapshot.shared[("values", now)] = (
                None if snapshot.clock is None else clocks.lean_frame(snapshot.clock, now), list(snapshot.control),
                None if snapshot.window is None else max(0, snapshot.window - now))
        return {"type": "state", "version": snapshot.version, "seat": self.seat, "status": snapshot.status,
                "view": view, "legal_actions": legal, "events": [lean_event(e) for e in events],
                "clock": shared[0], "control": shared[1], "defaults_in_ms": shared[2]}

    def _full_text(self, snapshot, events: list) -> str:
        """A full state message for a patching viewer, now; what it holds from then on."""
        self.held = self._message(snapshot, events, timing.now_ms())
        return _dumps(self.held)

    def _patch_text(self, snapshot, events: list) -> str:
        """The patch from the message this viewer holds to its message at
        `snapshot` (`events`: the ones since the held version).  Both messages
        and the patch are kept on the snapshot, so the viewers of a seat that
        hold the same message share one diff and one encoding."""
        base, now = self.held, timing.now_ms()
        key = ("patch", self.seat, base["version"])
        kept = snapshot.shared.get(key)
        if kept is None or now - kept[1] > SHARE_MS:
            kept = snapshot.shared[key] = (self._message(snapshot, events, now), now, {})
        message, _, texts = kept
        found = texts.get(id(base))
        if found is None or found[0] is not base:
            ops = patches.diff(base, message, snapshot.shared.setdefault("patch memo", {}))
            found = texts[id(base)] = (base, f'{{"type":"patch","version":{snapshot.version},'
                                             f'"base":{base["version"]},"patch":{_dumps(ops)}}}')
        self.held = message
        return found[1]

    def _state_text(self, snapshot, events: str) -> str:
        """The state message (`events`: their JSON), built from the parts its viewers share."""
        view, legal = self.room.rendered(snapshot, self.seat)
        head, tail = _shared_parts(snapshot, timing.now_ms())
        seat = "null" if self.seat is None else self.seat
        return f'{head}"seat":{seat},{tail[0]}"view":{view},"legal_actions":{legal},"events":{events},{tail[1]}'


def lean_event(event: dict) -> dict:
    """An event as a difference-frame client gets it: words it renders itself
    from `kind` and `params` (no `text`), `to` only when it is private."""
    if "params" not in event:  # stored before events were data: its text is all there is
        return event
    return {k: v for k, v in event.items() if k != "text" and (k != "to" or v is not None)}


def wants_patches(scope) -> bool:
    """`?frames=patch` on the socket's URL: difference frames after the first state."""
    query = scope.get("query_string") or b""
    return b"frames=patch" in query and "patch" in parse_qs(query.decode("latin1")).get("frames", ())


def _shared_parts(snapshot, now: int) -> tuple[str, tuple[str, str]]:
    """What every viewer's state message at `snapshot` holds besides its own
    parts, as compact JSON pieces; kept on the snapshot for the millisecond
    `now` (the clock's frame counts from it)."""
    parts = snapshot.shared.get("message")
    if parts is None or parts[0] != now:
        clock = "null" if snapshot.clock is None else _dumps(clocks.frame(snapshot.clock, now))
        silence = "null" if snapshot.window is None else max(0, snapshot.window - now)
        parts = snapshot.shared["message"] = (
            now, f'{{"type":"state","version":{snapshot.version},',
            (f'"status":{_dumps(snapshot.status)},',
             f'"clock":{clock},"control":{_dumps(list(snapshot.control))},"defaults_in_ms":{silence}}}'))
    return parts[1], parts[2]
