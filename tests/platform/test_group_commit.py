"""Group commit on PostgreSQL (backend/matches/runtime/writer.py): concurrent
moves of different matches share one statement, and each still commits, goes
stale or is recognised as a resend on its own terms."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.db import connection

from backend.asgi import application
from backend.matches import services, store, timing
from backend.matches.domain import check
from backend.matches.runtime import MatchHub
from backend.matches.runtime.writer import PLAN, GroupWriter, connect_kwargs

from .match_support import Player, create, db_match, log_rows, make_users

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("match_env"),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="group commit is the PostgreSQL path"),
]


async def _rooms(n: int) -> list:
    users = await make_users(3 * n, "gc")
    hub = MatchHub.current()
    return [await hub.room(await create("condottiere", users[3 * i:3 * i + 3], seed=10 + i)) for i in range(n)]


def _move(room, client_id: str, seat: int | None = None):
    snap = room.snapshot
    seat = snap.to_move[0] if seat is None else seat
    action = random.Random(client_id).choice(room.engine.legal_actions(snap.state, seat))
    return check(room.info, snap, seat, action, client_id, timing.now_ms())


class Counting(GroupWriter):
    """The real writer, counting the statements it sends."""

    def __init__(self):
        super().__init__()
        self.written = []
        self.statements: list[int] = []

    async def write(self, move):
        outcome = await super().write(move)
        if outcome == store.WRITTEN:
            self.written.append(move)
        return outcome

    async def _execute(self, moves):
        self.statements.append(len(moves))
        return await super()._execute(moves)


async def test_concurrent_moves_of_many_matches_commit_in_one_statement():
    rooms = await _rooms(6)
    writer = Counting()
    moves = [_move(r, f"c-{r.id}") for r in rooms]
    assert await asyncio.gather(*(writer.write(m) for m in moves)) == [store.WRITTEN] * 6
    assert writer.statements == [6] and writer.written == moves
    for room, move in zip(rooms, moves):
        assert (await db_match(room.id)).version == 1
        rows = await log_rows(room.id)
        assert [(r["version"], r["seat"], r["client_id"], r["action"]) for r in rows] == [
            (1, move.seat, move.client_id, move.action)]
    await writer.close()


async def test_a_timed_move_and_a_move_opening_a_window_share_one_statement(settings):
    """Epoch-ms columns go to PostgreSQL as one bigint array: a float among the ints (a window
    of MATCH_DEFAULT_WINDOW_S = 0.3 s once gave one) failed every such statement, and every
    timed match's move then fell back to a statement of its own."""
    settings.MATCH_DEFAULT_WINDOW_S = 0.3
    users = await make_users(6, "gct")
    hub = MatchHub.current()
    timed = await database_sync_to_async(services.create_match)(
        "condottiere", {}, users[:3], 21, True, time_control={"kind": "realtime", "bank_s": 600, "increment_s": 10})
    await hub.wake(timed.pk)
    rooms = [await hub.room(timed.pk), (await _rooms(1))[0]]
    timed_move = _move(rooms[0], f"w-{rooms[0].id}")
    # The other match at Condottiere's keep-or-discard question (p. 8), where silence answers: seat 0's
    # answer leaves seat 2's open, so the move opens the platform's window.
    snap = rooms[1].snapshot
    asked = dataclasses.replace(snap, state=dict(snap.state, phase="discard_hand", queue=[0, 2]))
    windowed = check(rooms[1].info, asked, 0, {"type": "keep_hand"}, f"w-{rooms[1].id}", timing.now_ms())
    assert isinstance(store.deadline(timed_move.applied), int) and isinstance(windowed.applied.window, int)
    writer = Counting()
    assert await asyncio.gather(*(writer.write(m) for m in (timed_move, windowed))) == [store.WRITTEN] * 2
    assert writer.statements == [2]
    await writer.close()


async def test_a_stale_move_fails_alone_and_a_second_move_of_a_match_waits_its_turn():
    rooms = await _rooms(3)
    writer = Counting()
    first, rival = _move(rooms[0], "first"), _move(rooms[0], "rival")  # same match, same version
    other = _move(rooms[1], "other")
    # Another process moves match 3 on behind this runtime's back.
    behind = _move(rooms[2], "behind")
    await database_sync_to_async(services.apply_action)(rooms[2].id, behind.seat, 0, behind.action, "elsewhere")
    results = await asyncio.gather(writer.write(first), writer.write(rival), writer.write(other),
                                   writer.write(behind))
    assert results == [store.WRITTEN, store.STALE, store.WRITTEN, store.STALE]
    assert writer.statements == [3, 1]  # the rival went into the next statement, and lost there
    assert [r["client_id"] for r in await log_rows(rooms[0].id)] == ["first"]
    assert [r["client_id"] for r in await log_rows(rooms[2].id)] == ["elsewhere"]
    await writer.close()


