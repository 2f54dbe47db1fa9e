"""The SQL of matches: reading what the runtime caches, writing moves.

A move is written by one conditional UPDATE (the row lock and the version
check in one) plus its log INSERT.  The log row (action, events, version) is
what recovers the move; the match row takes its game state only every
MATCH_STATE_EVERY versions and at the end (state_version says which), and a
reader steps that state through the log rows after it (read_snapshot).  On PostgreSQL both are one statement that
takes any number of moves of different matches (the runtime's group commit
sends many, the one-by-one path one) and says of each move whether it was
written, was a resend of an id already in the log, or found its match moved
on.  SQLite gets the same write in two statements inside a transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from datetime import timezone as dt_timezone

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from backend.engines import get_engine
from backend.notifications.models import YOUR_MOVE, Outbox

from . import domain, jsoncodec, seating
from .domain import MatchInfo, Move, SeatInfo, Snapshot, deadline, snapshot_of
from .models import ActionLog, Match, MatchSeat

WRITTEN, DUPLICATE, STALE = "written", "duplicate", "stale"
RECENT_VERSIONS = 64  # log rows (events, client ids) a reader fetches to catch up

_MATCH, _LOG, _OUTBOX = Match._meta.db_table, ActionLog._meta.db_table, Outbox._meta.db_table
_dumps = jsoncodec.dumps


def _loads(value):
    # psycopg hands Django's jsonb columns over as text; SQLite stores text.
    return json.loads(value) if isinstance(value, (str, bytes)) else value


# ---- reading ---------------------------------------------------------------
def read_info(match_id: int) -> MatchInfo | None:
    match = Match.objects.filter(pk=match_id).only("id", "game", "options", "seed", "public", "time_control").first()
    if match is None:
        return None
    seats = tuple(
        SeatInfo(s.user_id, s.user.get_username() if s.user_id else "", s.bot)
        for s in MatchSeat.objects.filter(match_id=match_id).select_related("user").order_by("seat")
    )
    return MatchInfo(match.pk, match.game, match.options, match.seed, match.public, seats, match.time_control)


def read_snapshot(info: MatchInfo) -> Snapshot | None:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version, state, state_version, status, clock, control, human_acted, result,"
                       f" window_until, window_cap FROM {_MATCH} WHERE id = %s", [info.id])
        row = cursor.fetchone()
    if row is None:
        return None
    version, state, state_version, status, clock, control, human_acted, result, window, cap = row
    state = stepped(info.engine, info.id, _loads(state), state_version, version)
    return snapshot_of(info.engine, version, state, status, clock=_loads(clock),
                       control=tuple(_loads(control) or ()), human_acted=bool(human_acted), result=_loads(result),
                       window=window, window_cap=cap)


def stepped(engine, match_id: int, state: dict, at: int, version: int) -> dict:
    """`state` (of version `at`) stepped through the log to `version`: the
    platform's moves (who plays a seat, a hold) leave the game state as it is."""
    if at == version:
        return state
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version, seat, action FROM {_LOG} WHERE match_id = %s AND version > %s"
                       f" AND version <= %s ORDER BY version", [match_id, at, version])
        rows = cursor.fetchall()
    if [row[0] for row in rows] != list(range(at + 1, version + 1)):
        raise RuntimeError(f"match {match_id}: the log does not hold versions {at + 1}..{version}")
    for _, seat, action in rows:
        action = _loads(action)
        if not domain.is_platform_action(action):
            state, _ = engine.step(state, seat, action)
    return state


def read_state_at(match_id: int, version: int) -> dict | None:
    """The game state of any version of a match: the stored state stepped on,
    or for a version before it, the first state stepped from the start."""
    match = Match.objects.filter(pk=match_id).values("game", "options", "seed", "state", "state_version").first()
    if match is None:
        return None
    engine = get_engine(match["game"])
    if version >= match["state_version"]:
        return stepped(engine, match_id, _loads(match["state"]), match["state_version"], version)
    first = engine.setup(MatchSeat.objects.filter(match_id=match_id).count(), match["options"], match["seed"])
    return stepped(engine, match_id, first, 0, version)


def read_state(match_id: int) -> dict | None:
    """The game state of a match's current version (None: no such match)."""
    version = read_version(match_id)
    return None if version is None else read_state_at(match_id, version)


def keeps_state(move: Move) -> bool:
    """Whether writing `move` stores the whole game state too: every
    MATCH_STATE_EVERY versions, and the last (recording a finish, and replays, read it)."""
    return (move.version + 1) % settings.MATCH_STATE_EVERY == 0 or move.applied.status != domain.ACTIVE


