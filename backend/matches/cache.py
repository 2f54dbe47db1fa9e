"""Per-process cache of what consumers and the applying path need on every action.

Each server process keeps, per recently active match, its immutable facts
(game, seats), its latest (version, state) and the events of its last versions.
The applying path fills it; a consumer that misses (another process applied)
refreshes it with one query, shared by every consumer of that match in this
process.  Nothing here ever goes to a client or the channel layer as is.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from backend.engines import Engine, get_engine

MAX_MATCHES = 4096
MAX_EVENT_VERSIONS = 64


@dataclass(frozen=True)
class SeatInfo:
    user_id: int | None
    username: str
    bot: str


@dataclass(frozen=True)
class MatchInfo:
    """What never changes after a match is created."""

    id: int
    game: str
    options: dict
    seed: int
    public: bool
    seats: tuple[SeatInfo, ...]

    @property
    def engine(self) -> Engine:
        return get_engine(self.game)

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None


@dataclass(frozen=True)
class Snapshot:
    """A match at one version.  `state` is shared: treat it as read-only."""

    version: int
    state: dict
    to_move: tuple[int, ...]
    status: str
    # seat (None: spectator) -> (view JSON, legal actions JSON), filled by the
    # consumers of this process so many viewers of one seat share the work.
    rendered: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass
class _Entry:
    info: MatchInfo | None = None
    snapshot: Snapshot | None = None
    events: dict[int, list] = field(default_factory=dict)  # version -> all events of that action


class MatchCache:
    def __init__(self, max_matches: int = MAX_MATCHES):
        self._entries: OrderedDict[int, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._max = max_matches

    def _entry(self, match_id: int) -> _Entry:
        entry = self._entries.get(match_id)
        if entry is None:
            entry = self._entries[match_id] = _Entry()
            if len(self._entries) > self._max:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(match_id)
        return entry

    def info(self, match_id: int) -> MatchInfo | None:
        with self._lock:
            entry = self._entries.get(match_id)
            return entry.info if entry else None

    def put_info(self, info: MatchInfo) -> None:
        with self._lock:
            self._entry(info.id).info = info

    def snapshot(self, match_id: int) -> Snapshot | None:
        with self._lock:
            entry = self._entries.get(match_id)
            return entry.snapshot if entry else None

    def put_snapshot(self, match_id: int, snapshot: Snapshot, events: dict[int, list] | None = None) -> Snapshot:
        """Store `snapshot` unless a newer one is already here; return the newest."""
        with self._lock:
            entry = self._entry(match_id)
            if events:
                entry.events.update(events)
                if len(entry.events) > MAX_EVENT_VERSIONS:
                    for version in sorted(entry.events)[: len(entry.events) - MAX_EVENT_VERSIONS]:
                        del entry.events[version]
            if entry.snapshot is None or entry.snapshot.version < snapshot.version:
                entry.snapshot = snapshot
            return entry.snapshot

    def events_between(self, match_id: int, after: int, upto: int) -> list[list] | None:
        """The event lists of versions after+1..upto, or None if any is missing."""
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is None:
                return None if upto > after else []
            try:
                return [entry.events[v] for v in range(after + 1, upto + 1)]
            except KeyError:
                return None

    def forget(self, match_id: int) -> None:
        with self._lock:
            self._entries.pop(match_id, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


CACHE = MatchCache()
