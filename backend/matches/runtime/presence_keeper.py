"""This process's side of presence (presence.py holds a room's counts): what
it tells the other processes and its own viewers when connections come and
go, what it makes of the others' messages, the heartbeat that keeps it
listed, and the seat stamps of the absent-player rule.

The hub owns one keeper and hands it its rooms' joins and leaves and the
presence messages its relay hears.  The keeper reaches back only through
what the hub gave it (spawn, the database threads, publish), so this
module never imports the hub.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from django.conf import settings

from .. import clock as clocks
from .. import store, timing
from .presence import EXPIRY_INTERVALS
from .room import Room

log = logging.getLogger(__name__)

HEARTBEAT_SLICES = 10


class PresenceKeeper:
    def __init__(self, loop: asyncio.AbstractEventLoop, process: str, spawn: Callable, db: Callable,
                 publish: Callable[[int, dict], None] | None):
        self.loop = loop
        self.process = process
        self.spawn = spawn  # the hub's: its tasks are awaited and cancelled with the hub's
        self.db = db
        self.publish = publish  # to a match's group; None: no channel layer, no other process to tell
        self.seen_due: dict[int, dict[int, int]] = {}  # match -> seat -> ±ms, for store.write_seen
        self.seen_task: asyncio.Task | None = None

    # ---- a room's viewers ------------------------------------------------
    def joined(self, room: Room, seat: int | None) -> None:
        if seat is not None and not room.presence.local[seat]:
            self._vouch(room, seat, connected=True)
        room.presence.join(seat)
        if room.presence.published is None:
            # The first viewer here: the other processes learn at once that
            # this one follows the match, and start telling it their versions.
            self._publish(room)
        else:
            self._changed(room, seat)

    def left(self, room: Room, seat: int | None) -> None:
        room.presence.leave(seat)
        if seat is not None and not room.presence.local[seat]:
            self._vouch(room, seat, connected=False)
        self._changed(room, seat)

    def released(self, room: Room) -> None:
        """The hub stops following the room."""
        if room.presence.due is not None:
            room.presence.due.cancel()
        if room.presence.published is not None:
            self._publish(room)  # none left here: the others drop this process at once

    def heard(self, room: Room, message: dict) -> bool:
        """Another process's presence message.  True if that process just
        began to follow the match: answered here with this one's counts, it
        needs the match's version from the hub too."""
        known = message["process"] in room.presence.remote
        room.presence.hear(message["process"], message["seats"], message["spectators"], time.monotonic())
        newcomer = bool(message.get("hello")) or not known
        if newcomer and room.presence.local:
            self._publish(room, force=True)
        self._push(room)
        return newcomer

    async def heartbeat(self, rooms: dict[int, Room]) -> None:
        """Once an interval: tell each watched match this process is still
        here, and forget the processes that stopped saying so.  The rooms
        take turns, a slice of them every interval / HEARTBEAT_SLICES, so that
        thousands of seats renewed at once (their seat stamps one statement
        of thousands of rows) never pause the serving of moves."""
        tick = 0
        while True:
            period = settings.MATCH_PRESENCE_INTERVAL
            await asyncio.sleep(period / HEARTBEAT_SLICES)
            tick = (tick + 1) % HEARTBEAT_SLICES
            now = time.monotonic()
            for room in tuple(rooms.values()):
                if room.id % HEARTBEAT_SLICES != tick:
                    continue
                try:
                    for seat in room.presence.local:
                        self._vouch(room, seat, connected=True)
                    # Only other processes that follow the match need this
                    # one's counts kept alive; one that begins to follow it
                    # says hello and is answered at once (heard).
                    if room.presence.local and room.presence.remote and self.publish is not None:
                        self._publish(room, force=True)
                    if room.presence.expire(now, EXPIRY_INTERVALS * period):
                        self._push(room)
                except Exception:  # the other matches still get theirs
                    log.exception("presence heartbeat of match %s failed", room.id)

    # ---- telling -----------------------------------------------------------
    def _changed(self, room: Room, seat: int | None) -> None:
        """Coalesce joins and leaves into one message to the other processes and
        one presence frame per local viewer: soon when a seat's connection came
        or went (players watch that), and at most once every
        MATCH_SPECTATORS_EVERY seconds for spectators alone, so that a crowd
        arriving costs each viewer a frame now and then, not one per arrival."""
        delay = settings.MATCH_PRESENCE_COALESCE if seat is not None else settings.MATCH_SPECTATORS_EVERY
        due = self.loop.time() + delay
        if room.presence.due is not None:
            if room.presence.due.when() <= due:
                return
            room.presence.due.cancel()
        room.presence.due = self.loop.call_at(due, self._flush, room)

    def _flush(self, room: Room) -> None:
        room.presence.due = None
        self._publish(room)
        self._push(room)

    def _publish(self, room: Room, force: bool = False) -> None:
        counts = room.presence.counts()
        if self.publish is None or (counts == room.presence.published and not force):
            return
        hello = room.presence.published is None
        room.presence.published = counts
        self.publish(room.id, {"type": "presence", "match": room.id, "process": self.process,
                               "seats": counts[0], "spectators": counts[1], "hello": hello})

    def _push(self, room: Room) -> None:
        summary = room.presence.summary()
        if summary == room.presence.sent:
            return
        room.presence.sent = summary
        for viewer in tuple(room.viewers):
            viewer.presence(*summary)

    # ---- who is connected, in the database ---------------------------------
    def _vouch(self, room: Room, seat: int | None, connected: bool) -> None:
        """Record that `seat` has a connection here (or lost its last one here)
        for the absent-player rule; written in batches by _write_seen."""
        if seat is None or room.info.seats[seat].user_id is None or clocks.is_timed(room.info.time_control):
            return  # only untimed matches hand an absent player's seat over by hand
        now = timing.now_ms()
        self.seen_due.setdefault(room.id, {})[seat] = now if connected else -now
        if self.seen_task is None:
            self.seen_task = self.spawn(self._write_seen())

    async def _write_seen(self) -> None:
        try:
            while self.seen_due:
                due, self.seen_due = self.seen_due, {}
                await self.db(store.write_seen, due)
        except Exception:
            log.exception("recording who is connected failed")
        finally:
            self.seen_task = None