def read_seen(match_id: int) -> list:
    """Per seat: epoch ms when a connection of it was last known open (positive)
    or when its last one closed (negative); None for seats never connected."""
    return list(MatchSeat.objects.filter(match_id=match_id).order_by("seat").values_list("seen_ms", flat=True))


def write_seen(seen: dict[int, dict[int, int]]) -> None:
    """{match id: {seat: ±ms}} as read_seen has them; a stamp never replaces a later one.
    Autocommitted, on the seats' rows only: a heartbeat never holds a lock that
    a move's UPDATE of the match row would wait for.  On PostgreSQL one
    statement for the whole batch (a heartbeat stamps every connected seat of
    the process: one ORM update each held the GIL for a fifth of a busy
    server's time), locking the rows in id order so that two processes'
    batches never deadlock."""
    rows = [(match_id, seat, ms) for match_id, seats in seen.items() for seat, ms in seats.items()]
    if not rows:
        return
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_WRITE_SEEN, [list(c) for c in zip(*rows)])
        return
    for match_id, seat, ms in rows:
        later = Q(seen_ms__isnull=True) | Q(seen_ms__gte=-abs(ms), seen_ms__lte=abs(ms))
        MatchSeat.objects.filter(later, match_id=match_id, seat=seat).update(seen_ms=ms)


_SEAT = MatchSeat._meta.db_table
_WRITE_SEEN = (
    f"WITH input AS (SELECT * FROM unnest(%s::bigint[], %s::int[], %s::bigint[]) AS t(match_id, seat, ms)),"
    f" locked AS (SELECT s.id, i.ms FROM {_SEAT} s JOIN input i ON s.match_id = i.match_id AND s.seat = i.seat"
    " WHERE s.seen_ms IS NULL OR s.seen_ms BETWEEN -abs(i.ms) AND abs(i.ms) ORDER BY s.id FOR UPDATE OF s)"
    f" UPDATE {_SEAT} s SET seen_ms = locked.ms FROM locked WHERE s.id = locked.id"
)


def read_version(match_id: int) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {_MATCH} WHERE id = %s", [match_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


def read_versions(match_ids: list[int]) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


