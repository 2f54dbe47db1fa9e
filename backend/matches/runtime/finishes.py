"""Telling the other apps that matches finished (signals.match_finished),
once per room, gathered."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from django.conf import settings

from ..domain import FINISHED
from ..signals import match_finished
from .room import Room

log = logging.getLogger(__name__)


class Finishes:
    """The finishes this process has not told yet.  It reaches back only
    through what the hub gave it (spawn, the database threads)."""

    def __init__(self, spawn: Callable, db: Callable):
        self.spawn = spawn
        self.db = db
        self.pending: list[int] = []  # finishes not told yet
        self.telling: asyncio.Task | None = None

    def tell_if_finished(self, room: Room) -> None:
        """The other apps hear of a finish once per room, gathered with the
        others of the next MATCH_FINISH_GATHER_S: recording them is one
        transaction however many they are, and each of its statements takes
        the interpreter back from the event loop."""
        if room.snapshot.status == FINISHED and not room.finish_told:
            room.finish_told = True
            self.pending.append(room.id)
            if self.telling is None:
                self.telling = self.spawn(self._tell_gathered())

    async def _tell_gathered(self) -> None:
        try:
            await asyncio.sleep(settings.MATCH_FINISH_GATHER_S)
        finally:  # cancelled (the hub stops): the sweep of a process still running tells them
            match_ids, self.pending, self.telling = self.pending, [], None
        await self.tell(match_ids)

    async def tell(self, match_ids: list[int]) -> None:
        try:
            await self.db(_send_finished, match_ids)
        except Exception:  # the sweep tells them again
            log.exception("telling that matches %s finished failed", match_ids)


def _send_finished(match_ids: list[int]) -> None:
    for receiver, outcome in match_finished.send_robust(None, match_ids=match_ids):
        if isinstance(outcome, Exception):
            log.error("%s failed on the finish of matches %s", receiver, match_ids, exc_info=outcome)
