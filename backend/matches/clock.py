"""Time controls and match clocks, as plain JSON values (docs/api.md, Time controls and clocks).

Pure: no Django, no I/O, no wall clock.  Time comes in as integer
milliseconds since the epoch (`now`), and a clock is a JSON value the write
path stores on the match row in the same statement as the action that changed
it, so a restart or a second process carries on exactly from the last commit.

A clock charges the time from one checkpoint (`since`) to the next to every
running seat: the seats asked to act, except the `paused` ones a bot plays.
`asked` must be what every viewer sees asked (the public view's to_move), or
the clock would tell what the view hides.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Marks a template for translation (Django's makemessages looks for this
    name) without importing Django; the caller translates it."""
    return message


NONE, REALTIME, TURN_BASED = "none", "realtime", "turn_based"
UNTIMED = {"kind": NONE}

# Inclusive bounds, in seconds, of each time control's fields.
BOUNDS = {
    NONE: {},
    REALTIME: {"bank_s": (60, 3 * 3600), "increment_s": (0, 600)},
    TURN_BASED: {"per_move_s": (30, 14 * 24 * 3600)},
}

# The least a player who takes their seat back from the bot gets to think.
RECLAIM_MIN_MS = 30_000


# ---- time controls ---------------------------------------------------------
class TimeControlError(ValueError):
    """A refused time control.  `field` is None when the whole value is wrong;
    `template % params` is the English sentence, `template` the message id to
    translate."""

    def __init__(self, field: str | None, template: str, **params):
        self.field = field
        self.template = template
        self.params = {"field": field, **params}
        super().__init__(template % self.params)


def validate(value) -> dict:
    """The time control with its fields checked; None means untimed."""
    if value is None:
        return dict(UNTIMED)
    if not isinstance(value, dict) or "kind" not in value:
        raise TimeControlError(None, gettext_noop('The time control must be an object with a "kind".'))
    kind = value["kind"]
    if not isinstance(kind, str) or kind not in BOUNDS:
        raise TimeControlError("kind", gettext_noop("The kind of time control must be none, realtime or turn_based."))
    bounds = BOUNDS[kind]
    unknown = sorted(str(k) for k in value if k != "kind" and k not in bounds)
    if unknown:
        raise TimeControlError(unknown[0], gettext_noop("A %(kind)s time control has no field %(names)s."),
                               kind=kind, names=", ".join(unknown))
    out = {"kind": kind}
    for field, (low, high) in bounds.items():
        if field not in value:
            raise TimeControlError(field, gettext_noop("A %(kind)s time control needs %(field)s."), kind=kind)
        number = value[field]
        if not isinstance(number, int) or isinstance(number, bool):
            raise TimeControlError(field, gettext_noop("%(field)s must be a whole number of seconds."))
        if not low <= number <= high:
            raise TimeControlError(field, gettext_noop("%(field)s must be between %(low)d and %(high)d seconds."),
                                   low=low, high=high)
        out[field] = number
    return out


def is_timed(time_control: dict | None) -> bool:
    return bool(time_control) and time_control.get("kind", NONE) != NONE


def is_turn_based(time_control: dict | None) -> bool:
    return bool(time_control) and time_control.get("kind") == TURN_BASED


# ---- clocks ----------------------------------------------------------------
# {"kind", "since": ms, "asked": [seats], "running": [seats], "started": [ms | None per seat],
#  "pending": [credits held per seat], "remaining_ms": [ms per seat] (timed kinds),
#  "increment_ms" (realtime) | "per_move_ms" (turn_based)}
# `remaining_ms` holds each bank as it was at `since`; a running seat's bank
# shrinks from there.  `started` is when each running seat's current turn
# began (the absence grace and "waiting for 3 min" count from it).  The stored
# clock stays on the server (`pending` would tell who answered); clients get frame().


def start(time_control: dict, num_seats: int, asked, now: int, paused=()) -> dict:
    """The clock of a new match whose `asked` seats are to act at `now`."""
    kind = time_control["kind"]
    asked = _seats(asked, num_seats)
    running = [s for s in asked if s not in _seats(paused, num_seats)]
    clock = {"kind": kind, "since": now, "asked": asked, "running": running,
             "started": [now if s in running else None for s in range(num_seats)], "pending": [0] * num_seats}
    if kind == REALTIME:
        clock["increment_ms"] = time_control["increment_s"] * 1000
        clock["remaining_ms"] = [time_control["bank_s"] * 1000] * num_seats
    elif kind == TURN_BASED:
        clock["per_move_ms"] = time_control["per_move_s"] * 1000
        clock["remaining_ms"] = [clock["per_move_ms"]] * num_seats
    return clock