def read_log(match_id: int, after: int, upto: int) -> dict[int, tuple[str, list]]:
    """{version: (client id, every event)} of versions after+1..upto."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version, client_id, events FROM {_LOG}"
                       f" WHERE match_id = %s AND version > %s AND version <= %s", [match_id, after, upto])
        return {version: (client_id, _loads(events)) for version, client_id, events in cursor.fetchall()}


def was_applied(match_id: int, client_id: str) -> bool:
    with connection.cursor() as cursor:  # raw: the ORM's exists() cost more than the query
        cursor.execute(f"SELECT 1 FROM {_LOG} WHERE match_id = %s AND client_id = %s LIMIT 1", [match_id, client_id])
        return cursor.fetchone() is not None


# ---- a finish recorded once (signals.match_finished) -----------------------------
@dataclass(frozen=True)
class Finish:
    """A finished match as recording it reads it (claim_recordings)."""

    id: int
    game: str
    state: dict
    result: dict | None
    control: tuple
    rated: bool
    finished_at: datetime
    users: tuple  # per seat: its user's id, None for a bot
    away: frozenset  # seats ever handed to the bot for want of their player (their time ran out, or a takeover)
    own_moves: tuple = ()  # per seat: the moves its player made (not a bot's, nor the platform's: domain's ids)


_AWAY = (seating.TIMEOUT, seating.TAKEOVER)  # a forfeit even if the player came back


def claim_recordings(match_ids: list[int]) -> list[Finish]:
    """Inside the caller's transaction: mark those of `match_ids` that are
    finished and not yet recorded as recorded, and read what recording them
    needs, in id order; only the matches this caller marked.  A concurrent
    caller waits for the row locks and then finds the column set (or, had the
    first rolled back, unset: then it records).  One statement on PostgreSQL
    however many matches: this runs in a database thread of a busy server,
    and each statement takes the interpreter back from the event loop."""
    ids = sorted(set(match_ids))
    if not ids:
        return []
    if connection.vendor != "postgresql":
        return [f for f in map(_claim_one, ids) if f is not None]
    with connection.cursor() as cursor:
        cursor.execute(_CLAIM, [ids, Match.Status.FINISHED, list(_AWAY), *_SERVER_IDS])
        return [Finish(id_, game, _loads(state), _loads(result), tuple(_loads(control) or ()), rated, finished_at,
                       tuple(users), frozenset(away), tuple(own))
                for id_, game, state, result, control, rated, finished_at, users, away, own in cursor.fetchall()]


# LIKE patterns of the ids the server gives its own moves (no client's may look like them).
_SERVER_IDS = [prefix + "%" for prefix in domain.SERVER_ID_PREFIXES]


# Rows locked in id order: two processes claiming overlapping sets queue instead of deadlocking.
_CLAIM = (
    f"WITH claimed AS (UPDATE {_MATCH} SET recorded_at = now() WHERE id IN (SELECT id FROM {_MATCH}"
    " WHERE id = ANY(%s::bigint[]) AND status = %s AND recorded_at IS NULL ORDER BY id FOR UPDATE)"
    " RETURNING id, game, state, result, control, rated, COALESCE(finished_at, updated_at) AS finished_at)"
    " SELECT c.id, c.game, c.state, c.result, c.control, c.rated, c.finished_at,"
    f" ARRAY(SELECT s.user_id FROM {_SEAT} s WHERE s.match_id = c.id ORDER BY s.seat),"
    f" ARRAY(SELECT DISTINCT l.seat FROM {_LOG} l WHERE l.match_id = c.id AND l.action->>'platform' = ANY(%s)),"
    f" ARRAY(SELECT (SELECT count(*) FROM {_LOG} l WHERE l.match_id = c.id AND l.seat = s.seat"
    f" AND l.client_id NOT LIKE %s AND l.client_id NOT LIKE %s) FROM {_SEAT} s WHERE s.match_id = c.id ORDER BY s.seat)"
    " FROM claimed c ORDER BY c.id"
)


def _claim_one(match_id: int) -> Finish | None:
    # SQLite: the UPDATE first, so that it takes the database's write lock before anything is read.
    if not Match.objects.filter(pk=match_id, status=Match.Status.FINISHED, recorded_at__isnull=True).update(
            recorded_at=timezone.now()):
        return None
    game, state, result, control, rated, finished_at, updated_at = Match.objects.filter(pk=match_id).values_list(
        "game", "state", "result", "control", "rated", "finished_at", "updated_at").get()
    users = tuple(MatchSeat.objects.filter(match_id=match_id).order_by("seat").values_list("user_id", flat=True))
    away = ActionLog.objects.filter(match_id=match_id, action__platform__in=_AWAY).values_list("seat", flat=True)
    server_made = Q()
    for prefix in domain.SERVER_ID_PREFIXES:
        server_made |= Q(client_id__startswith=prefix)
    own = dict(ActionLog.objects.filter(match_id=match_id).exclude(server_made).values("seat")
               .annotate(n=Count("id")).values_list("seat", "n"))
    return Finish(match_id, game, state, result, tuple(control or ()), bool(rated), finished_at or updated_at, users,
                  frozenset(away), tuple(own.get(seat, 0) for seat in range(len(users))))


def unrecorded(before: datetime, limit: int = 20) -> list[int]:
    """Finished before `before` and not recorded: a range scan of matches_unrecorded_idx."""
    return list(Match.objects.filter(status=Match.Status.FINISHED, recorded_at__isnull=True, finished_at__lte=before)
                .order_by("finished_at").values_list("pk", flat=True)[:limit])


# ---- writing ---------------------------------------------------------------
def write_sql() -> str:
    """The PostgreSQL write of any number of moves (each match at most once),
    their rows in one JSON parameter (write_params).

    Rows come back as (match id, written?): a move whose client id is already
    in its match's log is not written and answers false, so a reused id never
    fails the statement, and with it the other matches' moves.  A move whose
    match moved on answers nothing.  One JSON document that PostgreSQL takes
    apart (jsonb_to_recordset) costs the server process one orjson call per
    statement; fourteen typed arrays cost it a Python loop per element, and the
    server process, not the database, is what a busy machine runs out of.

    A written move's `notify` users get their your-move row in the outbox in
    the same statement (backend/notifications): a committed move is never
    left untold, and a move of an untimed match inserts nothing."""
    return (
        "WITH input AS (SELECT * FROM jsonb_to_recordset(%s::jsonb) AS t(id bigint, version int, state jsonb,"
        " keep bool, status text, result jsonb, seat smallint, action jsonb, client_id text, events jsonb, clock jsonb,"
        " control jsonb, deadline bigint, human_acted bool, window_until bigint, window_cap bigint,"
        " notify jsonb)),"
        f" resent AS (SELECT i.id FROM input i WHERE EXISTS"
        f" (SELECT 1 FROM {_LOG} l WHERE l.match_id = i.id AND l.client_id = i.client_id)),"
        f" moved AS (UPDATE {_MATCH} m SET version = i.version + 1,"
        " state = CASE WHEN i.keep THEN i.state ELSE m.state END,"
        " state_version = CASE WHEN i.keep THEN i.version + 1 ELSE m.state_version END,"
        " updated_at = now(), status = i.status,"
        " finished_at = CASE WHEN i.status = 'active' THEN m.finished_at ELSE now() END,"
        " result = CASE WHEN i.result IS NULL THEN m.result ELSE i.result END,"
        " clock = i.clock, control = i.control,"
        " deadline_at = to_timestamp(i.deadline / 1000.0), human_acted = m.human_acted OR i.human_acted,"
        " window_until = i.window_until, window_cap = i.window_cap"
        " FROM input i WHERE m.id = i.id AND m.version = i.version"
        " AND i.id NOT IN (SELECT id FROM resent) RETURNING m.id),"
        f" logged AS (INSERT INTO {_LOG} (match_id, version, seat, action, client_id, events, created_at)"
        " SELECT i.id, i.version + 1, i.seat, i.action, i.client_id, i.events, now()"
        " FROM input i JOIN moved ON moved.id = i.id RETURNING match_id),"
        f" told AS (INSERT INTO {_OUTBOX} (kind, user_id, match_id, version)"
        f" SELECT '{YOUR_MOVE}', u.value::bigint, i.id, i.version + 1 FROM input i JOIN moved ON moved.id = i.id"
        " CROSS JOIN LATERAL jsonb_array_elements_text(i.notify) AS u(value) ON CONFLICT DO NOTHING)"
        " SELECT match_id, true FROM logged UNION ALL SELECT id, false FROM resent"
    )


def _row(m: Move) -> dict:
    a = m.applied
    keep = keeps_state(m)
    return {"id": m.info.id, "version": m.version, "state": a.state if keep else None, "keep": keep,
            "status": a.status, "result": a.result,
            "seat": m.seat, "action": m.action, "client_id": m.client_id, "events": m.events, "clock": a.clock,
            "control": list(a.control), "deadline": deadline(a), "human_acted": a.human_acted,
            "window_until": a.window, "window_cap": a.window_cap, "notify": list(m.notify)}


def write_params(moves: list[Move]) -> list[str]:
    return [_dumps([_row(m) for m in moves])]


def outcomes(moves: list[Move], rows) -> list[str]:
    """WRITTEN / DUPLICATE / STALE of each move, from write_sql's rows."""
    found = {match_id: written for match_id, written in rows}
    return [STALE if m.info.id not in found else WRITTEN if found[m.info.id] else DUPLICATE for m in moves]


