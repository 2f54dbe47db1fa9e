"""Group commit on PostgreSQL: the actions of many matches in one statement.

Under load many actions arrive within one turn of the event loop.  Written
one by one, each cost a hop to a database thread and back, a round trip and a
commit (a WAL flush) of its own, and the worker threads contended with the
event loop for the GIL: under bench/ws_load.py (saturated, 50 matches) an
action spent ~10 ms waiting in or for those threads on a half-idle machine.

Here the event loop queues checked moves (services.check_move) and one
writer per process sends everything queued as one statement
(services.write_statement) over an asyncio psycopg connection; what arrives
meanwhile goes into the next statement.  A lone action costs one statement,
as before.  The writer, not the waiting consumer, records each committed
move (cache and announcement), so a client that disconnects mid-write never
leaves a committed version unannounced.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

import psycopg
from django.db import connections

from . import services

log = logging.getLogger(__name__)

MAX_BATCH = 256
_writers: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, BatchWriter]" = weakref.WeakKeyDictionary()
_connections: "weakref.WeakSet[psycopg.AsyncConnection]" = weakref.WeakSet()
# Django's own connection options that are not libpq parameters.
_NOT_LIBPQ = {"isolation_level", "server_side_binding", "pool", "assume_role", "context", "cursor_factory",
              "prepare_threshold"}


def for_this_loop() -> "BatchWriter | None":
    """The running loop's writer, or None when the database is not PostgreSQL."""
    if connections["default"].vendor != "postgresql":
        return None
    loop = asyncio.get_running_loop()
    writer = _writers.get(loop)
    if writer is None:
        writer = _writers[loop] = BatchWriter()
    return writer


def close_all() -> None:
    """Close every writer connection (tests, before the test database is dropped)."""
    for conn in list(_connections):
        conn.pgconn.finish()


def _connect_kwargs() -> dict:
    settings = connections["default"].settings_dict
    kwargs = {k: v for k, v in (settings.get("OPTIONS") or {}).items() if k not in _NOT_LIBPQ}
    for key, name in (("dbname", "NAME"), ("user", "USER"), ("password", "PASSWORD"), ("host", "HOST"),
                      ("port", "PORT")):
        if settings.get(name):
            kwargs[key] = settings[name]
    return kwargs


class BatchWriter:
    def __init__(self):
        self.queue: list[tuple[services.Move, asyncio.Future]] = []
        self.conn: psycopg.AsyncConnection | None = None
        self.task: asyncio.Task | None = None

    async def write(self, move: services.Move) -> bool:
        """True once `move` is committed (and cached and announced); False if
        its match had moved on.  Raises the database's error if the statement
        failed (a duplicate client id fails the whole batch): the caller then
        retries on its own, where the error is sorted out."""
        future = asyncio.get_running_loop().create_future()
        self.queue.append((move, future))
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._drain())
        return await future

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
                try:
                    written = await self._execute([move for move, _ in batch])
                except Exception as exc:
                    if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
                        await self._discard()
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for move, future in batch:
                    ok = move.info.id in written
                    if ok:
                        try:
                            services.committed(move)
                        except Exception:
                            log.exception("announcing version %s of match %s failed", move.applied.version, move.info.id)
                    if not future.done():
                        future.set_result(ok)
        finally:
            self.task = None
            for _, future in self.queue:  # only left behind if this task was cancelled
                if not future.done():
                    future.set_exception(RuntimeError("match writer stopped"))
            self.queue = []

    async def _execute(self, moves: list[services.Move]) -> set[int]:
        if self.conn is None or self.conn.closed:
            self.conn = await psycopg.AsyncConnection.connect(autocommit=True, **_connect_kwargs())
            _connections.add(self.conn)
        sql, params = services.write_statement(moves)
        async with self.conn.cursor() as cursor:
            await cursor.execute(sql, params, prepare=True)
            return {row[0] for row in await cursor.fetchall()}

    async def _discard(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                await conn.close()
            except Exception:
                log.debug("closing a broken match writer connection failed", exc_info=True)
