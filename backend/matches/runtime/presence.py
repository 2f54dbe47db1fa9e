"""Who watches a match, across server processes, at a cost per process.

Each process counts its own connections to a match (per seat, and
spectators) and tells the match's group its counts when they change and
once an interval ("presence" messages, one per process and match).  Every
process merges what the others said; a process not heard of for
EXPIRY_INTERVALS intervals (it died) no longer counts.  A join or a leave
costs the others one message per process, never one per connection.
"""

from __future__ import annotations

import asyncio
from collections import Counter

# Heartbeats of different processes are not in step and a busy event loop
# delays its own: three intervals of silence never happen to a live peer.
EXPIRY_INTERVALS = 3


class Presence:
    def __init__(self):
        self.local: Counter = Counter()  # seat (None: spectator) -> connections here
        self.remote: dict[str, tuple[dict, int, float]] = {}  # process -> (seat counts, spectators, heard at)
        self.sent: tuple | None = None  # the summary last pushed to this process's viewers
        self.published: tuple | None = None  # the counts last told to the others
        self.due: asyncio.TimerHandle | None = None  # the coalesced telling to come (presence_keeper.py)

    def join(self, seat: int | None) -> None:
        self.local[seat] += 1

    def leave(self, seat: int | None) -> None:
        self.local[seat] -= 1
        if self.local[seat] <= 0:
            del self.local[seat]

    def counts(self) -> tuple[list, int]:
        """This process's counts as a channel-layer message carries them."""
        return sorted([s, n] for s, n in self.local.items() if s is not None), self.local.get(None, 0)

    def hear(self, process: str, seats: list, spectators: int, now: float) -> None:
        if seats or spectators:
            self.remote[process] = ({s: n for s, n in seats}, spectators, now)
        else:
            self.remote.pop(process, None)

    def expire(self, now: float, ttl: float) -> bool:
        """Forget processes not heard of for `ttl` seconds; True if any was."""
        gone = [p for p, (_, _, heard) in self.remote.items() if now - heard > ttl]
        for process in gone:
            del self.remote[process]
        return bool(gone)

    def summary(self) -> tuple[list[int], int]:
        """(seats with at least one connection anywhere, spectator connections)."""
        seats = {s for s in self.local if s is not None}
        spectators = self.local.get(None, 0)
        for remote_seats, remote_spectators, _ in self.remote.values():
            seats.update(remote_seats)
            spectators += remote_spectators
        return sorted(seats), spectators
