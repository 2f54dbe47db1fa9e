"""Helpers for the match tests: WebSocket players through the real ASGI app."""

from __future__ import annotations

import asyncio
import json
import re
import uuid

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from backend.matches import jsoncodec, patches

ORIGIN = (b"origin", b"http://localhost")
# What a browser on the site sends with a handshake (tests/platform: the origin check).
BROWSER = [(b"host", b"localhost"), ORIGIN]


def new_id() -> str:
    return uuid.uuid4().hex


class Player:
    """One WebSocket connection; remembers every message it received, raw.
    With `patches`, it asks for difference frames (?frames=patch) and applies
    each to the state it holds: `state` is then the state that patch makes."""

    def __init__(self, application, match_id: int, token: str | None = None, path: str | None = None,
                 patches: bool = False):
        headers = BROWSER + ([(b"authorization", f"Token {token}".encode())] if token else [])
        path = path or f"/ws/matches/{match_id}/" + ("?frames=patch" if patches else "")
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        self.raw: list[str] = []
        self.frames: list[str] = []  # each state or patch frame, then the state a patch made; times masked
        self.state: dict | None = None
        self.errors: list[dict] = []
        self.presence: dict | None = None

    async def connect(self) -> dict:
        connected, _ = await self.comm.connect()
        assert connected
        return await self.next("state", "error")

    async def next(self, *types: str, timeout: float = 5) -> dict:
        """Receive until a message of one of `types` arrives; keep the rest."""
        while True:
            text = await self.comm.receive_from(timeout=timeout)
            self.raw.append(text)
            message = json.loads(text)
            kind = message["type"]
            if kind == "patch":
                assert self.state is not None and message["base"] == self.state["version"], message
                self.state = message = patches.apply(self.state, message["patch"])
                assert self.state["version"] == json.loads(text)["version"]
                self.frames += [_timeless_patch(text), _timeless(jsoncodec.dumps(self.state))]
                kind = "state"
            elif kind == "state":
                self.frames.append(_timeless(text))
                self.state = message
            elif kind == "error":
                self.errors.append(message)
            elif kind == "presence":
                self.presence = message
            if kind in types:
                return message

    async def until_version(self, version: int, timeout: float = 5) -> dict:
        while self.state is None or self.state["version"] < version:
            message = await self.next("state", "error", timeout=timeout)
            assert message["type"] == "state", message
        return self.state

    async def send(self, message) -> None:
        await self.comm.send_to(text_data=message if isinstance(message, str) else json.dumps(message))

    async def act(self, action: dict, version: int | None = None, client_id: str | None = None) -> str:
        client_id = client_id or new_id()
        await self.send({"type": "action", "version": self.state["version"] if version is None else version,
                         "id": client_id, "action": action})
        return client_id

    async def silent(self, timeout: float = 0.2) -> bool:
        return await self.comm.receive_nothing(timeout=timeout)

    def states(self) -> list[str]:
        """The state messages as received, with the clock's readings of time
        masked: they depend on when a frame was built, not on the game (the
        seats whose clocks run, and the rest, stay as sent).  A patching
        player's patch frames are there too, each followed by the state it made."""
        return list(self.frames)

    async def close(self) -> None:
        await self.comm.disconnect()


_CLOCK_TIMES = re.compile(r'"(server_ms|turn_ms|running_ms|remaining_ms|defaults_in_ms)":(\[[^\]]*\]|\d+)')
_AGE = re.compile(r',"age_ms":\d+')


def _timeless(text: str) -> str:
    return _CLOCK_TIMES.sub(lambda m: f'"{m[1]}":' + re.sub(r"\d+", "0", m[2]), _AGE.sub("", text))


def lean_state(text: str) -> str:
    """A full state frame (times masked) as a difference-frame client holds
    it (docs/api.md, Difference frames), its times masked the same way."""
    from backend.matches.ws.socket import lean_event

    message = json.loads(text)
    message["events"] = [lean_event(e) for e in message["events"]]
    clock = message["clock"]
    if clock is not None:
        lean = {"kind": clock["kind"], "running": clock["running"], "running_ms": [0] * len(clock["running"])}
        if clock["remaining_ms"] is not None:
            lean["remaining_ms"] = clock["remaining_ms"]
        lean.update((k, clock[k]) for k in ("increment_ms", "per_move_ms") if k in clock)
        message["clock"] = lean
    return _timeless(jsoncodec.dumps(message))


def _timeless_patch(text: str) -> str:
    """A patch frame without its operations on the clock's frame and the
    silence's countdown (whether the clock is patched field by field or
    replaced depends on the times' digits); the rest as sent."""
    frame = json.loads(text)
    frame["patch"] = [op for op in frame["patch"] if not op["path"].startswith(("/clock", "/defaults_in_ms"))]
    return jsoncodec.dumps(frame)


@database_sync_to_async
def token_for(user) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key


