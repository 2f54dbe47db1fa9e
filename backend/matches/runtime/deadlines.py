"""Deadlines and bots: the moves no player makes.  A clock that runs out
hands its seat to the bot, a seat silent past its window gets the step's
default answer, and a bot seat due to move plays; each enters the same
path as a player's move (MatchHub._submit).

The hub hands itself in; this module never imports it.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from django.conf import settings

from .. import clock as clocks
from .. import domain, seating, store, timing
from ..domain import ACTIVE, Move, check
from ..errors import MatchError
from . import bots
from .room import Room

log = logging.getLogger(__name__)


class Deadlines:
    """Arms each room's clock deadline, plays what is due then, and schedules the bot turns."""

    def __init__(self, hub):
        self.hub = hub

    # ---- clocks ------------------------------------------------------------
    def arm(self, room: Room) -> None:
        """A timer for the moment the first running clock runs out."""
        if room.deadline is not None:
            room.deadline.cancel()
            room.deadline = None
        due = domain.deadline(room.snapshot)
        if due is not None:
            delay = max(0.0, (due - timing.now_ms()) / 1000)
            hub = self.hub
            room.deadline = hub.loop.call_later(delay, lambda: hub.spawn(self.timeouts(room)))

    async def timeouts(self, room: Room) -> None:
        """What is due at the deadline, one move each: hand every seat whose
        time has run out to the bot; answer for the seats that stayed silent
        in a step where silence answers (engine.defaults).  Several processes
        may try; the version check lets each move through once."""
        for _attempt in range(2 * len(room.info.seats) + 3):
            move = self._due_move(room, timing.now_ms())
            if move is None:
                return
            try:
                await self.hub._submit(room, move.version, move.client_id, lambda snapshot, now: move)
            except MatchError:  # stale: another process moved the match on
                await self.hub.refresh(room)

    @staticmethod
    def _due_move(room: Room, now: int) -> Move | None:
        snapshot, info = room.snapshot, room.info
        if snapshot.status != ACTIVE:
            return None
        flagged = clocks.flagged(snapshot.clock, now) if snapshot.clock is not None else []
        if flagged:
            return domain.hand_to_bot(info, snapshot, flagged[0], seating.TIMEOUT, now)
        if snapshot.window is not None and now >= snapshot.window:
            for seat, action in sorted(room.engine.defaults(snapshot.state).items()):
                client_id = f"{domain.PLATFORM_ID_PREFIX}{snapshot.version}:silence:{seat}:{uuid.uuid4().hex}"
                return check(info, snapshot, seat, action, client_id, now, bot=True)
        return None

    async def sweep(self) -> None:
        """Now and then: the timed matches whose deadline passed while no
        process followed them (all restarted, or nobody watches)."""
        hub = self.hub
        while True:
            await asyncio.sleep(settings.MATCH_DEADLINE_SWEEP_S)
            try:
                for match_id in await hub.db(timing.overdue, timing.now_ms()):
                    room = await hub.room(match_id)
                    if room is not None:
                        await self.timeouts(room)
                        self.schedule_bots(room)
                        hub.release(room)
                # Finishes no process recorded (it stopped in between); the live path had a sweep's time.
                before = timing.as_datetime(timing.now_ms() - round(settings.MATCH_DEADLINE_SWEEP_S * 1000))
                unrecorded = await hub.db(store.unrecorded, before)
                if unrecorded:
                    await hub.finishes.tell(unrecorded)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the sweep of overdue matches failed")

    # ---- bots ------------------------------------------------------------
    def schedule_bots(self, room: Room) -> None:
        """If a bot seat is to move, play it soon (never in the caller's own
        turn).  Several processes may try; the version check lets one through."""
        snapshot = room.snapshot
        if snapshot.status != ACTIVE or snapshot.version in room.bot_turns:
            return
        # Only a seat the game waits for (asked): one that may act but is not asked has an optional
        # move (God's Playground: taking back "I recruit no more"), which is its player's to make.
        asked = room.info.engine.asked(snapshot.state)
        seat = next((s for s in snapshot.to_move if s in asked and self.bot_of(room, s)), None)
        if seat is not None:
            room.bot_turns.add(snapshot.version)
            self.hub.spawn(self._bot_turn(room, snapshot.version, seat))

    @staticmethod
    def bot_of(room: Room, seat: int) -> str | None:
        """The bot that plays `seat` now: seated in the lobby, or handed the seat."""
        return seating.bot_for(room.info.seats[seat].bot, room.snapshot.control, seat)

    async def _bot_turn(self, room: Room, version: int, seat: int) -> None:
        try:
            if settings.BOT_DELAY > 0:
                await asyncio.sleep(settings.BOT_DELAY)
            snapshot = room.snapshot
            if snapshot.version != version:
                return
            bot = self.bot_of(room, seat)
            chosen = await bots.choose(room.info, snapshot, seat, bot, timing.now_ms()) if bot else None
            if chosen is None:
                return
            action, legal, rng = chosen
            client_id = bots.client_id(version, seat)
            try:
                await self.hub.act(room, seat, version, action, client_id, bot=True)
            except MatchError as exc:
                if exc.code == "illegal_action":
                    log.warning("bot %s chose an illegal action in match %s at version %s", bot, room.id, version)
                    await self.hub.act(room, seat, version, rng.choice(legal), client_id, bot=True)
                # Otherwise it lost a race with another process: dropped harmlessly.
        except MatchError:
            pass
        except Exception:
            log.exception("bot turn failed in match %s at version %s", room.id, version)
        finally:
            room.bot_turns.discard(version)
            self.hub.release(room)

