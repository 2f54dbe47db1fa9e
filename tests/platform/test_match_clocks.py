"""Every match finishes: clocks hand an absent player's seat to the bot, the
player takes it back, resign and abort, takeover in untimed matches, the
rematch offer (docs/api.md, Seats; Time controls and clocks).

Time is the test's: `timing.now_ms` is moved forward by hand, so a bank of a
minute runs out at once and every charge can be checked to the millisecond.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from backend.asgi import application
from backend.matches import clock, services, store, timing
from backend.matches.runtime import MatchHub

from .match_support import Player, db_match, log_rows, make_users, token_for, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

MINUTE = {"kind": "realtime", "bank_s": 60, "increment_s": 5}


class FakeTime:
    """The server's wall clock, standing still but for what the test says has passed."""

    def __init__(self, monkeypatch):
        self.offset = 0
        self.start = timing.now_ms()
        monkeypatch.setattr(timing, "now_ms", self)

    def __call__(self) -> int:
        return self.start + self.offset

    def advance(self, ms: int) -> None:
        self.offset += ms


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.MATCH_DEADLINE_SWEEP_S = 0.05
    return match_env


async def _match(users_or_bots, time_control=None, rounds=2, start=0) -> int:
    match = await database_sync_to_async(services.create_match)(
        "counting", {"rounds": rounds, "fixed_start": start}, users_or_bots, 7, True, time_control)
    await MatchHub.current().wake(match.pk)
    return match.pk


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


async def _post(user, match_id: int, what: str, body: dict | None = None):
    response = await database_sync_to_async(_client(user).post)(f"/api/matches/{match_id}/{what}/", body or {},
                                                              format="json")
    return response.status_code, response.json()


async def _play_mine(player: Player, until_status: str = "finished") -> dict:
    """Answer every turn of this seat until the match reaches `until_status`."""
    while player.state["status"] != until_status:
        if player.state["legal_actions"]:
            await player.act(player.state["legal_actions"][0])
        await player.next("state", timeout=10)
    return player.state


async def test_a_player_who_never_comes_is_played_by_the_bot_when_the_clock_runs_out(fake_game, monkeypatch):
    time = FakeTime(monkeypatch)
    absent, present = await make_users(2)
    match_id = await _match([absent, present], MINUTE, start=0)
    time.advance(60_001)  # seat 0's minute is gone before anyone looks
    me = Player(application, match_id, await token_for(present))
    state = await me.connect()
    assert state["clock"]["kind"] == "realtime" and state["control"][1] is None
    while state["control"][0] is None:  # the hand-over may already be in the first state
        state = await me.next("state")
    assert state["control"][0]["reason"] == "timeout" and state["clock"]["remaining_ms"][0] == 0
    response = await database_sync_to_async(APIClient().get)(f"/api/matches/{match_id}/events/")
    first = response.json()[0]
    assert (first["kind"], first["seat"], first["version"]) == ("seat_to_bot", 0, 1)
    final = await _play_mine(me)
    assert final["status"] == "finished"
    rows = await log_rows(match_id)
    assert rows[0]["action"] == {"platform": "timeout"}
    assert [r["seat"] for r in rows[1:]] == [0, 1, 0, 1]  # the bot played seat 0 to the end
    await me.close()


async def test_a_deadline_fires_once_across_processes_and_after_a_restart(fake_game, monkeypatch):
    """Nobody watches: every process's sweep finds the overdue match; one hand-over goes through."""
    time = FakeTime(monkeypatch)
    a, b = await make_users(2)
    match_id = await _match([a, b], MINUTE, start=1)
    MatchHub.close_all()  # a restart: no process follows the match
    time.advance(61_000)
    # Two processes sweep at once: this loop's hub and another loop's, in a thread.
    other = asyncio.create_task(asyncio.to_thread(asyncio.run, _sweep_elsewhere(match_id)))
    hub = MatchHub.current()
    await hub.room(match_id)  # starts this process's sweep too

    async def handed():
        return (await db_match(match_id)).control[1] is not None

    await wait_for(handed, timeout=10)
    await other
    await hub.idle()
    rows = [r for r in await log_rows(match_id) if "platform" in r["action"]]
    assert [(r["seat"], r["action"]) for r in rows] == [(1, {"platform": "timeout"})]


async def _sweep_elsewhere(match_id: int) -> None:
    hub = MatchHub.current()
    try:
        room = await hub.room(match_id)
        await hub.deadlines.timeouts(room)
        await hub.idle()
    finally:
        hub.close()


