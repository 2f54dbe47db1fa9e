"""What a match is while it is played, and the rules' verdict on one action.

Plain values and one pure function: no database, no channel layer, no event
loop.  The store reads and writes these values, the runtime caches them and
moves them between viewers.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from functools import cached_property

from django.conf import settings

from backend.engines import Engine, IllegalAction, get_engine

from . import clock as clocks
from . import seating
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
    time_control: dict = field(default_factory=lambda: dict(clocks.UNTIMED))

    # Computed once per match (the runtime asks on every action); cached_property
    # writes the instance's __dict__ directly, which a frozen dataclass allows.
    @cached_property
    def engine(self) -> Engine:
        return get_engine(self.game)

    @cached_property
    def owners(self) -> tuple:
        """Per seat: its user's id, or None for a bot seated in the lobby."""
        return tuple(s.user_id for s in self.seats)

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
    clock: dict | None = None  # clock.py's value; None for matches older than clocks
    control: tuple = ()  # who plays each seat now (seating.py)
    human_acted: bool = False  # a seat played by its user has acted (no more abort)
    result: dict | None = None
    # When the rules answer for the seats still asked in a step where silence
    # has a meaning (engine.defaults), epoch ms; None outside such a step.
    window: int | None = None
    # The latest a hold (hold() below) may move `window` to; set when the window opens.
    window_cap: int | None = None
    # seat (None: spectator) -> (view JSON, legal actions JSON), filled by the
    # runtime so that many viewers of one seat share the work.
    rendered: dict = field(default_factory=dict, compare=False, repr=False)
    # Other parts of the viewers' messages at this version (their events, the
    # clock's frame), kept by the runtime and the socket for the same reason.
    shared: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Move:
    """An action checked against the match at `version`, ready to be written."""

    info: MatchInfo
    version: int
    seat: int
    action: dict  # the engine's canonical form: what the log keeps
    client_id: str
    applied: Snapshot  # the match at version + 1 (its result set when the move ends the match)
    events: list
    # Users to tell that it is their move (turn-based matches only): the store enqueues them with the move.
    notify: tuple = ()

    @property
    def result(self) -> dict | None:
        return self.applied.result


@dataclass(frozen=True)
class Applied:
    """The outcome of an action: the match after it (or, for a resend, as it is now)."""

    snapshot: Snapshot
    events: list  # this action's events, every one of them; [] for a resend
    duplicate: bool  # the client id had already been applied: nothing changed


# Ids the server gives the moves it makes: a bot's (runtime/bots.py), a platform move's or silence's
# (below, runtime/hub.py). A client's may not look like them: the ratings count a player's own moves by them.
BOT_ID_PREFIX, PLATFORM_ID_PREFIX = "bot:", "platform:"
SERVER_ID_PREFIXES = (BOT_ID_PREFIX, PLATFORM_ID_PREFIX)


