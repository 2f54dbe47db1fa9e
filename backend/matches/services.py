"""The only code that creates matches and applies actions to them.

An action goes through three steps, each defined once here:
`check_move` (the rules, against the snapshot at the client's version),
`write_statement` (on PostgreSQL one statement: a conditional UPDATE that is
both the row lock and the version check, plus the log INSERT) and, after the
commit, `committed` (cache the new version; the match's channel group hears
"version N" and nothing else).  `apply_action` runs them for one action,
reading the snapshot first if this process has no fresh copy; the live
server's group commit (batch_writer.py) runs the same steps for every action
queued at once, and hands the cases it cannot settle (stale versions, resent
ids, database errors) to `apply_action`.
"""

from __future__ import annotations

import json
import logging
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Callable

try:
    import psycopg
except ImportError:  # SQLite-only installs
    psycopg = None
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from backend.engines import IllegalAction, get_engine

from . import jsoncodec
from .cache import CACHE, MatchInfo, SeatInfo, Snapshot
from .errors import MatchError
from .models import ActionLog, Match, MatchSeat

log = logging.getLogger(__name__)

MAX_CLIENT_ID = 64


def valid_client_id(value) -> bool:
    """1-64 characters a database text column can hold (no NUL, no lone surrogate)."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CLIENT_ID or "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


_dumps = jsoncodec.dumps


def _loads(value):
    # psycopg hands Django's jsonb columns over as text; SQLite stores text.
    return json.loads(value) if isinstance(value, (str, bytes)) else value


# ---- creation --------------------------------------------------------------
def create_match(game_id: str, options: dict, players: list, seed: int, public: bool = True) -> Match:
    """Start a match; `players` in final seat order, each a User or a bot name.

    Raises KeyError for an unknown game and ValueError for bad options, player
    counts or bot names.  Bots to move first start playing after commit.
    """
    engine = get_engine(game_id)
    options = engine.validate_options(options)
    state = engine.setup(len(players), options, seed)
    User = get_user_model()
    for player in players:
        if isinstance(player, str):
            if player not in engine.bots:
                raise ValueError(f"Unknown bot {player!r}; {engine.name} has {', '.join(engine.bots) or 'none'}.")
        elif not isinstance(player, User):
            raise ValueError("Each player must be a user or a bot name.")
    with transaction.atomic():
        match = Match.objects.create(game=game_id, options=options, seed=seed, state=state, public=public)
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, seat=i, user=None if isinstance(p, str) else p, bot=p if isinstance(p, str) else "")
            for i, p in enumerate(players)
        )
        info = _info_from(match, players)
        snapshot = Snapshot(0, state, tuple(engine.to_move(state)), match.status)
        transaction.on_commit(lambda: _remember_and_announce(info, snapshot, {}))
    return match


def _info_from(match: Match, players: list) -> MatchInfo:
    seats = tuple(
        SeatInfo(None, "", p) if isinstance(p, str) else SeatInfo(p.pk, p.get_username(), "") for p in players
    )
    return MatchInfo(match.pk, match.game, match.options, match.seed, match.public, seats)


# ---- reading ---------------------------------------------------------------
def load_info(match_id: int) -> MatchInfo | None:
    """The match's fixed facts (cached per process)."""
    info = CACHE.info(match_id)
    if info is not None:
        return info
    match = Match.objects.filter(pk=match_id).only("id", "game", "options", "seed", "public").first()
    if match is None:
        return None
    seats = tuple(
        SeatInfo(s.user_id, s.user.get_username() if s.user_id else "", s.bot)
        for s in MatchSeat.objects.filter(match_id=match_id).select_related("user").order_by("seat")
    )
    info = MatchInfo(match.pk, match.game, match.options, match.seed, match.public, seats)
    CACHE.put_info(info)
    return info


def load_snapshot(match_id: int, info: MatchInfo | None = None, with_events: bool = False) -> Snapshot | None:
    """Read the latest version from the database into the cache; consumers
    also want the events of the versions this process has not seen."""
    info = info or load_info(match_id)
    if info is None:
        return None
    cached = CACHE.snapshot(match_id)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version, state, status FROM {Match._meta.db_table} WHERE id = %s", [match_id])
        row = cursor.fetchone()
        if row is None:
            return None
        version, state, status = row[0], _loads(row[1]), row[2]
        events = {}
        if with_events and version > (cached.version if cached else 0):
            events = load_events(match_id, cached.version if cached else max(0, version - 64), version, cursor)
    snapshot = Snapshot(version, state, tuple(info.engine.to_move(state)), status)
    return CACHE.put_snapshot(match_id, snapshot, events)