def write(move: Move) -> str:
    """Write one move on the caller's connection (inside its transaction, if any)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(write_sql(), write_params([move]))
            return outcomes([move], cursor.fetchall())[0]
    return _write_sqlite(move)


def write_atomic(move: Move) -> str:
    """`write` in a transaction of its own."""
    with transaction.atomic():
        return write(move)


def _write_sqlite(move: Move) -> str:
    # SQLite has one writer at a time: inside the caller's transaction nothing
    # can come between the duplicate check and the write.
    if was_applied(move.info.id, move.client_id):
        return DUPLICATE
    now = timezone.now()
    a = move.applied
    due = deadline(a)
    fields = {"version": move.version + 1, "updated_at": now, "status": a.status,
              "clock": a.clock, "control": list(a.control), "window_until": a.window, "window_cap": a.window_cap,
              "deadline_at": None if due is None else datetime.fromtimestamp(due / 1000, tz=dt_timezone.utc)}
    if keeps_state(move):
        fields["state"], fields["state_version"] = a.state, move.version + 1
    if a.human_acted:
        fields["human_acted"] = True
    if a.status != "active":
        fields["finished_at"] = now
    if a.result is not None:
        fields["result"] = a.result
    if not Match.objects.filter(pk=move.info.id, version=move.version).update(**fields):
        return STALE
    ActionLog.objects.create(match_id=move.info.id, version=move.version + 1, seat=move.seat, action=move.action,
                             client_id=move.client_id, events=move.events)
    if move.notify:
        Outbox.objects.bulk_create([Outbox(kind=YOUR_MOVE, user_id=user, match_id=move.info.id,
                                           version=move.version + 1) for user in move.notify],
                                   ignore_conflicts=True)
    return WRITTEN


# ---- replays -----------------------------------------------------------------
def read_moves(match_id: int) -> list[tuple[int, int, dict, list]]:
    """The whole log: (version, seat, action, every event) in version order."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version, seat, action, events FROM {_LOG} WHERE match_id = %s ORDER BY version",
                       [match_id])
        return [(version, seat, _loads(action), _loads(events)) for version, seat, action, events in cursor.fetchall()]