async def test_a_reused_id_inside_a_batch_never_fails_the_other_matches_moves():
    """A client id already in a match's log (a confused or hostile client
    reusing it at the new version) answers DUPLICATE inside the statement; the
    other matches' moves in that statement are written."""
    rooms = await _rooms(4)
    writer = Counting()
    assert await writer.write(_move(rooms[0], "once")) == store.WRITTEN
    rooms[0].advance(writer.written[0].applied, {})
    reused = _move(rooms[0], "once")  # version 1, an id of version 1
    others = [_move(r, f"fine-{r.id}") for r in rooms[1:]]
    results = await asyncio.gather(writer.write(reused), *(writer.write(m) for m in others))
    assert results == [store.DUPLICATE] + [store.WRITTEN] * 3
    assert writer.statements == [1, 4]  # one statement for all four
    assert [r["client_id"] for r in await log_rows(rooms[0].id)] == ["once"]
    for room in rooms[1:]:
        assert [r["client_id"] for r in await log_rows(room.id)] == [f"fine-{room.id}"]
    await writer.close()


async def test_a_reused_id_through_the_hub_is_answered_as_a_resend():
    rooms = await _rooms(2)
    hub = MatchHub.current()
    first = _move(rooms[0], "once")
    assert not (await hub.act(rooms[0], first.seat, 0, first.action, "once")).duplicate
    again, good = _move(rooms[0], "once"), _move(rooms[1], "fine")
    results = await asyncio.gather(hub.act(rooms[0], again.seat, 1, again.action, "once"),
                                   hub.act(rooms[1], good.seat, 0, good.action, "fine"))
    assert results[0].duplicate and results[0].snapshot.version == 1
    assert not results[1].duplicate and results[1].snapshot.version == 1
    assert [r["client_id"] for r in await log_rows(rooms[0].id)] == ["once"]


async def test_the_writer_reconnects_after_losing_its_connection():
    rooms = await _rooms(1)
    hub, room = MatchHub.current(), rooms[0]
    move = _move(room, "before")
    assert not (await hub.act(room, move.seat, 0, move.action, "before")).duplicate
    pid = hub.writer.conn.info.backend_pid
    await database_sync_to_async(_terminate)(pid)
    # The statement on the dead connection fails; the hub writes the move on its own.
    move = _move(room, "after")
    applied = await hub.act(room, move.seat, 1, move.action, "after")
    assert not applied.duplicate and applied.snapshot.version == 2 and room.snapshot.version == 2
    move = _move(room, "again")
    assert not (await hub.act(room, move.seat, 2, move.action, "again")).duplicate  # the writer works again
    assert hub.writer.conn.info.backend_pid != pid
    assert [r["client_id"] for r in await log_rows(room.id)] == ["before", "after", "again"]


async def test_a_move_whose_caller_is_cancelled_while_it_commits_is_delivered(settings):
    """The hub delivers a move once its commit returns, as a step of the action's own path: a caller
    cancelled meanwhile (its socket gone, the server stopping) must not take that step with it."""
    settings.MATCH_RECONCILE_S = 3600  # delivered by the move's own path, not caught up from the database
    users = await make_users(3, "gcx")
    match_id = await create("condottiere", users, seed=2)
    spectator = Player(application, match_id)
    await spectator.connect()
    hub = MatchHub.current()
    room = await hub.room(match_id)
    committed, go = asyncio.Event(), asyncio.Event()
    real = hub.writer._execute

    async def committed_then_held(moves):  # the statement has committed; its waiters have not heard yet
        results = await real(moves)
        committed.set()
        await go.wait()
        return results

    hub.writer._execute = committed_then_held
    move = _move(room, "gone")
    acting = asyncio.ensure_future(hub.act(room, move.seat, 0, move.action, "gone"))
    await committed.wait()
    acting.cancel()
    go.set()
    with pytest.raises(asyncio.CancelledError):
        await acting
    assert (await spectator.until_version(1))["version"] == 1
    assert room.snapshot.version == 1
    await spectator.close()


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


def _generic_plan(**kwargs) -> str:
    """The plan PostgreSQL keeps for the prepared write statement (a generic
    one, as after a few executions), on this test's nearly empty tables."""
    with psycopg.connect(autocommit=True, **kwargs) as conn:
        conn.execute("SET plan_cache_mode = force_generic_plan")
        conn.execute(f"PREPARE w(text) AS {store.write_sql().replace('%s', '$1')}")
        return "\n".join(row[0] for row in conn.execute("EXPLAIN EXECUTE w('[]')"))


def test_the_write_statement_looks_up_each_move_by_index_even_on_a_new_database():
    plan = _generic_plan(**connect_kwargs())
    assert "Seq Scan" not in plan and "Hash Join" not in plan and "Merge Join" not in plan
    assert "Index Scan using matches_match_pkey on matches_match" in plan
    assert "Index Only Scan using matches_log_client_id_unique on matches_actionlog" in plan
    # Without the writer's settings, the same plan reads the small tables whole.
    plain = connect_kwargs()
    plain["options"] = plain["options"].replace(PLAN, "").strip()
    if not plain["options"]:
        del plain["options"]
    assert "Seq Scan on matches_actionlog" in _generic_plan(**plain)