async def test_the_clock_charges_every_turn_once_across_a_restart(fake_game, monkeypatch):
    time = FakeTime(monkeypatch)
    a, b = await make_users(2)
    match_id = await _match([a, b], MINUTE, start=0, rounds=3)
    players = [Player(application, match_id, await token_for(u)) for u in (a, b)]
    for p in players:
        await p.connect()
    charged = [0, 0]
    for turn in range(4):
        seat = turn % 2
        time.advance(1_000 * (turn + 2))  # seat 0 thinks 2 s, seat 1 3 s, ...
        charged[seat] += 1_000 * (turn + 2)
        await players[seat].act(players[seat].state["legal_actions"][0])
        for p in players:
            await p.until_version(turn + 1)
        if turn == 1:  # a restart between two turns: the clock comes back from the database
            for p in players:
                await p.close()
            MatchHub.close_all()
            players = [Player(application, match_id, await token_for(u)) for u in (a, b)]
            for p in players:
                await p.connect()
    stored = (await db_match(match_id)).clock
    # Each seat acted twice: 60 s, minus its thinking, plus two 5 s increments.
    assert stored["remaining_ms"] == [60_000 - charged[0] + 10_000, 60_000 - charged[1] + 10_000]
    assert stored["running"] == [0] and stored["since"] == time()  # the last action's moment
    for p in players:
        await p.close()


async def test_reclaim_gives_the_seat_back_with_at_least_the_minimum(fake_game, monkeypatch):
    time = FakeTime(monkeypatch)
    away, here = await make_users(2)
    match_id = await _match([away, here], MINUTE, start=0, rounds=5)
    time.advance(60_500)
    watcher = Player(application, match_id, await token_for(here))
    await watcher.connect()
    await wait_for(lambda: _controlled(match_id, 0))
    status, body = await _post(away, match_id, "reclaim")
    assert status == 200 and body["control"][0] is None
    back = Player(application, match_id, await token_for(away))
    await back.connect()
    # The REST commit reaches this process's runtime as a notice: a socket opened at once may first get the
    # version before it, then this one.
    state = await back.until_version(body["version"])
    assert state["control"][0] is None
    # What it had left (nothing: its time ran out), but at least 30 s; its clock runs from there, and the
    # other seat's bank is as the hand-over left it (docs/api.md, Seats: Reclaim).
    stored = (await db_match(match_id)).clock
    assert stored["remaining_ms"][0] == clock.RECLAIM_MIN_MS
    frame = state["clock"]
    assert frame["remaining_ms"][0] == clock.RECLAIM_MIN_MS and frame["remaining_ms"][1] == 60_000
    assert 0 in frame["running"] or 1 in frame["running"]
    # Twice is a conflict; a stranger or a spectator may not.
    assert (await _post(away, match_id, "reclaim"))[1]["code"] == "conflict"
    stranger = (await make_users(1))[0]
    assert (await _post(stranger, match_id, "reclaim"))[1]["code"] == "forbidden"
    for p in (watcher, back):
        await p.close()


async def _seen(match_id: int, seat: int, stamp: int) -> bool:
    return (await database_sync_to_async(store.read_seen)(match_id))[seat] == stamp


async def _controlled(match_id: int, seat: int) -> bool:
    return (await db_match(match_id)).control[seat] is not None


async def test_resign_ranks_last_and_the_bot_plays_on(fake_game):
    a, b, c = await make_users(3)
    match_id = await _match([a, b, c], None, start=0)
    watcher = Player(application, match_id, await token_for(c))
    await watcher.connect()
    status, body = await _post(b, match_id, "resign")
    assert status == 200 and body["control"][1]["reason"] == "resigned" and body["status"] == "active"
    state = await watcher.next("state")
    assert state["control"][1]["reason"] == "resigned" and state["events"][0]["kind"] == "seat_to_bot"
    assert (await _post(b, match_id, "resign"))[1]["code"] == "conflict"
    assert (await _post(b, match_id, "reclaim"))[1]["code"] == "conflict"  # a resignation is final
    # Seat 0's player resigns too: one seat is left, the match is decided.
    status, body = await _post(a, match_id, "resign")
    assert body["status"] == "finished"
    assert body["result"] == {"winners": [2], "ranking": [2, 0, 1], "resigned": [1, 0], "reason": "resignation"}
    assert (await _post(c, match_id, "resign"))[1]["code"] == "conflict"  # over
    await watcher.close()


async def test_abort_only_before_a_player_has_moved(fake_game):
    a, b = await make_users(2)
    early = await _match([a, "random"], None, start=1)  # the bot moves first: that does not count
    await MatchHub.current().idle()
    assert (await db_match(early)).version >= 1
    stranger = (await make_users(1))[0]
    assert (await _post(stranger, early, "abort"))[1]["code"] == "forbidden"
    status, body = await _post(a, early, "abort")
    assert status == 200 and body["status"] == "aborted" and body["result"] is None
    late = await _match([a, b], None, start=0)
    mover = Player(application, late, await token_for(a))
    await mover.connect()
    await mover.act(mover.state["legal_actions"][0])
    await mover.until_version(1)
    assert (await _post(b, late, "abort"))[1]["code"] == "conflict"
    await mover.close()


