"""Replays (docs/api.md, Replays): an ended match stepped through forward and back shows, at every
version, exactly what the live socket showed then: the spectators' view to everyone, a seat's own
view to its player, never another seat's; an active match is not replayed at all.

The live views are recorded from real matches played through the WebSocket, every viewer awaited
at every version, so each replayed step has its live counterpart."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from backend.asgi import application
from backend.engines import canonical, get_engine
from backend.matches import replays, services
from backend.matches.replays import ReplayCache, Walk

from .match_support import (Player, condottiere_policy, create, db_match, db_state, lay_secret_nobles, make_users,
                            token_for)
from .test_ws_hidden import _decks

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    replays.CACHE.clear()  # ids repeat across tests' databases
    yield match_env
    replays.CACHE.clear()


class Table:
    """One match: a connection per seat and a spectator, and what each saw at each version."""

    def __init__(self, match_id: int, users: list, players: list[Player]):
        self.id, self.users, self.players = match_id, users, players
        self.seen: list[dict[int, tuple[dict, list]]] = [{} for _ in players]  # viewer -> version -> (view, events)

    @classmethod
    async def open(cls, game: str, users: list, options: dict, seed: int) -> Table:
        match_id = await create(game, users, options, seed=seed)
        players = [Player(application, match_id, await token_for(u)) for u in users] + [Player(application, match_id)]
        for p in players:
            await p.connect()
        table = cls(match_id, users, players)
        table.note()
        return table

    def note(self) -> None:
        for seen, p in zip(self.seen, self.players):
            seen[p.state["version"]] = (p.state["view"], [{k: v for k, v in e.items() if k != "to"}
                                                          for e in p.state["events"]])

    @property
    def spectator(self) -> Player:
        return self.players[-1]

    async def act(self, seat: int, action: dict, version: int) -> None:
        await self.players[seat].act(action, version)
        for p in self.players:
            await p.until_version(version + 1, timeout=30)
        self.note()

    async def close(self) -> None:
        for p in self.players:
            assert not p.errors, p.errors
            await p.close()


async def play(tables: list[Table], choose, check_midway, after=None) -> int:
    """Play the tables in step (the same actions in each) until they end; `choose(seat, state)` picks the
    first seat's action, `after()` runs after each. `check_midway()` runs while the match is still going.
    Returns the last version."""
    version = 0
    lead = tables[0]
    while lead.spectator.state["status"] == "active":
        mover = next(i for i, p in enumerate(lead.players[:-1]) if p.state["legal_actions"])
        action = choose(mover, lead.players[mover].state)
        for table in tables:
            await table.act(mover, action, version)
        version += 1
        if after is not None:
            await after()
        if version == 3:
            await check_midway()
        assert version < 3000
    return version


@database_sync_to_async
def _get(path: str, user=None, language: str = "en"):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client.get(path, HTTP_ACCEPT_LANGUAGE=language)


def _url(match_id: int, step: int | None = None, seat=None) -> str:
    path = f"/api/matches/{match_id}/replay/" + ("" if step is None else f"{step}/")
    return path + ("" if seat is None else f"?seat={seat}")


async def _walk_matches_live(table: Table, last: int, viewer: int, user) -> list[bytes]:
    """Step forward from 0 to the end, then back: each step's view and events are the live ones.
    `viewer` is a seat (its `user` asks) or None for the public view. Returns the forward answers' bytes."""
    seen = table.seen[-1 if viewer is None else viewer]
    assert sorted(seen) == list(range(last + 1))  # every version was seen live
    forward = []
    for step in [*range(last + 1), *range(last, -1, -1)]:
        answer = await _get(_url(table.id, step, viewer), user)
        assert answer.status_code == 200, answer.content
        body = answer.json()
        view, events = seen[step]
        assert (body["step"], body["steps"], body["seat"]) == (step, last, viewer)
        assert canonical(body["view"]) == canonical(view), f"viewer {viewer}, step {step}"
        if step:  # the live frame at 0 carries no events (the history is the log's)
            got = [{k: v for k, v in e.items() if k not in ("version", "private")} for e in body["events"]]
            # The log's lines name the acting seat where an event names none (docs/api.md, Matches).
            live = [{"seat": body["actor"], **e} for e in events]
            assert canonical(got) == canonical(live), f"viewer {viewer}, step {step}"
            assert all(e["version"] == step for e in body["events"])
        if len(forward) <= last:
            forward.append(answer.content)
    return forward


