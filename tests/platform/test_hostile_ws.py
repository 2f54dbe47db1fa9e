"""A hostile client on /ws/matches/<id>/: every malformed, oversized, ill-typed,
out-of-turn or foreign message gets its documented error (docs/api.md, Match
WebSocket), the offender stays connected, the other clients hear nothing and
the match (version, snapshot, action log) is unchanged."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from backend.asgi import application

from .match_support import Player, create, db_match, log_rows, make_users, new_id, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]

LIMIT = 16 * 1024


class Table:
    """Three seated players, a logged-in onlooker and an anonymous spectator,
    after one real action (so "unchanged" means version 1, not a fresh match)."""

    @classmethod
    async def open(cls, game: str = "condottiere", seed: int = 3) -> "Table":
        self = cls()
        self.users = users = await make_users(4)
        self.match_id = await create(game, users[:3], seed=seed)
        self.seats = [Player(application, self.match_id, await token_for(u)) for u in users[:3]]
        self.onlooker = Player(application, self.match_id, await token_for(users[3]))
        self.anonymous = Player(application, self.match_id)
        for p in self.everyone:
            await p.connect()
        await self.mover.act(self.mover.state["legal_actions"][0])
        for p in self.everyone:
            await p.until_version(1)
        full = {"type": "presence", "connected": [0, 1, 2], "spectators": 2}
        for p in self.everyone:  # the others joining (over Redis, presence may lag)
            while p.presence != full:
                await p.next("presence")
            while not await p.silent(0.05):
                await p.next("state", "error", "presence")
        self.before = await db_match(self.match_id)
        return self

    @property
    def everyone(self) -> list[Player]:
        return self.seats + [self.onlooker, self.anonymous]

    @property
    def mover(self) -> Player:
        return next(p for p in self.seats if p.state["legal_actions"])

    @property
    def waiting(self) -> Player:
        return next(p for p in self.seats if not p.state["legal_actions"])

    async def refused(self, player: Player, message, code: str) -> dict:
        """Send `message` (str, bytes or JSON value); expect exactly the error `code`,
        then check the sender still answers and nobody else heard a thing."""
        # Straight to the app (the communicator's send_to refuses an empty frame).
        frame = {"bytes": message} if isinstance(message, bytes) else {
            "text": message if isinstance(message, str) else json.dumps(message)}
        await player.comm.send_input({"type": "websocket.receive", **frame})
        answer = await player.next("error", "state")
        assert answer["type"] == "error" and answer["code"] == code, (str(message)[:200], answer)
        assert isinstance(answer["message"], str) and answer["message"]
        await self.alive(player)
        for other in self.everyone:
            if other is not player:
                if not await other.silent(0.02):
                    raise AssertionError(f"another client heard {await other.comm.receive_from()}")
        return answer

    async def alive(self, player: Player) -> None:
        await player.send({"type": "sync"})
        assert (await player.next("state", "error"))["type"] == "state"

    async def unchanged(self) -> None:
        after = await db_match(self.match_id)
        assert (after.version, after.state, after.status) == (self.before.version, self.before.state,
                                                               self.before.status)
        assert len(await log_rows(self.match_id)) == self.before.version

    async def close(self) -> None:
        for p in self.everyone:
            await p.close()


_PASS = {"type": "pass"}


def _action(version=1, client_id=None, action=_PASS, **extra) -> dict:
    return {"type": "action", "version": version, "id": new_id() if client_id is None else client_id,
            "action": action, **extra}


async def test_framing_garbage_is_bad_message_or_too_large():
    table = await Table.open()
    player = table.mover
    cases = [
        (b"\xff\xfe\x00garbage", "bad_message"),  # binary frame, invalid UTF-8
        (b"\x80\x81", "bad_message"),
        (b"not json at all", "bad_message"),  # binary frame, not JSON
        ("", "bad_message"),
        ("{", "bad_message"),
        ("{'type': 'sync'}", "bad_message"),
        ('{"type": "sync"} trailing', "bad_message"),
        ("null", "bad_message"), ("42", "bad_message"), ('"sync"', "bad_message"), ("[]", "bad_message"),
        ('[{"type": "sync"}]', "bad_message"), ("true", "bad_message"), ("NaN", "bad_message"),
        ("1" * 5000, "bad_message"),  # an integer past Python's digit limit
        ({}, "bad_message"), ({"type": None}, "bad_message"), ({"type": 1}, "bad_message"),
        ({"type": ["sync"]}, "bad_message"), ({"type": "SYNC"}, "bad_message"), ({"type": "state"}, "bad_message"),
        ({"type": "error"}, "bad_message"), ({"type": "presence"}, "bad_message"), ({"kind": "sync"}, "bad_message"),
        # Over the limit, measured in UTF-8 bytes, not characters.
        ("x" * (LIMIT + 1), "too_large"),
        (json.dumps({"type": "sync", "pad": "x" * LIMIT}), "too_large"),
        (json.dumps({"type": "sync", "pad": "€" * (LIMIT // 3 + 1)}, ensure_ascii=False), "too_large"),
        (b"x" * (LIMIT + 1), "too_large"),
        ("x" * (1 << 20), "too_large"),
    ]
    for message, code in cases:
        await table.refused(player, message, code)
    # Exactly at the limit is still read (and here it is a valid sync).
    padded = json.dumps({"type": "sync", "pad": ""})
    padded = json.dumps({"type": "sync", "pad": "x" * (LIMIT - len(padded))})
    assert len(padded.encode()) == LIMIT
    await player.send(padded)
    assert (await player.next("state", "error"))["type"] == "state"
    await table.unchanged()
    await table.close()


async def test_deeply_nested_json_is_bad_message_not_a_dropped_connection():
    """json.loads raises RecursionError (not ValueError) past ~1000 levels; a
    16 KiB message can nest 8000 deep."""
    table = await Table.open()
    for message in ["[" * 8000, '{"a":' * 3000, json.dumps(_action())[:-1] + ', "x": ' + "[" * 5000 + "]" * 5000 + "}"]:
        await table.refused(table.mover, message, "bad_message")
    await table.unchanged()
    await table.close()


async def test_ill_typed_fields_are_bad_message_and_bad_versions_stale():
    table = await Table.open()
    player = table.mover
    legal = player.state["legal_actions"][0]
    bad_message = [
        _action(version=None), _action(version="1"), _action(version=1.0), _action(version=1.5),
        _action(version=True), _action(version=[1]), _action(version={"v": 1}),
        '{"type": "action", "version": NaN, "id": "a", "action": {"type": "pass"}}',
        '{"type": "action", "version": Infinity, "id": "a", "action": {"type": "pass"}}',
        '{"type": "action", "version": -Infinity, "id": "a", "action": {"type": "pass"}}',
        '{"type": "action", "version": 1e3, "id": "a", "action": {"type": "pass"}}',
        _action(client_id=""), _action(client_id=7), _action(client_id=True), _action(client_id=["a"]),
        _action(client_id={"a": 1}), _action(client_id="x" * 65), _action(client_id="€" * 65),
        {"type": "action", "version": 1, "action": legal},  # no id
        {"type": "action", "id": new_id(), "action": legal},  # no version
        {"type": "action", "version": 1, "id": new_id()},  # no action
        _action(action="pass"), _action(action=None), _action(action=[legal]), _action(action=1),
        _action(action=True),
    ]
    for message in bad_message:
        await table.refused(player, message, "bad_message")
    # Well-typed but not the current version: stale, whatever the number.
    for version in (0, 2, -1, 10**18, 10**300, -(10**300)):
        await table.refused(player, _action(version=version, action=legal), "stale_version")
    await table.unchanged()
    await table.close()


async def test_an_error_echoes_the_id_only_when_it_is_a_valid_one():
    table = await Table.open()
    player = table.mover
    answer = await table.refused(player, _action(client_id="mine", version="1"), "bad_message")
    assert answer["id"] == "mine"
    answer = await table.refused(player, _action(client_id=12, version="1"), "bad_message")
    assert answer["id"] is None
    await table.close()


async def test_action_payloads_the_engine_refuses_get_the_engines_code():
    """Malformed payloads are bad_message, well-formed ones the rules forbid
    illegal_action: the code the engine's refusal carries, unchanged."""
    from backend.engines import IllegalAction, get_engine

    table = await Table.open()
    player = table.mover
    legal = player.state["legal_actions"]
    state = (await db_match(table.match_id)).state
    engine = get_engine("condottiere")

    def code_of(payload) -> str:
        try:
            engine.play(state, player.state["seat"], payload)
        except IllegalAction as exc:
            return exc.code
        raise AssertionError(f"{payload!r} was accepted")

    payloads = [
        {}, {"type": None}, {"type": 5}, {"type": ""}, {"type": "dance"}, {"type": "PLAY"},
        {**legal[0], "extra": 1}, {**legal[0], "seat": 0}, {**legal[0], "type": legal[0]["type"] + " "},
        {"type": "play", "card": None}, {"type": "play", "card": ["m10"]}, {"type": "play", "card": {"m": 1}},
        {"type": "play", "card": 10}, {"type": "play", "card": "m10" * 1000}, {"type": "play", "card": "\u0000"},
        {"type": "play", "card": "\ud800"}, {"type": "place_token", "region": None}, {"type": "pass", "reveal": 1},
        {"type": "keep", "cards": "m10"}, {"type": "keep", "cards": [None, 1.5]}, {"type": "keep", "cards": [[]]},
        {"type": "place_legate", "region": []},
        # Well-formed, but not what the rules ask for now.
        {"type": "pass"}, {"type": "discard_hand"}, {"type": "keep", "cards": []},
    ]
    codes = set()
    for payload in payloads:
        if payload in legal:
            continue
        codes.add(code_of(payload))
        answer = await table.refused(player, _action(action=payload), code_of(payload))
        assert "\ud800" not in answer["message"] and "\u0000" not in answer["message"]
    assert codes == {"bad_message", "illegal_action"}  # both kinds are among them
    raw = '{"type": "action", "version": 1, "id": "nan-card", "action": {"type": "play", "card": NaN}}'
    await table.refused(player, raw, "bad_message")
    await table.unchanged()
    await table.close()


