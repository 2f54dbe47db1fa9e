"""A room: a match this process follows (the hub keeps one per match).

It holds what the hub serves viewers from without the database: the
latest snapshot, the event lists of the recent versions, the viewers
and their presence, and the frames already rendered for a snapshot
(kept on it, shared by every viewer of a seat).
"""

from __future__ import annotations

import asyncio

from .. import jsoncodec, seating, store
from ..domain import ACTIVE, MatchInfo, Snapshot
from .presence import Presence


class Room:
    """A match this process follows."""

    def __init__(self, info: MatchInfo, snapshot: Snapshot, log_rows: dict):
        self.info = info
        self.engine = info.engine
        self.snapshot = snapshot
        self.log: dict[int, tuple[str, list]] = dict(log_rows)  # recent versions: (client id, events)
        self.viewers: set = set()
        self.presence = Presence()
        self.reading: asyncio.Task | None = None
        self.reread = False  # a caller came during `reading` and needs a read that began after it came
        self.bot_turns: set[int] = set()  # versions with a bot turn under way here
        self.heard = snapshot.version  # the newest version another process announced
        self.deadline: asyncio.TimerHandle | None = None  # when a running clock runs out
        self.finish_told = False  # match_finished sent for this room's finish

    @property
    def id(self) -> int:
        return self.info.id

    def advance(self, snapshot: Snapshot, rows: dict) -> bool:
        """Keep `snapshot` if it is newer; True if it was."""
        self.log.update(rows)
        excess = len(self.log) - store.RECENT_VERSIONS
        if excess == 1:  # the common case, one version on: the oldest goes
            del self.log[min(self.log)]
        elif excess > 1:
            for version in sorted(self.log)[:excess]:
                del self.log[version]
        if snapshot.version <= self.snapshot.version:
            return False
        self.snapshot = snapshot
        return True

    def events_between(self, after: int, upto: int) -> list[list] | None:
        """The event lists of versions after+1..upto, or None if one is not kept here."""
        try:
            return [self.log[v][1] for v in range(after + 1, upto + 1)]
        except KeyError:
            return None

    def events_json(self, snapshot: Snapshot, after: int, seat: int | None) -> str | None:
        """The events of versions after+1..snapshot.version that `seat` may see,
        as JSON (kept on the snapshot: every viewer of the seat one version
        behind gets the same); None if one of those versions is not kept here."""
        key = (after, seat)
        text = snapshot.shared.get(key)
        if text is None:
            events = self.events_list(snapshot, after, seat)
            if events is None:
                return None
            text = snapshot.shared[key] = jsoncodec.dumps(events)
        return text

    def events_list(self, snapshot: Snapshot, after: int, seat: int | None) -> list | None:
        """events_json's events as values (read-only: shared like the text)."""
        key = ("list", after, seat)
        events = snapshot.shared.get(key)
        if events is None:
            lists = self.events_between(after, snapshot.version)
            if lists is None:
                return None
            engine = self.engine
            events = snapshot.shared[key] = [e for events in lists for e in engine.visible_events(events, seat)]
        return events

    def applied_recently(self, client_id: str) -> bool:
        return any(cid == client_id for cid, _ in self.log.values())

    def rendered(self, snapshot: Snapshot, seat: int | None) -> tuple[str, str]:
        """(view JSON, legal actions JSON) of `seat` at `snapshot`, encoded once
        for every viewer of the seat and kept on the snapshot."""
        key = ("json", seat)
        texts = snapshot.shared.get(key)
        if texts is None:
            view, legal = self.rendered_all(snapshot, seat)
            texts = snapshot.shared[key] = (jsoncodec.dumps(view), jsoncodec.dumps(legal))
        return texts

    def rendered_all(self, snapshot: Snapshot, seat: int | None) -> tuple[dict, list]:
        """(view, legal actions) of `seat` at `snapshot`; the views of every seat
        watched here are computed together (engine.views shares what they have
        in common) and kept on the snapshot.  Read-only: shared by every viewer
        of the seat, and by the difference frames built from them (which never
        need their JSON: `rendered` encodes it when a whole state is sent)."""
        parts = snapshot.rendered.get(seat)
        if parts is None:
            seats = {v.seat for v in self.viewers}
            seats.add(seat)
            seats.difference_update(snapshot.rendered)
            state, engine = snapshot.state, self.engine
            # An aborted match (or one resignations ended) keeps the game state it stopped at, whose
            # to_move still names a seat: only an active match offers moves.
            active = snapshot.status == ACTIVE
            for s, view in engine.views(state, seats).items():
                # A seat the bot plays for its user offers that user nothing until they take it back.
                plays = active and s is not None and s in snapshot.to_move and seating.entry(snapshot.control, s) is None
                snapshot.rendered[s] = (view, engine.offered_actions(state, s) if plays else [])
            parts = snapshot.rendered[seat]
        return parts
