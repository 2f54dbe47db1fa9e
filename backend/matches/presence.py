"""Presence bookkeeping: which connections watch a match, across processes.

Connections announce themselves on the match's group when they join
("presence.join", answered directly with "presence.here") and when they
leave ("presence.leave").  A process that crashes never says goodbye, so
every process also tells the group, once an interval and in one message per
match, which of its connections are still there ("presence.alive"); a peer
not heard of for EXPIRY_INTERVALS intervals is taken for gone.
"""

from __future__ import annotations

import time

from django.conf import settings

# Heartbeats of different processes are not in step and a busy event loop
# delays its own: three intervals of silence never happen to a live peer.
EXPIRY_INTERVALS = 3


def interval() -> float:
    return settings.MATCH_PRESENCE_INTERVAL


def alive_message(match_id: int, consumers) -> dict:
    """The heartbeat of this process's connections to one match."""
    return {"type": "presence.alive", "match": match_id,
            "viewers": {c.channel_name: c.seat for c in consumers}}


class Peers:
    """One connection's table of the match's connections (its own included):
    the seat of each (None for a spectator) and when it was last heard of."""

    def __init__(self, own: str):
        self.own = own
        self.seats: dict[str, int | None] = {}
        self.heard: dict[str, float] = {}
        # Channels that said goodbye, and when: a heartbeat sent before the
        # goodbye but delivered after it must not bring them back.
        self.left: dict[str, float] = {}

    def hear(self, channel: str, seat: int | None) -> bool:
        """A sign of life of `channel`; True when it is new here."""
        if channel in self.left:
            return False
        self.heard[channel] = time.monotonic()
        new = channel not in self.seats
        self.seats[channel] = seat
        return new

    def hear_all(self, viewers: dict) -> bool:
        """A heartbeat listing several channels; True when any is new here."""
        new = False
        for channel, seat in viewers.items():
            new = self.hear(channel, seat) or new
        return new

    def gone(self, channel: str) -> bool:
        """`channel` said goodbye; True when it was listed."""
        self.left[channel] = time.monotonic()
        self.heard.pop(channel, None)
        return self.seats.pop(channel, "absent") != "absent"

    def expire(self, now: float, ttl: float) -> bool:
        """Drop the peers not heard of for `ttl` seconds (never this connection
        itself); True when any was dropped."""
        stale = [c for c, t in self.heard.items() if now - t > ttl and c != self.own]
        for channel in stale:
            del self.heard[channel], self.seats[channel]
        for channel in [c for c, t in self.left.items() if now - t > ttl]:
            del self.left[channel]
        return bool(stale)

    def summary(self) -> tuple[list[int], int]:
        """(seats with at least one connection, number of spectator connections)."""
        seats = sorted({s for s in self.seats.values() if s is not None})
        return seats, sum(1 for s in self.seats.values() if s is None)