async def _refusals(table: Table, last: int) -> None:
    match_id, users = table.id, table.users
    cases = [
        (_url(match_id, 0, 1), users[0], 403, "forbidden"),  # another seat's view, after the end too
        (_url(match_id, 0, 0), None, 401, "unauthenticated"),
        (_url(match_id, last + 1), None, 404, "not_found"),
        (_url(match_id, last + 1, 0), users[0], 404, "not_found"),
        (_url(match_id, 0, len(users)), users[0], 400, "bad_message"),
        (_url(match_id, 0, "x"), users[0], 400, "bad_message"),
        (_url(match_id, None, 2), users[0], 403, "forbidden"),
        (_url(987654321, 0), None, 404, "not_found"),
    ]
    for path, user, status, code in cases:
        answer = await _get(path, user)
        assert (answer.status_code, answer.json()["code"]) == (status, code), path
        assert "hand" not in answer.content.decode()
    # Refusals speak the asker's language.
    answer = await _get(_url(match_id, 0, 0), None, "hu")
    assert answer.json()["message"] == "Jelentkezz be, hogy a saját nézetedet visszajátszhasd."


async def test_a_condottiere_replay_walks_as_the_live_views_went_and_hides_a_hidden_card():
    """Twin matches differ in one hidden card of seat 0 (tests/platform/test_ws_hidden.py) and get the same
    actions: the public replay of one is byte for byte the other's at every step."""
    users = await make_users(3)
    deck_a, deck_b = _decks(11)
    tables = [await Table.open("condottiere", users, {"deck": deck}, seed=5) for deck in (deck_a, deck_b)]
    rng = random.Random(5)
    holders = {0}

    async def holding() -> set[int]:
        a, b = [await db_state(t.id) for t in tables]
        return {seat for seat in range(3) if a["hands"][seat] != b["hands"][seat]}

    def choose(seat, state):
        avoid = frozenset({"m1", "m2"}) if seat in holders else frozenset()
        return condottiere_policy(state["legal_actions"], rng, avoid)

    async def midway():
        # While the match is played nobody replays it: not a spectator, not a player's own seat.
        for path, user in ((_url(tables[0].id, 1), None), (_url(tables[0].id, 1, 0), users[0]),
                           (_url(tables[0].id), None)):
            answer = await _get(path, user)
            assert (answer.status_code, answer.json()["code"]) == (409, "conflict")

    async def track():
        # The seats whose hands differ now must not play the card, so that it is never revealed.
        holders.clear()
        holders.update(await holding())

    last = await play(tables, choose, midway, track)

    public = [await _walk_matches_live(t, last, None, None) for t in tables]
    assert public[0] == public[1]  # the hidden card changed no byte of the public replay
    for seat, user in enumerate(users):
        await _walk_matches_live(tables[0], last, seat, user)
    # Seat 0's own replay does show its card: the twins' answers differ there, as its live view did.
    firsts = [json.loads((await _get(_url(t.id, 0, 0), users[0])).content) for t in tables]
    assert "m1" in firsts[0]["view"]["hand"] and "m2" in firsts[1]["view"]["hand"]
    logs = [(await _get(_url(t.id), None)).content for t in tables]
    assert logs[0] == logs[1]
    log = json.loads(logs[0])
    assert log["steps"] == last and log["seat"] is None and not any(e.get("private") for e in log["events"])
    assert {e["version"] for e in log["events"]} <= set(range(1, last + 1))
    # The replay's log is the match's event log as each reader has it after the end: a spectator's, and a
    # player's with their own private lines.
    assert log["events"] == (await _get(f"/api/matches/{tables[0].id}/events/")).json()
    own = (await _get(_url(tables[0].id, None, 0), users[0])).json()
    assert own["seat"] == 0 and own["events"] == (await _get(f"/api/matches/{tables[0].id}/events/", users[0])).json()
    await _refusals(tables[0], last)
    for table in tables:
        await table.close()


