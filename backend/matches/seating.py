"""Who plays each seat, and who may resign, abort, hand a seat to the bot or take it back.

A seat belongs to its owner for the whole match: a user, or a bot seated in
the lobby (owner None).  `Match.control` says who plays it now, one entry per
seat: None while its owner plays it, or a hand-over to the bot
`{"reason": "timeout" | "resigned" | "takeover", "bot": name, "at": version[, "by": seat]}`.
A shorter list (matches older than this column) means None for the rest.
The write path changes it in the same conditional UPDATE as the match
version, so a hand-over is ordered with the actions around it.

Pure: the functions take what they need and return new values; refusals are
AppError with the platform's codes (docs/api.md, Seats).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backend.common.errors import AppError

TIMEOUT, RESIGNED, TAKEOVER = "timeout", "resigned", "takeover"
REASONS = (TIMEOUT, RESIGNED, TAKEOVER)
# The bot that plays a handed-over seat: the fair one, which sees only that seat's view.
DEFAULT_BOT = "heuristic"
ACTIVE = "active"


@dataclass(frozen=True)
class Table:
    """What the rules need to know about a match."""

    status: str  # "active" | "finished" | "aborted"
    owners: tuple  # per seat: the owning user's id, or None for a bot seated in the lobby
    control: tuple  # Match.control
    timed: bool  # the time control is not "none"
    human_acted: bool = False  # Match.human_acted: a seat played by its user has acted


# ---- who plays -------------------------------------------------------------
def initial(num_seats: int) -> list:
    return [None] * num_seats


def entry(control, seat: int) -> dict | None:
    return control[seat] if seat < len(control) else None


def played_by_owner(owners, control, seat: int) -> bool:
    """The seat's user plays it (not a lobby bot, not handed over)."""
    return owners[seat] is not None and entry(control, seat) is None


def bot_played(owners, control) -> list[int]:
    """The seats a bot plays now (seated in the lobby or handed over): clock.py's `paused`."""
    return [s for s in range(len(owners)) if not played_by_owner(owners, control, s)]


def bot_for(seat_bot: str, control, seat: int) -> str | None:
    """The bot that plays `seat` now (its lobby bot `seat_bot`, or the one it
    was handed to), or None while its user plays it."""
    if seat_bot:
        return seat_bot
    handed = entry(control, seat)
    return handed["bot"] if handed else None


def hand_to_bot(control, num_seats: int, seat: int, reason: str, at: int, *,
                bot: str = DEFAULT_BOT, by: int | None = None) -> list:
    """`control` with `seat` played by `bot` from match version `at` on; `by` is the seat that asked (takeover)."""
    if reason not in REASONS:
        raise ValueError(f"Unknown reason {reason!r}.")
    handed = {"reason": reason, "bot": bot, "at": at}
    if by is not None:
        handed["by"] = by
    return _with(control, num_seats, seat, handed)


def give_back(control, num_seats: int, seat: int) -> list:
    return _with(control, num_seats, seat, None)


def _with(control, num_seats: int, seat: int, value) -> list:
    out = [entry(control, s) for s in range(num_seats)]
    out[seat] = value
    return out


# ---- the rules -------------------------------------------------------------
def seat_of(table: Table, user_id: int | None) -> int | None:
    """The user's seat (the first one, as everywhere on the platform), or None."""
    if user_id is None:
        return None
    return next((s for s, owner in enumerate(table.owners) if owner == user_id), None)


def _player(table: Table, user_id, refusal: str) -> int:
    seat = seat_of(table, user_id)
    if seat is None:
        raise AppError("forbidden", refusal)
    return seat


def _require_active(table: Table) -> None:
    if table.status != ACTIVE:
        raise AppError("conflict", _("The match is over."))


def check_resign(table: Table, user_id) -> int:
    """The seat the user resigns."""
    seat = _player(table, user_id, _("Only a player of this match can resign."))
    _require_active(table)
    if _reason(table, seat) == RESIGNED:
        raise AppError("conflict", _("You have already resigned."))
    return seat


def check_abort(table: Table, user_id) -> int:
    """The seat of the user who aborts."""
    seat = _player(table, user_id, _("Only a player of this match can abort it."))
    _require_active(table)
    if table.human_acted:
        raise AppError("conflict", _("A player has already moved, so the match can no longer be aborted; resign instead."))
    return seat


