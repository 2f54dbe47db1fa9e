"""The clock's link to the wall clock and to the Match columns it fills.

clock.py and seating.py are pure; this is where their values meet time and
the row: the server's "now" in milliseconds, the deadline as a datetime
column, the columns a new match starts with, and the sweep's query.
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


def start_fields(time_control: dict | None, owners, asked, now: int) -> dict:
    """The clock columns of a new match: `owners` per seat (user id or None for
    a lobby bot), `asked` the seats every viewer sees asked first."""
    time_control = clock.validate(time_control)
    control = seating.initial(len(owners))
    state = clock.start(time_control, len(owners), asked, now, paused=seating.bot_played(owners, control))
    return {"time_control": time_control, "clock": state, "control": control,
            "deadline_at": as_datetime(clock.deadline(state))}


def start_seen(owners, now: int) -> list:
    """MatchSeat.seen_ms of a new match: its players count as gone at its start
    (a negative stamp), so a seat whose player never connects is absent from
    the start, not "connected" until the stamp goes stale."""
    return [None if owner is None else -now for owner in owners]


def overdue(now: int, limit: int = 100) -> list[int]:
    """Active matches whose deadline has passed, earliest first: one range scan of matches_deadline_idx."""
    return list(Match.objects.filter(status=Match.Status.ACTIVE, deadline_at__lte=as_datetime(now))
                .order_by("deadline_at").values_list("pk", flat=True)[:limit])