async def test_nobody_acts_for_another_seat_or_as_a_spectator():
    table = await Table.open()
    mover, waiting = table.mover, table.waiting
    legal = mover.state["legal_actions"][0]
    await table.refused(waiting, _action(action=legal), "not_your_turn")
    await table.refused(waiting, _action(action=legal, seat=mover.state["seat"]), "forbidden")
    for seat in (-1, 3, 99, "0", None, [0], 0.5):
        if seat != mover.state["seat"]:
            await table.refused(mover, _action(action=legal, seat=seat), "forbidden")
    await table.refused(table.onlooker, _action(action=legal), "forbidden")
    await table.refused(table.onlooker, _action(action=legal, seat=mover.state["seat"]), "forbidden")
    await table.refused(table.anonymous, _action(action=legal), "unauthenticated")
    await table.refused(table.anonymous, _action(action=legal, seat=mover.state["seat"]), "unauthenticated")
    await table.unchanged()
    await table.close()


@pytest.mark.parametrize("client_id", ["\ud800", "a\udfffb", "\u0000", "a\u0000b"], ids=["surrogate", "surrogate-in",
                                                                                     "nul", "nul-in"])
async def test_client_ids_the_database_cannot_store_are_refused_cleanly(client_id):
    """A lone surrogate or a NUL is valid JSON (\\ud800, \\u0000) but cannot be
    encoded to UTF-8 / stored in a PostgreSQL text column: the action must be
    refused as bad_message, not crash the connection on the INSERT or the
    duplicate lookup."""
    table = await Table.open()
    legal = table.mover.state["legal_actions"][0]
    for version in (0, 1):  # the duplicate lookup (stale) and the insert (current)
        raw = json.dumps(_action(version=version, client_id=client_id, action=legal))
        await table.refused(table.mover, raw, "bad_message")
    await table.unchanged()
    await table.close()