@database_sync_to_async
def make_users(n: int, prefix: str = "p"):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return [User.objects.create_user(username=f"{prefix}{i}{uuid.uuid4().hex[:6]}", password="x-very-long-pass-1")
            for i in range(n)]


async def create(game: str, players: list, options: dict | None = None, seed: int = 1, public: bool = True) -> int:
    """A match, created as a lobby's start creates it; this loop's runtime then
    looks at it (as the start view does), so a bot with the first move plays."""
    from backend.matches.runtime import MatchHub
    from backend.matches.services import create_match

    match_id = (await database_sync_to_async(create_match)(game, options or {}, players, seed, public)).pk
    await MatchHub.current().wake(match_id)
    return match_id


@database_sync_to_async
def db_match(match_id: int):
    from backend.matches.models import Match

    return Match.objects.get(pk=match_id)


@database_sync_to_async
def db_state(match_id: int) -> dict:
    """The match's game state now (the row holds that of a version every MATCH_STATE_EVERY: store.py)."""
    from backend.matches import store

    return store.read_state(match_id)


@database_sync_to_async
def log_rows(match_id: int) -> list:
    from backend.matches.models import ActionLog

    return list(ActionLog.objects.filter(match_id=match_id).order_by("version").values())


async def wait_for(predicate, timeout: float = 20, every: float = 0.02):
    """Await an async predicate until true (bots play in background tasks)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(every)


MERCENARY = {"m1": 1, "m2": 2, "m3": 3, "m4": 4, "m5": 5, "m6": 6, "m10": 10}


async def play_seat_to_the_end(player: Player, choose, rng, steps: int = 20_000) -> None:
    """Play `player`'s seat with the bot function `choose` (fed what the server sends)
    until the match is finished: once per version it is asked at; a server bot may win
    the race (stale_version), then it waits for the next state."""
    acted = set()
    for _ in range(steps):
        state = player.state
        if state["status"] == "finished":
            return
        if state["legal_actions"] and state["version"] not in acted:
            acted.add(state["version"])
            await player.act(choose(state["view"], state["legal_actions"], rng))
        await player.next("state", "error", timeout=30)
    raise AssertionError("the match did not finish")


def condottiere_policy(legal: list[dict], rng, avoid: frozenset = frozenset()) -> dict:
    """A scripted player that ends games in a few hundred actions: strongest
    mercenary first, sometimes a special card, otherwise any other choice.
    Actions naming a card in `avoid` are never chosen."""
    legal = [a for a in legal if not (set(map(str, a.values())) | set(a.get("cards") or [])) & avoid] or legal
    plays = [a for a in legal if a["type"] == "play" and a.get("take") is None]
    mercenaries = [a for a in plays if a["card"] in MERCENARY]
    if mercenaries:
        return max(mercenaries, key=lambda a: MERCENARY[a["card"]])
    if plays and rng.random() < 0.5:
        return rng.choice(plays)
    others = [a for a in legal if a["type"] != "play"]
    return rng.choice(others or legal)


NOBLE_SLOTS = ("prussia", "lithuania", "ukraine", "little_poland", "great_poland", "royal")


async def lay_secret_nobles(twins: list) -> int:
    """Two God's Playground matches of the same seed (each with `players`: the three seats, then a
    spectator, and `act(seat, action, version)`) play the same first moves up to the nobles step; there
    seat 0 lays its tiles differently in each (two tiles swapped) and seat 1 the same, while seat 2 has
    not yet, so they are still face down. Returns the version reached."""
    a = twins[0]

    def pending() -> str | None:
        return (a.players[3].state["view"]["pending"] or {}).get("kind")

    version = 0
    while pending() != "nobles":
        seat = next(i for i in range(3) if a.players[i].state["legal_actions"])
        action = a.players[seat].state["legal_actions"][0]
        for twin in twins:
            await twin.act(seat, action, version)
        version += 1

    # The nobles step is one place_nobles action with all six tiles (docs/engines.md, D2): a client is
    # offered the tiles in hand and lays them out itself.
    def layout(offered: dict) -> dict:
        return {"type": "place_nobles", **dict(zip(NOBLE_SLOTS, offered["tiles"]))}

    first = layout(a.players[0].state["legal_actions"][0])
    swap = next(s for s in NOBLE_SLOTS[1:] if first[s] != first[NOBLE_SLOTS[0]])
    other = dict(first, **{NOBLE_SLOTS[0]: first[swap], swap: first[NOBLE_SLOTS[0]]})
    for twin, action in zip(twins, (first, other)):
        await twin.act(0, action, version)
    version += 1
    action = layout(a.players[1].state["legal_actions"][0])
    for twin in twins:
        await twin.act(1, action, version)
    version += 1
    assert pending() == "nobles" and a.players[2].state["legal_actions"], "the reveal must not have happened yet"
    return version