def advance(clock: dict, now: int, asked, acted: int | None = None, paused=()) -> dict:
    """The clock after something happened at `now`: an action by seat `acted`,
    or (acted=None) a seat changing hands.  `asked` are the seats asked from
    now on, `paused` the seats a bot plays (their clocks do not run).

    Every seat that was running is charged the time since the last checkpoint
    (never below zero).  The seat that acted is credited: in realtime it gains
    the increment, in turn_based its next decision gets a fresh per_move.  When
    an action leaves several seats asked and the same ones, the view does not
    tell who acted (Condottiere's keep-or-discard question), so the credit is
    held until the asked seats change, when every answer is public.  A seat
    whose bank reached zero gains nothing: its time ran out.
    """
    num_seats = len(clock["started"])
    asked = _seats(asked, num_seats)
    paused = _seats(paused, num_seats)
    old, new = clock["running"], [s for s in asked if s not in paused]
    now = max(now, clock["since"])  # another process's clock may be behind: never charge twice
    elapsed = now - clock["since"]
    out = {**clock, "since": now, "asked": asked, "running": new}
    banks = out["remaining_ms"] = list(clock["remaining_ms"]) if "remaining_ms" in clock else None
    if banks is not None:
        for seat in old:
            banks[seat] = max(0, banks[seat] - elapsed)

    pending = out["pending"] = list(clock["pending"])
    credited = []
    if acted is not None and acted in old:
        if asked == clock["asked"] and len(asked) > 1:
            pending[acted] += 1
        else:
            credited.append(acted)
    if asked != clock["asked"]:  # the question moved on in public: every held credit is due
        for seat in range(num_seats):
            credited += [seat] * pending[seat]
            pending[seat] = 0
    if banks is not None:
        credited = [seat for seat in credited if banks[seat] > 0]
    if "increment_ms" in clock:
        for seat in credited:
            banks[seat] += clock["increment_ms"]

    new_turn = {seat for seat in new if seat not in old or seat in credited}
    out["started"] = [now if seat in new_turn else None if seat not in new else t
                      for seat, t in enumerate(clock["started"])]
    if "per_move_ms" in clock:
        for seat in range(num_seats):
            if seat in new_turn or seat not in new:
                banks[seat] = clock["per_move_ms"]
    if banks is None:
        del out["remaining_ms"]
    return out


def reclaim(clock: dict, seat: int, now: int, asked, paused=()) -> dict:
    """The clock once `seat`'s player takes the seat back from the bot at `now`
    (`paused` without it): whatever its bank had left, but at least
    RECLAIM_MIN_MS (turn_based: a fresh per_move when the seat is asked)."""
    out = advance(clock, now, asked, paused=paused)
    if "increment_ms" in out:
        out["remaining_ms"][seat] = max(out["remaining_ms"][seat], RECLAIM_MIN_MS)
    return out


def remaining(clock: dict, now: int) -> list[int] | None:
    """Each seat's bank at `now` (never negative); None for an untimed match."""
    if "remaining_ms" not in clock:
        return None
    elapsed = max(0, now - clock["since"])
    running = clock["running"]
    return [max(0, ms - elapsed) if seat in running else ms for seat, ms in enumerate(clock["remaining_ms"])]


def deadline(clock: dict) -> int | None:
    """The earliest moment (ms) a running seat's bank reaches zero; None when no timed clock runs."""
    if "remaining_ms" not in clock or not clock["running"]:
        return None
    return clock["since"] + min(clock["remaining_ms"][seat] for seat in clock["running"])


def flagged(clock: dict, now: int) -> list[int]:
    """The running seats whose time has run out at `now`."""
    banks = remaining(clock, now)
    return [] if banks is None else [seat for seat in clock["running"] if banks[seat] <= 0]


def frame(clock: dict, now: int) -> dict:
    """The clock as every viewer gets it in a `state` message (docs/api.md, Clocks).

    Durations are relative to `server_ms` (this moment), so a client counts
    down from the moment it receives the frame with its own monotonic clock
    and needs no agreement between its wall clock and the server's; each new
    frame replaces the previous reckoning, which corrects any drift."""
    out = {
        "kind": clock["kind"],
        "running": list(clock["running"]),
        "remaining_ms": remaining(clock, now),
        "turn_ms": [None if t is None else max(0, now - t) for t in clock["started"]],
        "server_ms": now,
    }
    if "increment_ms" in clock:
        out["increment_ms"] = clock["increment_ms"]
    if "per_move_ms" in clock:
        out["per_move_ms"] = clock["per_move_ms"]
    return out


def lean_frame(clock: dict, now: int) -> dict:
    """The clock in a difference-frame client's messages (docs/api.md,
    Difference frames): as it stood when it last changed (a move), so two
    messages differ only where a move changed it, plus `age_ms`, how long
    ago that was.  `running_ms[i]`: how long `running[i]` had been on its
    turn then.  Untimed clocks count only whole seconds of age: a frame sent
    right after a move carries none."""
    since, started = clock["since"], clock["started"]
    running = list(clock["running"])
    out = {"kind": clock["kind"], "running": running,
           "running_ms": [since - (started[s] if started[s] is not None else since) for s in running]}
    age = max(0, now - since)
    if "remaining_ms" in clock:
        out["remaining_ms"] = list(clock["remaining_ms"])
    else:
        age -= age % 1000
    if age:
        out["age_ms"] = age
    if "increment_ms" in clock:
        out["increment_ms"] = clock["increment_ms"]
    if "per_move_ms" in clock:
        out["per_move_ms"] = clock["per_move_ms"]
    return out


def _seats(seats, num_seats: int) -> list[int]:
    seats = list(seats)
    for s in seats:  # a loop, not any(): this runs on every action
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < num_seats:
            raise ValueError(f"Seats must be whole numbers from 0 to {num_seats - 1}, not {seats!r}.")
    return seats if len(seats) < 2 else sorted(set(seats))