async def test_a_replayed_id_is_never_applied_again_whatever_its_payload():
    table = await Table.open()
    mover = table.mover
    client_id = new_id()
    await mover.act(mover.state["legal_actions"][0], client_id=client_id)
    for p in table.everyone:
        await p.until_version(2)
    before = await db_match(table.match_id)
    replayer = table.mover
    # The same id with a different legal payload from the seat to move: answered
    # with the state (docs/api.md), not applied.
    await replayer.act(replayer.state["legal_actions"][-1], version=2, client_id=client_id)
    answer = await replayer.next("state", "error")
    assert answer["type"] == "state" and answer["version"] == 2, answer
    # Anything else under that id is refused before it could be (not your turn,
    # not a legal action, stale); never applied either.
    for sender, action, version, code in ((table.waiting, replayer.state["legal_actions"][-1], 2, "not_your_turn"),
                                          (replayer, {"type": "dance"}, 2, "bad_message"),
                                          (replayer, replayer.state["legal_actions"][0], 1, None)):
        await sender.act(action, version=version, client_id=client_id)
        answer = await sender.next("state", "error")
        assert answer.get("code") == code and answer.get("version", 2) == 2, answer
    after = await db_match(table.match_id)
    assert (after.version, after.state) == (before.version, before.state)
    rows = await log_rows(table.match_id)
    assert len(rows) == 2 and [r["client_id"] for r in rows].count(client_id) == 1
    await table.close()


