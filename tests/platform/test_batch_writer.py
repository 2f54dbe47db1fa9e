"""Group commit on PostgreSQL (backend/matches/batch_writer.py): concurrent
actions of different matches share one statement, and each still commits,
goes stale or fails on its own terms."""

from __future__ import annotations

import asyncio
import random

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from backend.matches import batch_writer, live, services
from backend.matches.cache import CACHE

from .match_support import match_env  # noqa: F401  (fixture)
from .match_support import create, db_match, log_rows, make_users

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="group commit is the PostgreSQL path"),
]


@pytest.fixture(autouse=True)
def _env(match_env):
    return match_env


async def _matches(n: int) -> list[int]:
    users = await make_users(3 * n, "bw")
    return [await create("condottiere", users[3 * i:3 * i + 3], seed=10 + i) for i in range(n)]


def _move(match_id: int, client_id: str, seat: int | None = None) -> services.Move:
    info, snap = CACHE.info(match_id), CACHE.snapshot(match_id)
    seat = snap.to_move[0] if seat is None else seat
    action = random.Random(client_id).choice(info.engine.legal_actions(snap.state, seat))
    return services.check_move(info, snap, seat, action, client_id)


class Counting(batch_writer.BatchWriter):
    """The real writer, counting the statements it sends."""

    def __init__(self):
        super().__init__()
        self.statements: list[int] = []

    async def _execute(self, moves):
        self.statements.append(len(moves))
        return await super()._execute(moves)


async def test_concurrent_moves_of_many_matches_commit_in_one_statement():
    ids = await _matches(6)
    writer = Counting()
    moves = [_move(i, f"c-{i}") for i in ids]
    assert await asyncio.gather(*(writer.write(m) for m in moves)) == [True] * 6
    assert writer.statements == [6]
    for match_id, move in zip(ids, moves):
        assert (await db_match(match_id)).version == 1
        rows = await log_rows(match_id)
        assert [(r["version"], r["seat"], r["client_id"], r["action"]) for r in rows] == [
            (1, move.seat, move.client_id, move.action)]
        assert CACHE.snapshot(match_id).version == 1  # committed moves are cached by the writer
    batch_writer.close_all()


async def test_a_stale_move_fails_alone_and_a_second_move_of_a_match_waits_its_turn():
    ids = await _matches(3)
    writer = Counting()
    first, rival = _move(ids[0], "first"), _move(ids[0], "rival")  # same match, same version
    other = _move(ids[1], "other")
    # Another process moves match 3 on behind this cache's back.
    behind = _move(ids[2], "behind")
    await database_sync_to_async(services.apply_action)(ids[2], behind.seat, 0, behind.action, "elsewhere",
                                                        lambda *a: None)
    results = await asyncio.gather(writer.write(first), writer.write(rival), writer.write(other),
                                   writer.write(behind))
    assert results == [True, False, True, False]
    assert writer.statements == [3, 1]  # the rival went into the next statement, and lost there
    assert [r["client_id"] for r in await log_rows(ids[0])] == ["first"]
    assert [r["client_id"] for r in await log_rows(ids[2])] == ["elsewhere"]
    batch_writer.close_all()


async def test_a_resent_id_in_a_batch_is_sorted_out_one_by_one_through_live_apply():
    ids = await _matches(2)
    move = _move(ids[0], "once")
    assert await batch_writer.for_this_loop().write(move)
    # The same id again at the new version (a confused client) collides with
    # the log's unique (match, client id) inside a batch with a good move.
    again = _move(ids[0], "once")
    good = _move(ids[1], "fine")
    results = await asyncio.gather(
        live.apply(ids[0], again.seat, 1, again.action, "once"),
        live.apply(ids[1], good.seat, 0, good.action, "fine"),
    )
    assert results[0].duplicate and results[0].snapshot.version == 1
    assert not results[1].duplicate and results[1].snapshot.version == 1
    assert [r["client_id"] for r in await log_rows(ids[0])] == ["once"]
    assert [r["client_id"] for r in await log_rows(ids[1])] == ["fine"]
    batch_writer.close_all()


async def test_the_writer_reconnects_after_losing_its_connection():
    ids = await _matches(1)
    writer = batch_writer.for_this_loop()
    assert await writer.write(_move(ids[0], "before"))
    pid = writer.conn.info.backend_pid
    await database_sync_to_async(_terminate)(pid)
    snap = CACHE.snapshot(ids[0])
    seat = snap.to_move[0]
    action = CACHE.info(ids[0]).engine.legal_actions(snap.state, seat)[0]
    # The write on the dead connection fails; live.apply retries it one by one.
    applied = await live.apply(ids[0], seat, 1, action, "after")
    assert not applied.duplicate and applied.snapshot.version == 2
    assert writer.conn is None or writer.conn.info.backend_pid != pid
    assert await writer.write(_move(ids[0], "again"))  # and the writer works again
    assert [r["client_id"] for r in await log_rows(ids[0])] == ["before", "after", "again"]
    batch_writer.close_all()


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