async def test_an_ended_match_offers_no_move_to_the_seat_it_stopped_on(fake_game):
    """An abort, or resignations that decide the match, keep the game state where it stopped, whose
    to_move still names a seat; that seat's player is offered nothing, live and on a new connection,
    so no client goes on saying "your move" (docs/api.md, Match WebSocket)."""
    for ending, by in (("abort", 1), ("resign", 1)):
        a, b = await make_users(2)
        match_id = await _match([a, b], None, start=0)
        mover = Player(application, match_id, await token_for(a))
        state = await mover.connect()
        assert state["status"] == "active" and state["legal_actions"], "seat 0 is to move"
        status, body = await _post((a, b)[by], match_id, ending)
        assert status == 200 and body["status"] in ("aborted", "finished"), body
        state = await mover.until_version(body["version"])
        assert state["status"] == body["status"] and state["legal_actions"] == []
        again = Player(application, match_id, await token_for(a))
        assert (await again.connect())["legal_actions"] == []
        await mover.act({"type": "say", "n": 1}, version=body["version"])
        assert (await mover.next("error"))["code"] == "illegal_action"
        for p in (mover, again):
            await p.close()


async def _untimed_with_one_away(settings, monkeypatch, grace: int, interval: float):
    """An untimed two-seat match whose seat 0 (to move) never connects; seat 1's player is connected."""
    settings.ABSENT_GRACE_S = grace
    settings.MATCH_PRESENCE_INTERVAL = interval
    time = FakeTime(monkeypatch)
    away, here = await make_users(2)
    match_id = await _match([away, here], None, start=0)
    me = Player(application, match_id, await token_for(here))
    await me.connect()
    return time, away, here, match_id, me


async def test_an_absent_players_seat_in_an_untimed_match_is_handed_over_after_the_grace(fake_game, settings,
                                                                                          monkeypatch):
    time, away, here, match_id, me = await _untimed_with_one_away(settings, monkeypatch, grace=90, interval=0.2)
    time.advance(30_000)
    status, body = await _post(here, match_id, "takeover", {"seat": 0})
    assert (status, body["code"]) == (409, "conflict") and "60 seconds" in body["message"]
    assert (await _post(here, match_id, "takeover", {"seat": 1}))[1]["code"] == "forbidden"  # your own seat
    # The absent player comes back: connected, so nobody may take the seat.
    visit = Player(application, match_id, await token_for(away))
    await visit.connect()
    time.advance(120_000)
    await wait_for(lambda: _seen(match_id, 0, time()))  # the next heartbeat vouches for the connection
    assert (await _post(here, match_id, "takeover", {"seat": 0}))[1]["message"] == "That player is connected."
    await visit.close()
    await MatchHub.current().idle()
    time.advance(91_000)  # gone again for longer than the grace, while it is their turn
    status, body = await _post(here, match_id, "takeover", {"seat": 0})
    assert status == 200 and body["control"][0] == {"reason": "takeover", "bot": "heuristic", "at": 1, "by": 1}
    final = await _play_mine(me)  # the bot plays seat 0 to the end
    assert final["status"] == "finished"
    await me.close()


async def test_a_seat_never_connected_is_absent_from_the_start(fake_game, settings, monkeypatch):
    """Issue 25: with a 1 s grace, a seat whose player never connected was
    "connected" for 2.5 presence intervals (about 40 s) from the start."""
    time, _away, here, match_id, me = await _untimed_with_one_away(settings, monkeypatch, grace=1, interval=15)
    time.advance(500)
    assert "1 second" in (await _post(here, match_id, "takeover", {"seat": 0}))[1]["message"]
    time.advance(600)
    status, body = await _post(here, match_id, "takeover", {"seat": 0})
    assert status == 200 and body["control"][0]["reason"] == "takeover", body
    await me.close()


async def test_takeover_is_for_untimed_matches(fake_game):
    a, b = await make_users(2)
    match_id = await _match([a, b], MINUTE, start=0)
    assert (await _post(b, match_id, "takeover", {"seat": 0}))[1]["code"] == "conflict"


async def test_the_rematch_is_offered_live_to_the_old_players(fake_game):
    a, b = await make_users(2)
    match_id = await _match([a, b], None, start=0, rounds=1)
    players = [Player(application, match_id, await token_for(u)) for u in (a, b)]
    for p in players:
        await p.connect()
    while players[0].state["status"] == "active":
        mover = next(p for p in players if p.state["legal_actions"])
        version = mover.state["version"]
        await mover.act(mover.state["legal_actions"][0])
        for p in players:
            await p.until_version(version + 1)
    status, lobby = await _post(a, match_id, "rematch")
    assert status == 201
    offer = await players[1].next("notice")
    assert offer == {"type": "notice", "kind": "rematch", "lobby": lobby["id"]}
    assert (await _post(b, match_id, "rematch"))[1]["id"] == lobby["id"]  # the same lobby, no second offer
    for p in players:
        await p.close()
