"""Group commit on PostgreSQL: the moves of many matches in one statement.

Under load many actions arrive within one turn of the event loop.  The
writer sends everything queued as one statement (store.write_sql) over an
asyncio psycopg connection of its own; what arrives meanwhile goes into the
next statement.  A lone action costs one statement.  Where this sits in an
action's path: docs/life-of-an-action.md.
"""

from __future__ import annotations

import asyncio
import logging

import psycopg
from django.conf import settings

from .. import store
from ..domain import Move

log = logging.getLogger(__name__)

MAX_BATCH = 256
# Django's own connection options that are not libpq parameters.
_NOT_LIBPQ = {"isolation_level", "server_side_binding", "pool", "assume_role", "context", "cursor_factory",
              "prepare_threshold"}


# The write statement is prepared once per connection, and PostgreSQL keeps
# the plan it made then.  Planned while the tables were still small (a new
# database), that plan scans them whole on every move until autovacuum happens
# to analyze them; these settings give the same plan at any size: one index
# look-up per move.
PLAN = "-c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off"


def connect_kwargs() -> dict:
    """libpq parameters of the default database, from Django's settings, with
    the writer's planner settings."""
    db = settings.DATABASES["default"]
    kwargs = {k: v for k, v in (db.get("OPTIONS") or {}).items() if k not in _NOT_LIBPQ}
    for key, name in (("dbname", "NAME"), ("user", "USER"), ("password", "PASSWORD"), ("host", "HOST"),
                      ("port", "PORT")):
        if db.get(name):
            kwargs[key] = db[name]
    kwargs["options"] = f"{kwargs['options']} {PLAN}" if kwargs.get("options") else PLAN
    return kwargs


class GroupWriter:
    """Writes moves, many matches' in one statement, and answers each waiter
    with its move's outcome: nothing more (the hub delivers a written move
    once `write` returns)."""

    def __init__(self):
        self.queue: list[tuple[Move, asyncio.Future]] = []
        self.conn: psycopg.AsyncConnection | None = None
        self.task: asyncio.Task | None = None
        self.sql = store.write_sql()

    async def write(self, move: Move) -> str:
        """store.WRITTEN, DUPLICATE or STALE once the statement holding `move`
        has run; raises the database's error if the statement failed."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.queue.append((move, future))
        if self.task is None:
            self.task = loop.create_task(self._drain())
        return await future

    async def idle(self) -> None:
        """Wait until every move handed in so far has been written (or refused)."""
        while self.task is not None:
            await asyncio.shield(self.task)

    async def _drain(self) -> None:
        try:
            while self.queue:
                batch, later, seen = [], [], set()
                for item in self.queue:
                    match_id = item[0].info.id
                    # One move per match and statement: a second one at the same
                    # version can only be stale, which the next statement finds.
                    (later if match_id in seen or len(batch) >= MAX_BATCH else batch).append(item)
                    seen.add(match_id)
                self.queue = later
                moves = [move for move, _ in batch]
                try:
                    results = await self._execute(moves)
                except Exception as exc:
                    if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
                        await self.close()
                    results = [exc] * len(batch)
                for (_, future), result in zip(batch, results):
                    if future.done():  # its waiter was cancelled
                        continue
                    if isinstance(result, Exception):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self.task = None
            for _, future in self.queue:  # only left behind if this task was cancelled
                if not future.done():
                    future.set_exception(RuntimeError("match writer stopped"))
            self.queue = []

    async def _execute(self, moves: list[Move]) -> list[str]:
        if self.conn is None or self.conn.closed:
            self.conn = await psycopg.AsyncConnection.connect(autocommit=True, **connect_kwargs())
        async with self.conn.cursor() as cursor:
            await cursor.execute(self.sql, store.write_params(moves), prepare=True)
            return store.outcomes(moves, await cursor.fetchall())

    async def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                await conn.close()
            except Exception:
                log.debug("closing a match writer connection failed", exc_info=True)
