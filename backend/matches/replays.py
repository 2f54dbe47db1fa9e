"""Replays: an ended match's views at any version, rebuilt from its seed and action log through the engine.

A match that has ended never changes again, so whatever a walk through its
log computes stays true.  Each process keeps, per match, every
CHECKPOINT_EVERY-th state and the states of the stretch stepped through last,
in a least-recently-used cache bounded by the number of states it holds
(CACHE_STATES).  A step to the next or the previous version is then at most
one engine step, a jump at most CHECKPOINT_EVERY - 1 (the first visit beyond
the furthest point walked so far walks there once).

Everyone may replay a public view; a player may replay their own seat's view
(their own hands), never another's.  An active match is not replayed at all:
spectators follow it live, and its players' private facts stay private until
the end.  What leaves is what `engine.view` and `engine.visible_events` give
the viewer, as the live socket would have given it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from backend.engines import Engine, IllegalAction, canonical, get_engine

from . import store
from .domain import ACTIVE, is_platform_action
from .errors import MatchError, gettext_lazy as _
from .models import Match

CHECKPOINT_EVERY = 16
CACHE_STATES = 1024  # states kept by one process over every match (a God's Playground state: 12-18 KB)


class ReplayBroken(Exception):
    """The log no longer replays to the stored state (an engine changed under an old match)."""


class Walk:
    """One ended match's replay: its log, and the states computed so far.

    States are shared, never mutated (engines never mutate their input)."""

    def __init__(self, engine: Engine, initial: dict, moves: list, final: dict, every: int = CHECKPOINT_EVERY):
        self.engine = engine
        self.moves = moves  # moves[v - 1] = (seat, action, every event) of version v
        self.final = final  # the stored state of the last version: the walk must arrive there
        self.every = every
        self.checkpoints: dict[int, dict] = {0: initial}  # versions that are multiples of `every`
        self.start, self.stretch = 0, [initial]  # the states of versions start, start + 1, ... within one block
        self.lock = threading.Lock()

    @property
    def last(self) -> int:
        return len(self.moves)

    def size(self) -> int:
        """States held (what the cache's bound counts)."""
        return len(self.checkpoints) + len(self.stretch)

    def state(self, version: int) -> dict:
        """The state at `version` (0 <= version <= last)."""
        with self.lock:
            block = version - version % self.every
            if block != self.start:
                # From the nearest state known before the block: a checkpoint, or the stretch's end.
                begin = max(c for c in self.checkpoints if c <= block)
                state = self.checkpoints[begin]
                end = self.start + len(self.stretch) - 1
                if begin < end <= block:
                    begin, state = end, self.stretch[-1]
                for v in range(begin, block):
                    state = self._advance(v, state)
                self.start, self.stretch = block, [state]
            while self.start + len(self.stretch) <= version:
                self.stretch.append(self._advance(self.start + len(self.stretch) - 1, self.stretch[-1]))
            return self.stretch[version - self.start]

    def _advance(self, version: int, state: dict) -> dict:
        """The state at version + 1 from the one at `version`, noting checkpoints on the way."""
        seat, action, _events = self.moves[version]
        if not is_platform_action(action):  # who plays a seat: the game's state does not change
            try:
                state, _ = self.engine.step(state, seat, action)
            except IllegalAction as exc:
                raise ReplayBroken(f"version {version + 1}: {exc}") from None
        if (version + 1) % self.every == 0:
            self.checkpoints.setdefault(version + 1, state)
        if version + 1 == self.last and canonical(state) != canonical(self.final):
            raise ReplayBroken("the log does not arrive at the stored state")
        return state

    def events(self, version: int) -> list:
        return self.moves[version - 1][2] if version else []

    def actor(self, version: int) -> int | None:
        return self.moves[version - 1][0] if version else None


class ReplayCache:
    """Walks by match id, least recently used dropped first once they hold more than `max_states` states."""

    def __init__(self, max_states: int = CACHE_STATES):
        self.max_states = max_states
        self.walks: OrderedDict[int, Walk] = OrderedDict()
        self.lock = threading.Lock()

    def walk(self, key: int, build: Callable[[], Walk]) -> Walk:
        with self.lock:
            walk = self.walks.get(key)
            if walk is not None:
                self.walks.move_to_end(key)
                return walk
        walk = build()  # outside the lock: a database read
        with self.lock:
            walk = self.walks.setdefault(key, walk)
            self.walks.move_to_end(key)
            return walk

    def state(self, key: int, build: Callable[[], Walk], version: int) -> tuple[Walk, dict]:
        walk = self.walk(key, build)
        state = walk.state(version)
        self.trim()
        return walk, state

    def trim(self) -> None:
        with self.lock:
            total = sum(w.size() for w in self.walks.values())
            while total > self.max_states and len(self.walks) > 1:
                _, dropped = self.walks.popitem(last=False)
                total -= dropped.size()

    def clear(self) -> None:
        with self.lock:
            self.walks.clear()


CACHE = ReplayCache()


# ---- what the API serves -------------------------------------------------------
def log_line(version: int, seat: int | None, event: dict) -> dict:
    """An event as the log serves it: the addressees left out, a private one marked (docs/api.md, Events)."""
    line = {"version": version, "seat": seat, **{k: v for k, v in event.items() if k != "to"}}
    if event.get("to") is not None:
        line["private"] = True
    return line


def viewer_seat(match: Match, seat, user) -> int | None:
    """The seat whose view `user` asks to replay (None: the public view); raises MatchError.

    `match` comes with its seats.  Refusals: `conflict` while the match is
    active (for everyone: it is followed live), `bad_message` for a seat that
    is not a seat number of the match, `unauthenticated` or `forbidden` for a
    seat that is not the caller's own."""
    if match.status == ACTIVE:
        raise MatchError("conflict", _("The match is still being played: watch it live; its replay opens when it ends."))
    if seat in (None, ""):
        return None
    seats = list(match.seats.all())
    try:
        number = int(seat)
    except (TypeError, ValueError):
        number = -1
    if not 0 <= number < len(seats) or str(number) != str(seat).strip():
        raise MatchError("bad_message", _("seat must be the number of one of the match's seats."))
    if user is None or not user.is_authenticated:
        raise MatchError("unauthenticated", _("Log in to replay your own seat's view."))
    if seats[number].user_id != user.pk:
        raise MatchError("forbidden", _("You may replay only your own seat's view."))
    return number


def _walk_of(match: Match) -> Callable[[], Walk]:
    def build() -> Walk:
        engine = get_engine(match.game)
        initial = engine.setup(len(match.seats.all()), match.options, match.seed)
        moves = [(seat, action, events) for _version, seat, action, events in store.read_moves(match.pk)]
        return Walk(engine, initial, moves, match.state)

    return build


def _state(match: Match, version: int) -> tuple[Walk, dict]:
    try:
        return CACHE.state(match.pk, _walk_of(match), version)
    except ReplayBroken:
        raise MatchError("conflict", _("This match can no longer be replayed.")) from None


def step(match: Match, version: int, seat: int | None) -> dict:
    """One version's view for `seat` (None: the public view) and the events that made it.

    `seat` is `viewer_seat`'s answer; raises MatchError (`not_found` for a
    version the match never had)."""
    if not 0 <= version <= match.version:
        raise MatchError("not_found", _("There is no step {step}: this match has steps 0 to {last}.").format(
            step=version, last=match.version))
    walk, state = _state(match, version)
    engine = walk.engine
    return {"step": version, "steps": walk.last, "seat": seat, "actor": walk.actor(version),
            "view": engine.view(state, seat),
            "events": [log_line(version, walk.actor(version), e) for e in engine.visible_events(walk.events(version), seat)]}


def log(match: Match, seat: int | None) -> dict:
    """The whole log as `seat` (None: a spectator) may read it in a replay."""
    walk = CACHE.walk(match.pk, _walk_of(match))
    lines = [log_line(version, actor, e) for version, (actor, _action, events) in enumerate(walk.moves, 1)
             for e in walk.engine.visible_events(events, seat)]
    return {"steps": walk.last, "seat": seat, "events": lines}