async def test_a_gods_playground_replay_walks_as_the_live_views_went():
    engine = get_engine("gods_playground")
    users = await make_users(3, prefix="gp")
    table = await Table.open("gods_playground", users, {}, seed=3)
    bot, rng = engine.bots["heuristic"], random.Random(3)

    async def midway():
        answer = await _get(_url(table.id, 0), None)
        assert (answer.status_code, answer.json()["code"]) == (409, "conflict")

    last = await play([table], lambda seat, state: bot(state["view"], state["legal_actions"], rng), midway)
    assert last > 100
    await _walk_matches_live(table, last, None, None)
    for seat, user in enumerate(users):
        await _walk_matches_live(table, last, seat, user)
    await _refusals(table, last)
    await table.close()


def test_a_walk_in_any_order_gives_the_states_of_a_straight_replay():
    """Checkpoints and the stretch stepped last serve any order of steps; the cache stays within its bound."""
    engine, rng = get_engine("gods_playground"), random.Random(2)
    state = engine.setup(3, {}, 2)
    states, moves = [state], []
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        action = engine.bots["random"](engine.view(state, seat), engine.legal_actions(state, seat), rng)
        state, events = engine.step(state, seat, action)
        states.append(state)
        moves.append((seat, action, events))
    walk = Walk(engine, states[0], moves, state, every=8)
    order = [*range(len(states)), *range(len(states) - 1, -1, -1)] + [rng.randrange(len(states)) for _ in range(300)]
    for version in order:
        assert canonical(walk.state(version)) == canonical(states[version]), version
    assert set(walk.checkpoints) == set(range(0, len(states), 8)) and len(walk.stretch) <= 8

    cache = ReplayCache(max_states=walk.size() + 5)
    for key in range(3):
        cache.state(key, lambda: Walk(engine, states[0], moves, state, every=8), len(states) - 1)
    assert list(cache.walks) == [2]  # each walk alone fills the bound: the older ones were dropped

    broken = Walk(engine, states[0], moves, states[-2], every=8)  # a log that does not end where the match did
    with pytest.raises(replays.ReplayBroken):
        broken.state(len(states) - 1)


async def test_a_gods_playground_replay_keeps_secret_nobles_secret():
    """Twin matches differ only in where seat 0 secretly laid two noble tiles; the other players resign before
    the reveal, which ends both. The public replay, and seat 1's own, are byte for byte the same in both at
    every step; seat 0's own replay shows its layout (tests/platform/test_leaks_platform.py, live)."""
    users = await make_users(3, prefix="gps")
    twins = [await Table.open("gods_playground", users, {}, seed=21) for _ in range(2)]
    version = await lay_secret_nobles(twins)
    for twin in twins:  # two resignations of three players end the match, tiles still face down
        for user in users[1:]:
            await database_sync_to_async(services.resign)(user, twin.id)
        assert (await db_match(twin.id)).status == "finished"
    last = version + 2

    for seat, user in ((None, None), (1, users[1])):
        answers = [[(await _get(_url(t.id, step, seat), user)).content for step in range(last + 1)] for t in twins]
        assert answers[0] == answers[1], f"viewer {seat}"
        assert json.loads(answers[0][-1])["steps"] == last
    logs = [(await _get(_url(t.id), None)).content for t in twins]
    assert logs[0] == logs[1]
    own = [json.loads((await _get(_url(t.id, last, 0), users[0])).content)["view"] for t in twins]
    assert own[0] != own[1]  # seat 0 sees where it laid its own tiles
    for twin in twins:
        await twin.close()
