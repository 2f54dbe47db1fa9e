"""The asynchronous side of matches in one server process: applying off the
event loop, announcing versions on the channel layer, and playing bot seats.

Only "version N" travels through the channel layer; each consumer reads the
snapshot from this process's cache (one shared query on a miss) and computes
its own viewer's view.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import random
import threading
import time
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync, async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections, connection, connections

from backend.engines import IllegalAction

from . import batch_writer, presence, services
from .cache import CACHE, MatchInfo, Snapshot
from .errors import MatchError

log = logging.getLogger(__name__)

_background: set[asyncio.Task] = set()  # strong references so tasks are not collected mid-flight
_bot_turns: set[tuple[int, int]] = set()  # (match id, version) with a bot move pending here
_loading: dict[int, asyncio.Task] = {}
# Consumers of each match connected to this process.  A version committed
# here reaches them directly; versions committed by other processes (and
# presence notices) arrive through the match's channel group, which this
# process joins once per match with one relay channel instead of once per
# consumer: one channel-layer message per process and action, not per viewer.
_local: dict[int, set] = {}
_relays: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # channel layer -> _Relay


class _Relay:
    def __init__(self, layer, channel: str):
        self.layer, self.channel = layer, channel
        self.loop = asyncio.get_running_loop()
        self.members: set[int] = set()  # match groups joined
        self.locks: dict[int, asyncio.Lock] = {}

    async def run(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
                for consumer in tuple(_local.get(message.get("match"), ())):
                    consumer.relay(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("match relay failed on a message")

    async def heartbeat(self) -> None:
        """Once an interval: one "presence.alive" per match watched here, then
        every local consumer drops the peers it has not heard of for too long."""
        while True:
            period = presence.interval()
            await asyncio.sleep(period)
            watched = [(m, [c for c in _local.get(m, ()) if c.channel_layer is self.layer])
                       for m in tuple(self.members)]
            for match_id, consumers in watched:
                try:
                    if consumers:
                        await self.layer.group_send(services.group_name(match_id),
                                                    presence.alive_message(match_id, consumers))
                except Exception:  # the other matches still get theirs
                    log.exception("presence heartbeat of match %s failed", match_id)
            now, ttl = time.monotonic(), presence.EXPIRY_INTERVALS * period
            for _, consumers in watched:
                for consumer in consumers:
                    try:
                        consumer.expire_peers(now, ttl)
                    except Exception:  # the heartbeat must outlive one consumer's failure
                        log.exception("presence expiry failed")


async def _relay(layer) -> _Relay:
    relay = _relays.get(layer)
    if relay is None or relay.loop is not asyncio.get_running_loop():
        relay = _relays[layer] = _Relay(layer, await layer.new_channel("match-relay."))
        _spawn(relay.run())
        _spawn(relay.heartbeat())
    return relay


async def join(match_id: int, consumer) -> None:
    """Deliver this match's versions and presence to `consumer` from now on."""
    relay = await _relay(consumer.channel_layer)
    async with relay.locks.setdefault(match_id, asyncio.Lock()):
        _local.setdefault(match_id, set()).add(consumer)
        if match_id not in relay.members:
            await relay.layer.group_add(services.group_name(match_id), relay.channel)
            relay.members.add(match_id)


def viewers(match_id: int) -> tuple:
    """The consumers of this match connected to this process."""
    return tuple(_local.get(match_id, ()))


async def leave(match_id: int, consumer) -> None:
    relay = await _relay(consumer.channel_layer)
    async with relay.locks.setdefault(match_id, asyncio.Lock()):
        consumers = _local.get(match_id, set())
        consumers.discard(consumer)
        if not consumers:
            _local.pop(match_id, None)
            if match_id in relay.members:
                relay.members.discard(match_id)
                await relay.layer.group_discard(services.group_name(match_id), relay.channel)


# Threads that run match database work, each with its own connection.
_EXECUTOR = ThreadPoolExecutor(max_workers=int(os.environ.get("MATCH_DB_THREADS", "8")),
                               thread_name_prefix="match-db")