def load_events(match_id: int, after: int, upto: int, cursor=None) -> dict[int, list]:
    """Every event (hidden ones too) of versions after+1..upto, by version; fills the cache."""
    sql = f"SELECT version, events FROM {ActionLog._meta.db_table} WHERE match_id = %s AND version > %s AND version <= %s"
    if cursor is None:
        with connection.cursor() as cursor:
            cursor.execute(sql, [match_id, after, upto])
            rows = cursor.fetchall()
    else:
        cursor.execute(sql, [match_id, after, upto])
        rows = cursor.fetchall()
    return {version: _loads(events) for version, events in rows}


# ---- applying --------------------------------------------------------------
@dataclass(frozen=True)
class Applied:
    snapshot: Snapshot  # the match after the action (or the current one for a duplicate)
    events: list  # this action's events, all of them; [] for a duplicate
    duplicate: bool  # the client id had already been applied: nothing changed


AfterCommit = Callable[[MatchInfo, Snapshot, dict], None]


def apply_action(
    match_id: int,
    seat: int | None,
    version: int,
    action: dict,
    client_id: str,
    after_commit: AfterCommit | None = None,
) -> Applied:
    """Apply `action` for `seat` if the match is still at `version`.

    Raises MatchError (forbidden, stale_version, not_your_turn, illegal_action,
    bad_message, not_found).  A client id already in the log returns
    `duplicate=True` and changes nothing.
    """
    if not valid_client_id(client_id):
        raise MatchError("bad_message", f"The action id must be a string of 1 to {MAX_CLIENT_ID} characters.")
    info = load_info(match_id)
    if info is None:
        raise MatchError("not_found", "There is no such match.")
    if seat is None or not 0 <= seat < len(info.seats):
        raise MatchError("forbidden", "Spectators cannot act.")
    snapshot = CACHE.snapshot(match_id)
    if snapshot is None or snapshot.version < version:
        # A process that follows this match (it has a snapshot, hence viewers)
        # also fetches the events it missed, once, rather than each viewer.
        snapshot = load_snapshot(match_id, info, with_events=snapshot is not None)
    if snapshot.version != version:
        return _stale(match_id, client_id, info)
    move = check_move(info, snapshot, seat, action, client_id)

    postgres = connection.vendor == "postgresql"
    # The conditional UPDATE locks the row and checks the version at once: a
    # concurrent writer at the same version waits for the lock, then matches
    # no row.  On PostgreSQL the UPDATE and the log INSERT are one statement
    # (a data-modifying CTE), atomic by itself: one round trip, no BEGIN or
    # COMMIT of its own unless the caller already holds a transaction.
    single = postgres and not connection.in_atomic_block
    try:
        with nullcontext() if single else transaction.atomic():
            with _write_cursor(postgres) as cursor:
                if postgres:
                    cursor.execute(*write_statement([move]))
                    stale = cursor.rowcount != 1
                else:
                    stale = not _write_sqlite(cursor, move)
            if not stale:
                # Runs at once after a statement that committed by itself.
                transaction.on_commit(lambda: committed(move, after_commit))
    except IntegrityError:
        # The client id is already in the log (the version was free): a resend.
        return _stale(match_id, client_id, info)
    if stale:
        load_snapshot(match_id, info, with_events=True)  # this process's copy was behind; refresh it
        return _stale(match_id, client_id, info)
    return Applied(move.applied, move.events, False)


@dataclass(frozen=True)
class Move:
    """An action checked against the match at `version`, ready to be written."""

    info: MatchInfo
    version: int
    seat: int
    action: dict
    client_id: str
    applied: Snapshot  # the match at version + 1
    events: list
    result: dict | None  # set when the action ends the match


def check_move(info: MatchInfo, snapshot: Snapshot, seat: int, action: dict, client_id: str) -> Move:
    """The rules' verdict on `action` at `snapshot`; raises MatchError (not_your_turn, illegal_action)."""
    engine = info.engine
    if snapshot.status != Match.Status.ACTIVE:
        raise MatchError("illegal_action", "The game is over.")
    if seat not in snapshot.to_move:
        raise MatchError("not_your_turn", "It is not your turn.")
    try:
        state, events = engine.step(snapshot.state, seat, action)
    except IllegalAction as exc:
        raise MatchError("illegal_action", str(exc)) from None
    over = engine.is_over(state)
    applied = Snapshot(snapshot.version + 1, state, tuple(engine.to_move(state)),
                       Match.Status.FINISHED if over else Match.Status.ACTIVE)
    return Move(info, snapshot.version, seat, action, client_id, applied, events,
                engine.result(state) if over else None)