def check_takeover(table: Table, user_id, target, asked, absent_ms: int | None, grace_ms: int) -> int:
    """The seat of the user who hands `target` to the bot.  `asked`: the seats
    every viewer sees asked; `absent_ms`: how long `target` has been asked with
    no open connection (None while it has one)."""
    seat = _player(table, user_id, _("Only a player of this match can hand a seat to the bot."))
    _require_active(table)
    if _reason(table, seat) == RESIGNED:
        raise AppError("forbidden", _("You resigned from this match."))
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(table.owners):
        raise AppError("bad_message", _("There is no such seat."))
    if target == seat:
        raise AppError("forbidden", _("You cannot hand your own seat to the bot; resign instead."))
    if table.timed:
        raise AppError("conflict", _("In a timed match the clock hands an absent player's seat to the bot."))
    if not played_by_owner(table.owners, table.control, target):
        raise AppError("conflict", _("The bot already plays that seat."))
    if target not in asked:
        raise AppError("conflict", _("A seat can be handed to the bot only while it is that player's turn."))
    if absent_ms is None:
        raise AppError("conflict", _("That player is connected."))
    if absent_ms < grace_ms:
        wait = -(-(grace_ms - absent_ms) // 1000)
        raise AppError("conflict", ngettext(
            "That player may still come back; you can hand their seat to the bot in %(seconds)d second.",
            "That player may still come back; you can hand their seat to the bot in %(seconds)d seconds.",
            wait) % {"seconds": wait})
    return seat


def check_reclaim(table: Table, user_id) -> int:
    """The seat the user takes back from the bot."""
    seat = _player(table, user_id, _("Only a player of this match can take a seat back."))
    _require_active(table)
    reason = _reason(table, seat)
    if reason is None:
        raise AppError("conflict", _("You are already playing your seat."))
    if reason == RESIGNED:
        raise AppError("conflict", _("You resigned; the bot plays your seat to the end of the match."))
    return seat


def absent_ms(now: int, turn_started: int | None, disconnected_at: int | None) -> int | None:
    """How long a seat has been asked with no open connection at `now`, for
    check_takeover: from the later of its turn's start (clock.frame's `started`)
    and its last connection's end; None while connected or not asked."""
    if turn_started is None or disconnected_at is None:
        return None
    return max(0, now - max(turn_started, disconnected_at))


def _reason(table: Table, seat: int) -> str | None:
    handed = entry(table.control, seat)
    return handed["reason"] if handed else None


# ---- resignations and the result -------------------------------------------
def resigned(control) -> list[int]:
    """The seats that resigned, earliest first."""
    found = [(handed["at"], s) for s, handed in enumerate(control) if handed and handed["reason"] == RESIGNED]
    return [s for _at, s in sorted(found)]


def decided(num_seats: int, control) -> bool:
    """Resignations alone settle the match: fewer than two seats have not resigned."""
    return num_seats - len(resigned(control)) < 2


def with_resignations(result: dict, control) -> dict:
    """The engine's result with resigned seats ranked last: out of `winners`,
    at the end of `ranking` (the later a seat resigned, the higher it ranks),
    listed in `resigned`.  If every winner resigned, the best of the others win:
    first by `ranking`, else by highest score."""
    gone = resigned(control)
    if not gone:
        return result
    num_seats = len(result["scores"]) if result.get("scores") is not None else len(control)
    stayed = [s for s in range(num_seats) if s not in gone]
    winners = [s for s in result.get("winners", []) if s not in gone]
    scores = result.get("scores")
    if "ranking" in result:
        order = [s for s in result["ranking"] if s not in gone]
    else:
        order = sorted(stayed, key=lambda s: (s not in winners, -(scores[s] if scores else 0), s))
    if not winners and order:
        if "ranking" in result or not scores:
            winners = [order[0]]
        else:
            best = max(scores[s] for s in stayed)
            winners = [s for s in stayed if scores[s] == best]
    out = {**result, "winners": winners, "ranking": order + gone[::-1], "resigned": gone}
    if "shared" in result:
        out["shared"] = len(winners) > 1
    return out


def resignation_result(num_seats: int, control) -> dict:
    """The result of a match that resignations decided before the game ended."""
    gone = resigned(control)
    stayed = [s for s in range(num_seats) if s not in gone]
    return {"winners": stayed, "ranking": stayed + gone[::-1], "resigned": gone, "reason": "resignation"}


# ---- events ----------------------------------------------------------------
# Public events for the match log, in the engines' shape (docs/engines.md,
# Events): `kind` and `params` for clients to word in their language (the
# frontend's `ev.platform.*` words; a `reason` picks the sentence), `text` in
# English for older clients.
_HANDED_TEXT = {
    TIMEOUT: "Seat {seat} ran out of time; the bot plays for them.",
    RESIGNED: "Seat {seat} resigned; the bot plays their seat to the end.",
    TAKEOVER: "Seat {seat} was away; seat {by} handed it to the bot.",
}


def _event(kind: str, seat: int, text: str, **params) -> dict:
    return {"kind": kind, "seat": seat, "to": None, "params": params, "text": text}


def handed_event(seat: int, reason: str, by: int | None = None) -> dict:
    params = {"reason": reason} if by is None else {"reason": reason, "by": by}
    return _event("seat_to_bot", seat, _HANDED_TEXT[reason].format(seat=seat, by=by), **params)


def back_event(seat: int) -> dict:
    return _event("seat_back", seat, f"Seat {seat} is back and plays again.")


def aborted_event(seat: int) -> dict:
    return _event("aborted", seat, f"Seat {seat} aborted the match.")