_thread = threading.local()  # .loop: the event loop a match-db thread is working for


def _db(func):
    # SQLite has one writer anyway and its in-memory test database is shared
    # through one thread; PostgreSQL gets a pool of threads, one connection each.
    if connection.vendor == "sqlite":
        return database_sync_to_async(func)

    # A plain executor hop: asgiref's SyncToAsync (context copying, thread
    # sensitivity bookkeeping, closing old connections before and after) cost
    # several percent of the event loop's time per action; the threads here
    # need none of it but the connection check, done once before each call.
    async def call(*args):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_EXECUTOR, _in_thread, loop, func, args)

    return call


def _in_thread(loop, func, args):
    _thread.loop = loop
    close_old_connections()
    return func(*args)


def close_db_connections() -> None:
    """Close the database connection of every match-db thread (tests, shutdown)."""
    size = _EXECUTOR._max_workers
    barrier = threading.Barrier(size)

    def close():
        try:  # hold every thread at once, so each closes its own connection
            barrier.wait(timeout=5)
        except threading.BrokenBarrierError:
            pass
        connections.close_all()

    for future in [_EXECUTOR.submit(close) for _ in range(size)]:
        future.result()
    batch_writer.close_all()


def _spawn(coro) -> asyncio.Task:
    # A fresh context: a task born inside a sync_to_async call must not inherit
    # asgiref's "this thread is busy" marker (it would refuse its own DB calls).
    task = asyncio.get_running_loop().create_task(coro, context=contextvars.Context())
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


def _main_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    loop = getattr(_thread, "loop", None)  # a match-db thread
    if loop is not None and loop.is_running():
        return loop
    # A sync thread started by sync_to_async knows its server's event loop.
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if loop is not None and loop.is_running():
            return loop
    return None


# ---- announcing ------------------------------------------------------------
def announce_threadsafe(info: MatchInfo, snapshot: Snapshot, events: dict) -> None:
    """After commit, from any thread: tell the group and let due bots play."""
    loop = _main_loop()
    if loop is None:
        # Plain sync code with no server loop (a shell, a management command):
        # announce synchronously; bots resume when someone connects.
        async_to_sync(_publish)(info.id, snapshot.version)
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        _announce(info, snapshot)
    else:
        loop.call_soon_threadsafe(_announce, info, snapshot, context=contextvars.Context())


def _announce(info: MatchInfo, snapshot: Snapshot) -> None:
    for consumer in tuple(_local.get(info.id, ())):
        try:
            consumer.version_committed(snapshot.version)
        except Exception:  # one viewer's failure must not cost the others their update
            log.exception("pushing version %s of match %s failed", snapshot.version, info.id)
    _spawn(_publish(info.id, snapshot.version))
    schedule_bots(info, snapshot)


