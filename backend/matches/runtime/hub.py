"""The match runtime: one hub per event loop (one per server process).

The hub owns everything live about matches in this process and keeps the
rooms (room.py: a room is a match followed here, its latest snapshot, its
recent log and its viewers); each other job is a collaborator of its own,
in its own module:

- delivery.py: offering a version, a chat frame, a notice to the viewers here;
- relay.py (Relay): the channel layer between processes, both ways;
- deadlines.py (Deadlines): clock deadlines, silent seats and bot turns;
- finishes.py (Finishes): telling the other apps of finished matches;
- presence_keeper.py (PresenceKeeper): who is connected, here and elsewhere;
- writer.py (GroupWriter) and dbcalls.py (DbCalls): the database.

An action goes from receipt to broadcast in one function, `_submit`, read
top to bottom: check it against the room's snapshot, commit it (the group
commit on PostgreSQL, a database thread on SQLite), then, once the commit
has returned, advance the room, deliver the new version to every local
viewer (the one that acted included: one delivery path), tell the other
processes, arm the clock's deadline and let due bots play.  The whole path,
step by step with its files: docs/life-of-an-action.md.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import uuid
import weakref
from collections import Counter

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

from .. import domain, store, timing
from ..domain import Applied, MatchInfo, Move, check
from ..errors import MatchError, gettext_lazy as _
from . import delivery
from .dbcalls import DbCalls
from .deadlines import Deadlines
from .finishes import Finishes
from .presence_keeper import PresenceKeeper
from .relay import Relay
from .room import Room
from .writer import GroupWriter

log = logging.getLogger(__name__)


class MatchHub:
    _hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, MatchHub]" = weakref.WeakKeyDictionary()

    @classmethod
    def current(cls) -> "MatchHub":
        """The hub of the running event loop (made on first use)."""
        loop = asyncio.get_running_loop()
        hub = cls._hubs.get(loop)
        if hub is None:
            hub = cls._hubs[loop] = cls(loop)
        return hub

    @classmethod
    def close_all(cls) -> None:
        """Stop every hub and release its database connections and threads
        (tests, whose event loops come and go; commands)."""
        for hub in list(cls._hubs.values()):
            hub.close()
        cls._hubs.clear()

    @classmethod
    async def close_current(cls) -> None:
        """Stop the running loop's hub, if it has one, once its work in flight is done."""
        hub = cls._hubs.pop(asyncio.get_running_loop(), None)
        if hub is not None:
            await hub.aclose()

    async def aclose(self) -> None:
        tasks = self.services + list(self.tasks)
        while tasks:  # a cancelled move leaves a catch-up behind (_submit): cancelled in turn
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            tasks = list(self.tasks)
        await self.db.drain()  # a call a cancelled task left running in its thread
        self.close()

    def close(self) -> None:
        for task in self.services:
            task.cancel()
        self.db.close()
        if self.writer is not None and self.writer.conn is not None:
            self.writer.conn.pgconn.finish()  # no await: the loop may be gone already
            self.writer.conn = None

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.process = uuid.uuid4().hex
        self.rooms: dict[int, Room] = {}
        self.opening: dict[int, asyncio.Task] = {}
        self.db = DbCalls()
        postgres = connections["default"].vendor == "postgresql"
        self.writer = GroupWriter() if postgres else None
        self.relay = Relay(self, get_channel_layer())
        self.draining = False  # stopping: no new sockets (shutdown.py)
        self.left = asyncio.Event()  # set whenever a viewer leaves (drain awaits the last)
        self.tasks: set[asyncio.Task] = set()  # work that ends: bot turns, reads, publishing
        self.services: list[asyncio.Task] = []  # heartbeat, sweep and relay, for the hub's life
        self.presence = PresenceKeeper(loop, self.process, self.spawn, self.db,
                                       self.relay.publish if self.relay.layer is not None else None)
        self.sockets_by_user: Counter = Counter()
        self.sockets_by_address: Counter = Counter()
        self.finishes = Finishes(self.spawn, self.db)
        self.deadlines = Deadlines(self)

    def spawn(self, coro) -> asyncio.Task:
        # A fresh context: a task born inside a sync_to_async call must not
        # inherit asgiref's "this thread is busy" marker.
        task = self.loop.create_task(coro, context=contextvars.Context())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until no background work (bot turns, publishing) is left."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    # ---- rooms -----------------------------------------------------------
    async def room(self, match_id: int) -> Room | None:
        """The room of a match, following it from now on; None if there is no such match."""
        if not self.services:
            context = contextvars.Context()
            self.services = [self.loop.create_task(self.presence.heartbeat(self.rooms), context=context),
                             self.loop.create_task(self.deadlines.sweep(), context=context),
                             self.loop.create_task(self._reconciling(), context=context)]
        room = self.rooms.get(match_id)
        if room is not None:
            return room
        task = self.opening.get(match_id)
        if task is None:
            task = self.opening[match_id] = self.spawn(self._open_room(match_id))
            task.add_done_callback(lambda _: self.opening.pop(match_id, None))
        return await asyncio.shield(task)

    async def _open_room(self, match_id: int) -> Room | None:
        # Hear the group before reading, so no version committed meanwhile is missed.
        await self.relay.follow(match_id)
        loaded = await self.db(_read_room, match_id)
        if loaded is None:
            await self.relay.unfollow(match_id)
            return None
        room = self.rooms[match_id] = Room(*loaded)
        self.deadlines.arm(room)
        return room

    async def held(self, room: Room) -> Room | None:
        """`room` if the hub still holds it, else the match's room opened again
        (None: the match is gone).  Nothing awaits between the check and the
        return, so a caller that joins at once joins a room that hears every version."""
        while self.rooms.get(room.id) is not room:
            room = await self.room(room.id)
            if room is None:
                return None
        return room

    def release(self, room: Room) -> None:
        if not room.viewers and not room.bot_turns and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            if room.deadline is not None:
                room.deadline.cancel()
            self.presence.released(room)
            self.spawn(self.relay.unfollow(room.id))

    async def refresh(self, room: Room) -> None:
        """Read the match's newest version from the database (once for every
        caller waiting on this room) and deliver it if it is new here.  A read
        already under way may have begun before the caller's news was
        committed (a REST move): it reads once more for that caller."""
        task = room.reading
        if task is None:
            task = room.reading = self.spawn(self._read_newer(room))
            task.add_done_callback(lambda _: setattr(room, "reading", None))
        else:
            room.reread = True
        await asyncio.shield(task)

    async def _read_newer(self, room: Room) -> None:
        room.reread = False
        after = room.snapshot.version
        snapshot, rows = await self.db(_read_since, room.info, after)
        if snapshot is not None and room.advance(snapshot, rows):
            self._changed(room)
        if room.reread or room.heard > room.snapshot.version:  # news while we read: read again
            await self._read_newer(room)

    async def events_between(self, room: Room, after: int, upto: int) -> list[list]:
        """Every event list of versions after+1..upto (hidden ones too: filter per viewer)."""
        found = room.events_between(after, upto)
        if found is None:
            rows = await self.db(store.read_log, room.id, after, upto)
            found = [rows[v][1] if v in rows else [] for v in range(after + 1, upto + 1)]
        return found

    # ---- viewers ---------------------------------------------------------
    def admit(self, user_id: int | None, address: str | None) -> MatchError | None:
        """Refuse a socket beyond the per-user or per-address cap (both per process),
        and every socket while this process drains before it stops."""
        if self.draining:
            return MatchError("restarting", _("This server is restarting; connecting to another."))
        if user_id is not None and self.sockets_by_user[user_id] >= settings.MATCH_SOCKETS_PER_USER:
            return MatchError("limit_reached", _("You have too many match connections open; close some tabs."))
        if address and self.sockets_by_address[address] >= settings.MATCH_SOCKETS_PER_ADDRESS:
            return MatchError("limit_reached", _("Too many match connections from your address."))
        return None

    def join(self, room: Room, viewer) -> None:
        room.viewers.add(viewer)
        self._count(viewer, 1)
        self.presence.joined(room, viewer.seat)
        # After a restart nobody may be driving the bots: whoever connects does.
        self.deadlines.schedule_bots(room)

    def leave(self, room: Room, viewer) -> None:
        if viewer not in room.viewers:
            return
        room.viewers.discard(viewer)
        self.left.set()
        self._count(viewer, -1)
        self.presence.left(room, viewer.seat)
        self.release(room)

    def _count(self, viewer, step: int) -> None:
        for counter, key in ((self.sockets_by_user, viewer.user_id), (self.sockets_by_address, viewer.address)):
            if key is not None:
                counter[key] += step
                if counter[key] <= 0:
                    del counter[key]

    # ---- acting ----------------------------------------------------------
    async def act(self, room: Room, seat: int, version: int, action: dict, client_id: str,
                  bot: bool = False) -> Applied:
        """Check, write and deliver one action (`bot`: played by the bot for the
        seat); raises MatchError.  A resent id answers duplicate=True with the
        match as it is."""
        return await self._submit(room, version, client_id,
                                  lambda snapshot, now: check(room.info, snapshot, seat, action, client_id, now, bot=bot))

    async def hold(self, room: Room, seat: int, version: int, client_id: str) -> Applied:
        """`seat` holds the step where silence answers (domain.hold); as `act`."""
        return await self._submit(room, version, client_id,
                                  lambda snapshot, now: domain.hold(room.info, snapshot, seat, now))

    async def _submit(self, room: Room, version: int, client_id: str, decide) -> Applied:
        """One move, top to bottom: check it, commit it, then deliver it here
        and tell the rest.  `decide(snapshot, now)` makes the move (the rules:
        domain.check); raises MatchError.  The steps and their files:
        docs/life-of-an-action.md."""
        # 3. Check: the version against the room, without the database, then the rules.
        snapshot = room.snapshot
        if version != snapshot.version:
            # A future version cannot be right (this process follows the match),
            # an old one is a resend or stale.
            if room.applied_recently(client_id):
                return Applied(snapshot, [], True)
            raise MatchError("stale_version", _("The match has moved on; resync and try again."))
        move = decide(snapshot, timing.now_ms())
        # 4. Commit.
        try:
            outcome = await self._write(room, move)
        except asyncio.CancelledError:  # the caller went away (its socket closed, the server stops)
            self.spawn(self._catch_up(move.info.id))
            raise
        if outcome == store.DUPLICATE:
            return Applied(room.snapshot, [], True)
        if outcome == store.STALE:
            if room.snapshot.version == move.version:  # another process moved on: catch up
                self.spawn(self.refresh(room))
            raise MatchError("stale_version", _("The match has moved on; resync and try again."))
        # 5. Advance the room the hub holds now: while the move was written its last
        # viewer may have left and the room been opened again (`held`).  A newer
        # version already there (read from the database meanwhile) is kept.
        room = self.rooms.get(move.info.id)
        if room is not None and room.advance(move.applied, {move.applied.version: (move.client_id, move.events)}):
            # 6. Deliver to every viewer here, the one that acted included.
            delivery.offer_version(room)
            # 7. Tell the rest: the other processes, the clock, the bots, the finish.
            if room.presence.remote:  # only viewers on other processes need to hear of it
                self.relay.publish_version(room)
            self.deadlines.arm(room)
            self.deadlines.schedule_bots(room)
            self.finishes.tell_if_finished(room)
        return Applied(move.applied, move.events, False)

    async def _catch_up(self, match_id: int) -> None:
        """After a move whose caller was cancelled while it was written: it may
        have committed all the same, and nobody is left to take steps 5-7.
        Once the writer has finished the statements handed to it, the room
        reads its news from the database and tells the rest."""
        if self.writer is not None:
            await self.writer.idle()
        room = self.rooms.get(match_id)
        if room is not None:
            await self.refresh(room)
            if room.presence.remote:
                self.relay.publish_version(room)
            self.deadlines.schedule_bots(room)

    async def _write(self, room: Room, move: Move) -> str:
        """WRITTEN, DUPLICATE or STALE: the group commit, or a statement of its own."""
        if self.writer is None:
            return await self.db(store.write_atomic, move)
        try:
            return await self.writer.write(move)
        except Exception:
            log.warning("group commit failed; writing match %s's move on its own", room.id, exc_info=True)
            outcome = await self.db(store.write_atomic, move)
            if outcome == store.DUPLICATE:  # the failed statement committed after all
                await self.refresh(room)
            return outcome

    def _changed(self, room: Room) -> None:
        """A newer version is in the room: to every viewer here, and the clock's next deadline."""
        delivery.offer_version(room)
        self.deadlines.arm(room)
        self.finishes.tell_if_finished(room)

    # ---- chat --------------------------------------------------------------
    def chat(self, room: Room, frame: dict) -> None:
        """A committed chat frame (backend/chat): to the viewers here, and to the
        other processes' (always published: a chat is rare, and unlike a version
        nothing would catch a missed one up)."""
        delivery.offer_chat(room, frame)
        if self.relay.layer is not None:
            self.relay.publish_chat(room, frame)

    async def wake(self, match_id: int) -> None:
        """Look at a match committed elsewhere (a REST request, a management
        command, a test): deliver its news here and let due bots play."""
        room = await self.room(match_id)
        if room is not None:
            await self.refresh(room)
            self.deadlines.schedule_bots(room)
            self.finishes.tell_if_finished(room)  # finished by that commit, as likely as not
            self.release(room)

    async def drain(self) -> None:
        """Before this process stops: no new sockets, the moves under way
        committed and announced, then every match socket closed with 4503 so
        that its client reconnects at once, to another process."""
        self.draining = True
        if self.writer is not None:
            await self.writer.idle()
        closing = [viewer.restart() for room in tuple(self.rooms.values()) for viewer in tuple(room.viewers)]
        await asyncio.gather(*closing, return_exceptions=True)
        # Until every client has answered its close: the frames must reach them before the server stops.
        while any(room.viewers for room in self.rooms.values()):
            self.left.clear()
            await self.left.wait()

    # ---- the database ------------------------------------------------------
    async def reconcile(self) -> None:
        """Catch every room up with the database in one query: a version
        announced while the channel layer was away, or lost, is not missed for
        longer than MATCH_RECONCILE_S."""
        rooms = list(self.rooms.values())
        if not rooms:
            return
        versions = await self.db(store.read_versions, [room.id for room in rooms])
        for room in rooms:
            if versions.get(room.id, -1) > room.snapshot.version:
                room.heard = max(room.heard, versions[room.id])
                self.spawn(self.refresh(room))

    async def _reconciling(self) -> None:
        while True:
            await asyncio.sleep(settings.MATCH_RECONCILE_S)
            try:
                await self.reconcile()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away too: next time
                log.warning("catching matches up with the database failed", exc_info=True)


def _read_room(match_id: int):
    info = store.read_info(match_id)
    if info is None:
        return None
    snapshot = store.read_snapshot(info)
    rows = store.read_log(match_id, max(0, snapshot.version - store.RECENT_VERSIONS), snapshot.version)
    return info, snapshot, rows


def _read_since(info: MatchInfo, after: int):
    version = store.read_version(info.id)
    if version is None or version <= after:
        return None, {}  # nothing newer: the cheap answer
    snapshot = store.read_snapshot(info)
    if snapshot is None or snapshot.version <= after:
        return snapshot, {}
    return snapshot, store.read_log(info.id, max(after, snapshot.version - store.RECENT_VERSIONS), snapshot.version)
