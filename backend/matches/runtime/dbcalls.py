"""Running the synchronous store and services functions off the event loop."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, connections


class DbCalls:
    """`await db(func, *args)` runs func in a database thread.

    SQLite has one writer anyway (and tests share its in-memory database
    through one thread): Channels' database_sync_to_async.  PostgreSQL gets
    threads of its own, each keeping its connection open for good; a
    connection that failed is closed, so the next call opens a fresh one."""

    def __init__(self):
        self.threads = 0
        self.executor = None
        if connections["default"].vendor != "sqlite":
            self.threads = settings.MATCH_DB_THREADS
            self.executor = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="match-db")

    async def __call__(self, func, *args):
        if self.executor is None:
            return await database_sync_to_async(func)(*args)
        return await asyncio.get_running_loop().run_in_executor(self.executor, _call, func, args)

    async def drain(self) -> None:
        """Wait until calls already handed to the database threads have returned."""
        if self.executor is None:
            await database_sync_to_async(_nothing)()  # queued behind them on the one thread
        else:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(self.executor, _nothing) for _ in range(self.threads)))

    def close(self) -> None:
        """Close every thread's connection, then the threads."""
        if self.executor is None:
            return
        barrier = threading.Barrier(self.threads)

        def close():
            try:  # hold every thread at once, so each closes its own connection
                barrier.wait(timeout=5)
            except threading.BrokenBarrierError:
                pass
            connections.close_all()

        for future in [self.executor.submit(close) for _ in range(self.threads)]:
            future.result()
        self.executor.shutdown(wait=True)
        self.executor = None


def _nothing() -> None:
    pass


def _call(func, args):
    try:
        return func(*args)
    except (OperationalError, InterfaceError):
        connection.close()
        raise