async def _publish(match_id: int, version: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(services.group_name(match_id),
                               {"type": "match.version", "match": match_id, "version": version})


# ---- applying and reading from async code -----------------------------------
async def apply(match_id: int, seat: int | None, version: int, action: dict, client_id: str) -> services.Applied:
    writer = batch_writer.for_this_loop()
    move = _check_cached(match_id, seat, version, action, client_id) if writer is not None else None
    if move is None:
        return await _db(services.apply_action)(match_id, seat, version, action, client_id)
    try:
        if await writer.write(move):
            return services.Applied(move.applied, move.events, False)
        failed = False  # the match had moved on: stale, or this very action applied before
    except Exception:
        log.debug("batched write failed; applying on its own", exc_info=True)
        failed = True
    # The one-by-one path tells a resend from a stale action and reports
    # database errors as they are.
    applied = await _db(services.apply_action)(match_id, seat, version, action, client_id)
    if failed and applied.duplicate:
        # The failed statement may have committed after all: make sure viewers hear of it.
        _announce(move.info, applied.snapshot)
    return applied


def _check_cached(match_id: int, seat: int | None, version: int, action: dict, client_id: str):
    """The move, when this process's cache holds the match at `version`; None
    sends the action down the one-by-one path (which also words the errors of
    malformed ids, spectators and stale versions)."""
    info, snap = CACHE.info(match_id), CACHE.snapshot(match_id)
    if info is None or snap is None or snap.version != version or not services.valid_client_id(client_id):
        return None
    if seat is None or not 0 <= seat < len(info.seats):
        return None
    return services.check_move(info, snap, seat, action, client_id)


async def info(match_id: int) -> MatchInfo | None:
    return CACHE.info(match_id) or await _db(services.load_info)(match_id)


async def snapshot(match_id: int, min_version: int = 0) -> Snapshot | None:
    """The newest snapshot this process knows, reading the database (once for
    every waiting consumer of the match) when it is older than `min_version`."""
    for _ in range(3):
        snap = CACHE.snapshot(match_id)
        if snap is not None and snap.version >= min_version:
            return snap
        task = _loading.get(match_id)
        if task is None:
            task = _loading[match_id] = _spawn(_db(services.load_snapshot)(match_id, None, True))
            task.add_done_callback(lambda t: _loading.pop(match_id, None) if _loading.get(match_id) is t else None)
        snap = await asyncio.shield(task)
        if snap is None or snap.version >= min_version:
            return snap
        # That read began before `min_version` was committed: read again.
        if _loading.get(match_id) is task:
            del _loading[match_id]
    return snap


async def events_between(match_id: int, after: int, upto: int) -> list[list]:
    """Every event list of versions after+1..upto (hidden ones included: filter per viewer)."""
    found = CACHE.events_between(match_id, after, upto)
    if found is None:
        by_version = await _db(services.load_events)(match_id, after, upto)
        found = [by_version.get(v, []) for v in range(after + 1, upto + 1)]
    return found


# ---- bots ------------------------------------------------------------------
def schedule_bots(info: MatchInfo, snapshot: Snapshot) -> None:
    """If a bot seat is to move, play it soon in a task of this loop (never in
    the request that got us here).  Several processes may try; the version
    check lets exactly one action through and the others are dropped."""
    if snapshot.status != "active":
        return
    seat = next((s for s in snapshot.to_move if info.seats[s].bot), None)
    key = (info.id, snapshot.version)
    if seat is None or key in _bot_turns:
        return
    _bot_turns.add(key)
    _spawn(_bot_turn(info, snapshot.version, seat))


def schedule_bots_threadsafe(info: MatchInfo, snapshot: Snapshot) -> None:
    loop = _main_loop()
    if loop is not None:
        loop.call_soon_threadsafe(schedule_bots, info, snapshot, context=contextvars.Context())


async def _bot_turn(info: MatchInfo, version: int, seat: int) -> None:
    try:
        if settings.BOT_DELAY > 0:
            await asyncio.sleep(settings.BOT_DELAY)
        snap = await snapshot(info.id, version)
        if snap is None or snap.version != version:
            return
        engine = info.engine
        # A bot sees only its own seat's view, never the state.
        view = engine.view(snap.state, seat)
        legal = engine.legal_actions(snap.state, seat)
        if not legal:
            return
        rng = random.Random(f"{info.seed}:{version}:{seat}")
        try:
            action = engine.bots[info.seats[seat].bot](view, legal, rng)
        except Exception:
            log.exception("bot %s failed in match %s at version %s", info.seats[seat].bot, info.id, version)
            action = rng.choice(legal)
        # Not guessable: a player sending a bot's id must not make its move look
        # like a resend.  Two processes racing for this turn are kept to one
        # action by the version check, not by the id.
        client_id = f"bot:{version}:{seat}:{uuid.uuid4().hex}"
        try:
            await apply(info.id, seat, version, action, client_id)
        except MatchError as exc:
            if exc.code == "illegal_action":
                log.warning("bot %s chose an illegal action in match %s at version %s", info.seats[seat].bot, info.id, version)
                await apply(info.id, seat, version, rng.choice(legal), client_id)
            # Otherwise it lost a race with another process: dropped harmlessly.
    except MatchError:
        pass
    except IllegalAction:
        pass
    except Exception:
        log.exception("bot turn failed in match %s at version %s", info.id, version)
    finally:
        _bot_turns.discard((info.id, version))