def valid_client_id(value) -> bool:
    """1-64 characters a database text column can hold (no NUL, no lone surrogate), not of the server's shapes."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CLIENT_ID or "\x00" in value:
        return False
    if value.startswith(SERVER_ID_PREFIXES):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def snapshot_of(engine: Engine, version: int, state: dict, status: str, **platform) -> Snapshot:
    return Snapshot(version, state, tuple(engine.to_move(state)), status, **platform)


def public_asked(engine: Engine, state: dict) -> list[int]:
    """The seats every viewer sees asked (engine.asked): what the clocks run on."""
    return list(engine.asked(state))


def check(info: MatchInfo, snapshot: Snapshot, seat: int, action: dict, client_id: str, now: int,
          bot: bool = False) -> Move:
    """The rules' verdict on `action` by `seat` at `snapshot` (at `now`, epoch
    ms, for the clock; `bot`: the bot plays it); raises MatchError.

    The engine sorts its refusals (malformed, not your turn, not legal) and
    gives the canonical spelling of the action, which the log keeps; a
    finished match refuses everything, and a seat handed to the bot refuses
    its user until they take it back."""
    engine = info.engine
    if snapshot.status != ACTIVE:
        raise MatchError("illegal_action", _("The game is over."))
    if not bot and info.seats[seat].user_id is not None and seating.entry(snapshot.control, seat) is not None:
        raise MatchError("conflict", _("The bot plays your seat now; take it back to play."))
    try:
        state, events, action = engine.play(snapshot.state, seat, action)
    except IllegalAction as exc:
        raise engine_refusal(exc, info.game) from None
    over = engine.is_over(state)
    window = cap = None
    if not over and engine.defaults(state):  # a step where silence answers: its window opens once
        if snapshot.window is not None:
            window, cap = snapshot.window, snapshot.window_cap
        else:
            window, cap = now + round(settings.MATCH_DEFAULT_WINDOW_S * 1000), now + round(settings.MATCH_HOLD_MAX_S * 1000)
    clock = snapshot.clock
    if clock is not None:
        clock = clocks.advance(clock, now, [] if over else public_asked(engine, state), acted=seat,
                               paused=seating.bot_played(info.owners, snapshot.control))
    result = seating.with_resignations(engine.result(state), snapshot.control) if over else None
    applied = snapshot_of(engine, snapshot.version + 1, state, FINISHED if over else ACTIVE, clock=clock,
                          control=snapshot.control, result=result, window=window, window_cap=cap,
                          human_acted=snapshot.human_acted or (not bot and seating.played_by_owner(
                              info.owners, snapshot.control, seat)))
    return Move(info, snapshot.version, seat, action, client_id, applied, events,
                _newly_asked(info, snapshot, applied, public_asked(engine, snapshot.state), over))


def _newly_asked(info: MatchInfo, before: Snapshot, after: Snapshot, asked_before: list, over: bool) -> tuple:
    """The users of the seats asked after a move and not before it, in a turn-based match (the
    others play with the page open): what every viewer sees asked, so a notice tells nothing hidden."""
    if over or not clocks.is_turn_based(info.time_control):
        return ()
    return tuple(info.seats[seat].user_id for seat in public_asked(info.engine, after.state)
                 if seat not in asked_before and seating.played_by_owner(info.owners, after.control, seat))


# ---- moves of the platform: who plays a seat, and the end by other means ----------
# They change no game state.  The log keeps them as {"platform": what, ...}, an
# object no engine action looks like (engine actions carry a "type"); a replay
# of the game skips them.
def is_platform_action(action: dict) -> bool:
    return "platform" in action


def _platform_move(info: MatchInfo, snapshot: Snapshot, seat: int, action: dict, events: list, now: int, *,
                   control: tuple | None = None, status: str = ACTIVE, result: dict | None = None,
                   reclaimed: int | None = None, window: int | None = None) -> Move:
    control = tuple(snapshot.control if control is None else control)
    clock = snapshot.clock
    if clock is not None:
        engine = info.engine
        asked = [] if status != ACTIVE else public_asked(engine, snapshot.state)
        paused = seating.bot_played(info.owners, control)
        clock = (clocks.advance(clock, now, asked, paused=paused) if reclaimed is None
                 else clocks.reclaim(clock, reclaimed, now, asked, paused=paused))
    going = status == ACTIVE
    applied = Snapshot(snapshot.version + 1, snapshot.state, snapshot.to_move, status, clock, control,
                       snapshot.human_acted, result, (window or snapshot.window) if going else None,
                       snapshot.window_cap if going else None)
    # Not guessable, like a bot's: a player's own id must never pass for this move. A hold gets one too: it is
    # not one of the player's own moves (the ratings count those, docs/ratings.md).
    client_id = f"{PLATFORM_ID_PREFIX}{snapshot.version}:{action['platform']}:{seat}:{uuid.uuid4().hex}"
    return Move(info, snapshot.version, seat, action, client_id, applied, events)


def hand_to_bot(info: MatchInfo, snapshot: Snapshot, seat: int, reason: str, now: int, by: int | None = None) -> Move:
    """`seat` played by the bot from now on (a timeout, a resignation, a takeover)."""
    n = len(info.seats)
    control = seating.hand_to_bot(snapshot.control, n, seat, reason, snapshot.version + 1, by=by)
    action = {"platform": reason} if by is None else {"platform": reason, "by": by}
    status, result = ACTIVE, None
    if reason == seating.RESIGNED and seating.decided(n, control):
        status, result = FINISHED, seating.resignation_result(n, control)
    return _platform_move(info, snapshot, seat, action, [seating.handed_event(seat, reason, by)], now,
                          control=control, status=status, result=result)


def give_back(info: MatchInfo, snapshot: Snapshot, seat: int, now: int) -> Move:
    control = seating.give_back(snapshot.control, len(info.seats), seat)
    return _platform_move(info, snapshot, seat, {"platform": "reclaim"}, [seating.back_event(seat)], now,
                          control=control, reclaimed=seat)


def hold(info: MatchInfo, snapshot: Snapshot, seat: int, now: int) -> Move:
    """`seat`, still silent in a step where silence answers, asks it to wait:
    the window then ends no sooner than MATCH_HOLD_S from now, and never after
    its cap (MATCH_HOLD_MAX_S after the step began), so holding again and again
    cannot stall the match.  The log keeps it as {"platform": "hold"}, with no
    event; the new version carries the new window to every viewer."""
    if snapshot.status != ACTIVE or snapshot.window is None or seat not in info.engine.defaults(snapshot.state):
        raise MatchError("not_your_turn", _("Nothing waits for your answer now."))
    if not seating.played_by_owner(info.owners, snapshot.control, seat):
        raise MatchError("conflict", _("The bot plays this seat now."))
    cap = snapshot.window if snapshot.window_cap is None else snapshot.window_cap
    until = min(max(snapshot.window, now + round(settings.MATCH_HOLD_S * 1000)), cap)
    # Less than a second gained is not worth a version for every viewer.
    if until < snapshot.window + 1000:
        raise MatchError("conflict", _("This step cannot wait any longer."))
    return _platform_move(info, snapshot, seat, {"platform": "hold"}, [], now, window=until)


def abort(info: MatchInfo, snapshot: Snapshot, seat: int, now: int) -> Move:
    return _platform_move(info, snapshot, seat, {"platform": "abort"}, [seating.aborted_event(seat)], now,
                          status=ABORTED)


def deadline(snapshot: Snapshot) -> int | None:
    """The next moment (epoch ms) the platform must act on its own: a clock runs
    out, or a window of defaults closes; None when nothing is due."""
    if snapshot.status != ACTIVE:
        return None
    due = [d for d in (None if snapshot.clock is None else clocks.deadline(snapshot.clock), snapshot.window)
           if d is not None]
    return min(due) if due else None


def table(info: MatchInfo, snapshot: Snapshot) -> seating.Table:
    """What seating's rules need to know about the match."""
    return seating.Table(snapshot.status, info.owners, tuple(snapshot.control), clocks.is_timed(info.time_control),
                         snapshot.human_acted)
