"""The runtime's rooms: what a process knows of a match, read once and kept fresh."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from backend.matches import services, store
from backend.matches.errors import MatchError
from backend.asgi import application
from backend.matches.runtime import MatchHub, hub as hub_module

from .match_support import Player, create, make_users, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


def _counting(monkeypatch, name: str) -> list:
    calls = []
    real = getattr(hub_module, name)

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(hub_module, name, counted)
    return calls


async def _act_elsewhere(match_id: int, version: int, client_id: str) -> None:
    """A move committed by another process: straight to the database."""
    info = await database_sync_to_async(store.read_info)(match_id)
    snap = await database_sync_to_async(store.read_snapshot)(info)
    seat = snap.to_move[0]
    action = info.engine.legal_actions(snap.state, seat)[0]
    await database_sync_to_async(services.apply_action)(match_id, seat, version, action, client_id)


async def test_many_viewers_opening_one_match_read_it_once(monkeypatch):
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=2)
    MatchHub.close_all()  # a process that has not seen the match
    reads = _counting(monkeypatch, "_read_room")
    hub = MatchHub.current()
    rooms = await asyncio.gather(*(hub.room(match_id) for _ in range(5)))
    assert len({id(r) for r in rooms}) == 1 and len(reads) == 1
    assert await hub.room(10**9) is None


async def test_a_version_announced_during_a_read_is_read_again(monkeypatch):
    """Viewers waiting on a read that began before the newest commit must
    end up at that commit, not one version behind; and they share the reads."""
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=2)
    hub = MatchHub.current()
    room = await hub.room(match_id)
    await _act_elsewhere(match_id, 0, "first")
    reads = []
    real = hub_module._read_since

    def racing(info, after):
        reads.append(after)
        result = real(info, after)
        if len(reads) == 1:  # meanwhile another process commits version 2 and says so
            room.heard = 2
            services.apply_action(match_id, result[0].to_move[0], 1,
                                  info.engine.legal_actions(result[0].state, result[0].to_move[0])[0], "second")
        return result

    monkeypatch.setattr(hub_module, "_read_since", racing)
    await asyncio.gather(*(hub.refresh(room) for _ in range(3)))
    assert room.snapshot.version == 2
    assert reads == [0, 1]  # one shared read, then one more; not one per caller
    assert [cid for cid, _ in (room.log[1], room.log[2])] == ["first", "second"]


async def test_a_commit_woken_during_a_read_begun_before_it_is_read_again(monkeypatch):
    """A REST move (an abort, a resignation) wakes the hub of its own process,
    which hears of it from no other process.  A read that began before that
    commit (a socket opening, say) must not stand in for the wake's read: the
    viewers would stay on the old version until the next move."""
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=2)
    hub = MatchHub.current()
    room = await hub.room(match_id)
    reads = []
    real = hub_module._read_since
    loop = asyncio.get_running_loop()
    committed, release = asyncio.Event(), threading.Event()

    def slow(info, after):
        result = real(info, after)
        reads.append(after)
        if len(reads) == 1:  # this read saw version 0; now the REST move commits, and its wake comes
            seat = result[0].to_move[0] if result[0] else room.snapshot.to_move[0]
            state = (result[0] or room.snapshot).state
            services.apply_action(match_id, seat, 0, info.engine.legal_actions(state, seat)[0], "rest-move")
            loop.call_soon_threadsafe(committed.set)
            assert release.wait(10)
        return result

    monkeypatch.setattr(hub_module, "_read_since", slow)
    first = asyncio.ensure_future(hub.refresh(room))
    await committed.wait()
    wake = asyncio.ensure_future(hub.wake(match_id))
    for _ in range(1000):  # the wake joins the read under way (it needs no database to get there)
        await asyncio.sleep(0)
        if wake.done() or getattr(room, "reread", False):
            break
    release.set()
    await asyncio.wait_for(asyncio.gather(first, wake), 10)
    assert room.snapshot.version == 1
    assert reads == [0, 0]


async def test_a_stale_or_future_version_is_refused_without_the_database():
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=2)
    hub = MatchHub.current()
    room = await hub.room(match_id)
    calls = []
    real_db, hub.db = hub.db, lambda *args: calls.append(args)
    writes, hub.writer = hub.writer, None
    seat = room.snapshot.to_move[0]
    action = room.engine.legal_actions(room.snapshot.state, seat)[0]
    try:
        for version in (5, -1, 10**6):
            with pytest.raises(MatchError) as refused:
                await hub.act(room, seat, version, action, f"v{version}")
            assert refused.value.code == "stale_version"
    finally:
        hub.db, hub.writer = real_db, writes
    assert calls == []


async def test_a_new_socket_never_starts_behind_the_database():
    """Issue 25: after faults a socket's first state was older than one its
    client already held from another process (the news of that version had
    not reached this one).  A room already open is checked against the
    database before the first state goes out."""
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=2)
    spectator = Player(application, match_id)
    assert (await spectator.connect())["version"] == 0  # the room is open here and stays so
    await _act_elsewhere(match_id, 0, "elsewhere")  # committed by another process, never announced here
    assert MatchHub.current().rooms[match_id].snapshot.version == 0
    player = Player(application, match_id, await token_for(users[0]))
    assert (await player.connect())["version"] == 1
    await spectator.until_version(1)  # the others hear of it too
    for p in (spectator, player):
        await p.close()


async def test_a_socket_whose_room_was_let_go_while_it_connected_hears_every_version(monkeypatch):
    """Seen in the browser tests (about 1 God's Playground match in 9): the last viewer left while a new
    socket was still reading, the hub let the room go, and the new socket joined the room it no longer
    held. Its player's move was committed and never came back to anyone. It joins the room the hub holds."""
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=2)
    info = await database_sync_to_async(store.read_info)(match_id)
    snap = await database_sync_to_async(store.read_snapshot)(info)
    seat = snap.to_move[0]
    spectator = Player(application, match_id)
    await spectator.connect()  # the room is open here; the player's socket will find it
    hub = MatchHub.current()
    loop = asyncio.get_running_loop()
    reading, go = asyncio.Event(), threading.Event()
    real = hub_module._read_since

    def held_up(info, after):  # the player's socket reads; meanwhile the spectator leaves
        loop.call_soon_threadsafe(reading.set)
        assert go.wait(5)
        return real(info, after)

    monkeypatch.setattr(hub_module, "_read_since", held_up)
    player = Player(application, match_id, await token_for(users[seat]))
    connecting = asyncio.ensure_future(player.connect())
    await reading.wait()
    await spectator.close()
    assert match_id not in hub.rooms  # the room was let go: nobody joined it yet
    go.set()
    monkeypatch.setattr(hub_module, "_read_since", real)
    assert (await connecting)["version"] == 0
    await player.act(info.engine.legal_actions(snap.state, seat)[0])
    assert (await player.next("state", "error"))["version"] == 1
    await player.close()