async def test_floods_are_rate_limited_per_connection_and_spare_the_others(settings):
    table = await Table.open()
    settings.MATCH_WS_RATE, settings.MATCH_WS_BURST = 20, 40  # the documented defaults
    flooder = Player(application, table.match_id, await token_for(table.users[3]))
    await flooder.connect()
    for p in table.everyone:
        await p.next("presence")
    for kind in ("sync", "action", "garbage", "oversized"):
        message = {"sync": {"type": "sync"}, "action": _action(action={"type": "pass"}),
                   "garbage": "}{", "oversized": "x" * (LIMIT + 1)}[kind]
        await asyncio.gather(*(flooder.send(message) for _ in range(300)))
        answers = [await flooder.next("state", "error") for _ in range(300)]
        limited = [a for a in answers if a["type"] == "error" and a["code"] == "rate_limited"]
        # Roughly the burst gets through (plus what refills while sending), the rest is dropped.
        assert 200 <= len(limited) <= 260, (kind, len(limited))
        assert all(a["message"] for a in limited)
        # Meanwhile the players are not held up: an action still reaches everyone.
        version = table.mover.state["version"]
        await table.mover.act(table.mover.state["legal_actions"][0])
        for p in table.seats + [table.anonymous]:
            assert (await p.until_version(version + 1, timeout=2))["version"] == version + 1
        await flooder.until_version(version + 1)
        await asyncio.sleep(2.1)  # the bucket refills before the next flood
    rows = await log_rows(table.match_id)
    assert [r["version"] for r in rows] == list(range(1, 6))  # exactly the 5 real actions
    await flooder.close()
    await table.close()