def write_statement(moves: list[Move]) -> tuple[str, list]:
    """PostgreSQL: one statement that writes every move whose match is still at
    its version (the UPDATE's WHERE is both the lock and the version check)
    and logs it; it returns one row per written move.  Each match may appear
    once.  The live server batches concurrent actions of different matches
    into one such statement: one round trip and one commit for all of them."""
    columns = list(zip(*(
        (m.info.id, m.version, _dumps(m.applied.state), str(m.applied.status),
         None if m.result is None else _dumps(m.result), m.seat, _dumps(m.action), m.client_id, _dumps(m.events))
        for m in moves
    )))
    return _WRITE_SQL, [list(c) for c in columns]


_WRITE_SQL = (
    # %b: binary parameters.  psycopg's text format escapes every quote of
    # every JSON document inside an array literal: ~3 ms for five states,
    # against ~10 µs in binary (measured).
    "WITH input AS (SELECT * FROM unnest(%b::bigint[], %b::int[], %b::text[], %b::text[], %b::text[],"
    " %b::smallint[], %b::text[], %b::text[], %b::text[])"
    " AS t(id, version, state, status, result, seat, action, client_id, events)),"
    f" moved AS (UPDATE {Match._meta.db_table} m SET version = i.version + 1, state = i.state::jsonb,"
    " updated_at = now(), status = i.status,"
    " finished_at = CASE WHEN i.result IS NULL THEN m.finished_at ELSE now() END,"
    " result = CASE WHEN i.result IS NULL THEN m.result ELSE i.result::jsonb END"
    f" FROM input i WHERE m.id = i.id AND m.version = i.version RETURNING m.id)"
    f" INSERT INTO {ActionLog._meta.db_table} (match_id, version, seat, action, client_id, events, created_at)"
    " SELECT i.id, i.version + 1, i.seat, i.action::jsonb, i.client_id, i.events::jsonb, now()"
    " FROM input i JOIN moved ON moved.id = i.id RETURNING match_id"
)


def _write_sqlite(cursor, move: Move) -> bool:
    """The same write as write_statement, in two statements (inside the caller's transaction)."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    set_sql, set_params = "version = %s, state = %s, updated_at = %s", [move.version + 1, _dumps(move.applied.state), now]
    if move.result is not None:
        set_sql += ", status = %s, finished_at = %s, result = %s"
        set_params += [move.applied.status, now, _dumps(move.result)]
    cursor.execute(f"UPDATE {Match._meta.db_table} SET {set_sql} WHERE id = %s AND version = %s",
                   set_params + [move.info.id, move.version])
    if cursor.rowcount != 1:
        return False
    cursor.execute(f"INSERT INTO {ActionLog._meta.db_table} (match_id, version, seat, action, client_id, events,"
                   f" created_at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                   [move.info.id, move.version + 1, move.seat, _dumps(move.action), move.client_id,
                    _dumps(move.events), now])
    return True


def _write_cursor(postgres: bool):
    """Django's cursor, but on PostgreSQL with server-side binding: the state
    (kilobytes of JSON) goes as a parameter instead of being quoted into the
    SQL text in Python, and psycopg prepares the statement after its fifth use
    on a connection, so PostgreSQL stops parsing and planning it per action.
    Measured with bench/ws_load.py (see the commit message)."""
    if not postgres:
        return connection.cursor()
    connection.ensure_connection()
    return connection._prepare_cursor(psycopg.Cursor(connection.connection))


def _stale(match_id: int, client_id: str, info: MatchInfo) -> Applied:
    """The version moved on: either this very action was applied before, or it is stale."""
    with connection.cursor() as cursor:  # raw: the ORM's exists() cost more than the query
        cursor.execute(f"SELECT 1 FROM {ActionLog._meta.db_table} WHERE match_id = %s AND client_id = %s LIMIT 1",
                       [match_id, client_id])
        applied_before = cursor.fetchone() is not None
    if applied_before:
        return Applied(load_snapshot(match_id, info), [], True)
    raise MatchError("stale_version", "The match has moved on; resync and try again.")


def committed(move: Move, after_commit: AfterCommit | None = None) -> None:
    """After `move` committed: cache the new version and announce it."""
    _remember_and_announce(move.info, move.applied, {move.applied.version: move.events}, after_commit)


def _remember_and_announce(info: MatchInfo, snapshot: Snapshot, events: dict, after_commit: AfterCommit | None = None):
    CACHE.put_info(info)
    CACHE.put_snapshot(info.id, snapshot, events)
    if after_commit is None:
        from .live import announce_threadsafe as after_commit
    after_commit(info, snapshot, events)
