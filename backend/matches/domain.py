"""What a match is while it is played, and the rules' verdict on one action.

Plain values and one pure function: no database, no channel layer, no event
loop.  The store reads and writes these values, the runtime caches them and
moves them between viewers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from backend.engines import Engine, IllegalAction, get_engine

from .errors import MatchError, engine_refusal, gettext_lazy as _

ACTIVE, FINISHED, ABORTED = "active", "finished", "aborted"
MAX_CLIENT_ID = 64


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
    # runtime so that many viewers of one seat share the work.
    rendered: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Move:
    """An action checked against the match at `version`, ready to be written."""

    info: MatchInfo
    version: int
    seat: int
    action: dict  # the engine's canonical form: what the log keeps
    client_id: str
    applied: Snapshot  # the match at version + 1
    events: list
    result: dict | None  # set when the action ends the match


@dataclass(frozen=True)
class Applied:
    """The outcome of an action: the match after it (or, for a resend, as it is now)."""

    snapshot: Snapshot
    events: list  # this action's events, every one of them; [] for a resend
    duplicate: bool  # the client id had already been applied: nothing changed


def valid_client_id(value) -> bool:
    """1-64 characters a database text column can hold (no NUL, no lone surrogate)."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CLIENT_ID or "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def snapshot_of(engine: Engine, version: int, state: dict, status: str) -> Snapshot:
    return Snapshot(version, state, tuple(engine.to_move(state)), status)


def check(info: MatchInfo, snapshot: Snapshot, seat: int, action: dict, client_id: str) -> Move:
    """The rules' verdict on `action` by `seat` at `snapshot`; raises MatchError.

    The engine sorts its refusals (malformed, not your turn, not legal); a
    finished match refuses everything."""
    engine = info.engine
    if snapshot.status != ACTIVE:
        raise MatchError("illegal_action", _("The game is over."))
    if seat not in snapshot.to_move:  # TODO(eng): the engine's NotYourTurn replaces this
        raise MatchError("not_your_turn", _("It is not your turn."))
    try:
        state, events = engine.step(snapshot.state, seat, action)
    except IllegalAction as exc:
        raise engine_refusal(exc) from None
    over = engine.is_over(state)
    applied = snapshot_of(engine, snapshot.version + 1, state, FINISHED if over else ACTIVE)
    return Move(info, snapshot.version, seat, action, client_id, applied, events,
                engine.result(state) if over else None)