async def test_one_client_crashing_into_errors_never_drops_the_others():
    """After every kind of refusal above, from every kind of connection, the
    match still plays on to its next version for everyone."""
    table = await Table.open()
    for player in table.everyone:
        for message in ("}{", "x" * (LIMIT + 1), _action(version="1"), _action(action={"type": "dance"}),
                        _action(seat=7), {"type": "nope"}):
            await player.send(message if isinstance(message, str) else json.dumps(message))
            await player.next("error")
    await table.unchanged()
    await table.mover.act(table.mover.state["legal_actions"][0])
    for p in table.everyone:
        assert (await p.until_version(2))["version"] == 2
        assert not p.comm.future.done(), "a connection was dropped"
    await table.close()


async def test_a_player_cannot_preempt_a_bot_by_guessing_its_action_id():
    """Bots apply with ids shaped "bot:<version>:<seat>:...".  A player who sends their own action under
    an id of that shape (or a platform move's) is refused before anything is read: their move can neither
    make the bot's look like a resend nor pass for the bot's (the ratings count a player's own moves by
    the ids, docs/ratings.md); the bot still plays, the match goes on."""
    users = await make_users(1)
    match_id = await create("condottiere", [users[0], "random"], seed=4)
    human = Player(application, match_id, await token_for(users[0]))
    await human.connect()
    refused = 0
    while refused < 3 and human.state["status"] == "active":
        version = human.state["version"]
        if not human.state["legal_actions"]:
            await human.until_version(version + 1)
            continue
        for guess in (f"bot:{version + 1}:1", f"platform:{version}:resigned:1"):
            await human.act(human.state["legal_actions"][0], client_id=guess)
            error = await human.next("error")
            assert (error["code"], error["id"]) == ("bad_message", None) and "bot:" in error["message"]
        assert human.state["version"] == version  # nothing moved
        await human.act(human.state["legal_actions"][0])
        await human.until_version(version + 1)
        refused += 1
        if 1 in human.state["view"]["to_move"] and human.state["version"] == version + 1:
            # The bot's turn: it must move (BOT_DELAY is 0 here).
            assert (await human.until_version(version + 2, timeout=3))["version"] >= version + 2, "the bot never moved"
    assert refused == 3
    await human.close()


async def test_lobby_sockets_refuse_odd_invite_codes_and_survive_garbage():
    """/ws/lobbies/<id>/?code=... with a non-ASCII code is just a wrong code
    (forbidden, 4403); whatever else a client sends to a lobby socket is bad_message (too_large
    over the room's 4 KiB for chat messages)."""
    from channels.testing import WebsocketCommunicator

    from backend.lobbies import services as lobbies
    from .match_support import BROWSER

    host = (await make_users(1))[0]
    private = await database_sync_to_async(lobbies.create_lobby)(host, "condottiere", {}, 3, True)
    for code in ("%C3%A9", "%ED%A0%80", "%FF", "%00"):
        comm = WebsocketCommunicator(application, f"/ws/lobbies/{private.pk}/?code={code}", headers=BROWSER)
        assert (await comm.connect())[0]
        answer = await comm.receive_json_from()
        assert (answer["type"], answer["code"]) == ("error", "forbidden"), code
        assert await comm.receive_output() == {"type": "websocket.close", "code": 4403}
    auth = (b"authorization", f"Token {await token_for(host)}".encode())
    for path, headers in (("/ws/lobbies/", BROWSER), (f"/ws/lobbies/{private.pk}/", BROWSER + [auth])):
        room = path != "/ws/lobbies/"
        comm = WebsocketCommunicator(application, path, headers=headers)
        assert (await comm.connect())[0]
        await comm.receive_json_from()
        for frame in ({"text": "[" * 8000}, {"bytes": b"\xff"}, {"text": "x" * (1 << 16)}, {"text": "{}"}):
            await comm.send_input({"type": "websocket.receive", **frame})
            # The room reads its chat messages, of at most 4 KiB: a longer frame is too large.
            big = room and len(frame.get("text", "")) > 4096
            assert (await comm.receive_json_from())["code"] == ("too_large" if big else "bad_message")
        await comm.disconnect()
