"""The clock's link to the wall clock and to the Match columns it fills.

clock.py and seating.py are pure; this is where their values meet time and
the row: the server's "now" in milliseconds, the deadline as a datetime
column, and the columns a new match starts with.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

from . import clock, seating
from .models import Match


def now_ms() -> int:
    """The wall clock every server process shares (NTP-synchronised hosts); clocks store it."""
    return time.time_ns() // 1_000_000


def as_datetime(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


def public_asked(engine, state: dict) -> list[int]:
    """The seats every viewer sees asked: the spectator view's `to_move` where
    the game shows one (Condottiere keeps asking every seat until all have
    answered its secret keep-or-discard question), else the engine's to_move."""
    shown = engine.view(state, None).get("to_move")
    return list(engine.to_move(state) if shown is None else shown)


def start_fields(time_control: dict, owners, asked, now: int) -> dict:
    """The clock columns of a new match: `owners` per seat (user id or None for
    a lobby bot), `asked` the seats every viewer sees asked first."""
    time_control = clock.validate(time_control)
    control = seating.initial(len(owners))
    state = clock.start(time_control, len(owners), asked, now, paused=seating.bot_played(owners, control))
    return {"time_control": time_control, "clock": state, "control": control,
            "deadline_at": as_datetime(clock.deadline(state))}


def after_action(clock_state: dict | None, now: int, seat: int, asked, owners, control, over: bool) -> dict:
    """The clock columns an action by `seat` writes with the new state: `asked`
    as every viewer sees it after the action, `over` when the action ends the
    match (every clock stops).  `human_acted` is True when a user played the
    seat: the UPDATE ORs it into the column.  Matches older than clocks
    (clock None) get only that."""
    out = {"human_acted": seating.played_by_owner(owners, control, seat)}
    if clock_state is not None:
        state = clock.advance(clock_state, now, [] if over else asked, acted=seat,
                              paused=seating.bot_played(owners, control))
        out.update(clock=state, deadline_at=as_datetime(clock.deadline(state)))
    return out


def after_handover(clock_state: dict | None, now: int, asked, owners, control, reclaimed: int | None = None) -> dict:
    """The columns a change of who plays a seat writes (`control` as it is after
    the change): a timeout, resignation or takeover, or `reclaimed` when that
    seat's user takes it back (with at least clock.RECLAIM_MIN_MS)."""
    out = {"control": list(control)}
    if clock_state is not None:
        paused = seating.bot_played(owners, control)
        state = (clock.advance(clock_state, now, asked, paused=paused) if reclaimed is None
                 else clock.reclaim(clock_state, reclaimed, now, asked, paused=paused))
        out.update(clock=state, deadline_at=as_datetime(clock.deadline(state)))
    return out


def start_clock(match: Match, time_control: dict, owners, asked, now: int | None = None) -> Match:
    """Give a match just created (same transaction) its time control and running clock.
    One UPDATE; the match runtime's create_match can take `start_fields` instead."""
    fields = start_fields(time_control, owners, asked, now_ms() if now is None else now)
    Match.objects.filter(pk=match.pk).update(**fields)
    for name, value in fields.items():
        setattr(match, name, value)
    return match


def overdue(now: int, limit: int = 100) -> list[int]:
    """Active matches whose deadline has passed, earliest first: one range scan of matches_deadline_idx."""
    return list(Match.objects.filter(status=Match.Status.ACTIVE, deadline_at__lte=as_datetime(now))
                .order_by("deadline_at").values_list("pk", flat=True)[:limit])
