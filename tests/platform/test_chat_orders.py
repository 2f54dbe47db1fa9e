"""Every chat message a client may send, in every order, on the lobby room socket and on the match
socket, by each kind of viewer (docs/api.md, Chat): each message gets its documented answer (a frame
or an error with its code, never `unavailable`, which means the database is away), the connection stays
up, and a mute holds whatever came before it. A lobby socket once failed on `chat_mute` sent before
`chat_history`."""

from __future__ import annotations

import itertools
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from backend.asgi import application

from .match_support import BROWSER, create, make_users, token_for
from .test_chat import open_lobby

pytestmark = pytest.mark.django_db(transaction=True)

KINDS = ("chat", "mute", "unmute", "history", "remove")
# The answer each kind gets, per socket and viewer: a frame type, or an error code.
EXPECTED = {
    ("lobby", "host"): {"chat": "chat", "mute": "chat_muted", "unmute": "chat_muted", "history": "chat_history",
                        "remove": "chat_removed"},
    ("lobby", "visitor"): {"chat": "chat", "mute": "chat_muted", "unmute": "chat_muted", "history": "chat_history",
                           "remove": "forbidden"},
    ("lobby", "anonymous"): {"chat": "unauthenticated", "mute": "unauthenticated", "unmute": "unauthenticated",
                             "history": "chat_history", "remove": "unauthenticated"},
    ("match", "player"): {"chat": "chat", "mute": "chat_muted", "unmute": "chat_muted", "history": "chat_history",
                          "remove": "bad_message"},
    ("match", "spectator"): {"chat": "chat", "mute": "chat_muted", "unmute": "chat_muted",
                             "history": "chat_history", "remove": "bad_message"},
    ("match", "anonymous"): {"chat": "unauthenticated", "mute": "unauthenticated", "unmute": "unauthenticated",
                             "history": "chat_history", "remove": "bad_message"},
}
QUIET = {"lobby", "state", "presence"}  # frames that are not answers to chat messages


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.CHAT_RATE = 100_000
    return match_env


class Socket:
    def __init__(self, path: str, token: str | None):
        headers = BROWSER + ([(b"authorization", f"Token {token}".encode())] if token else [])
        self.comm = WebsocketCommunicator(application, path, headers=headers)

    async def open(self) -> None:
        connected, _ = await self.comm.connect()
        assert connected
        first = json.loads(await self.comm.receive_from(timeout=5))
        assert first["type"] in ("lobby", "state"), first

    async def answer(self, message: dict) -> dict:
        await self.comm.send_to(text_data=json.dumps(message))
        while True:
            frame = json.loads(await self.comm.receive_from(timeout=5))
            if frame["type"] not in QUIET:
                return frame


@database_sync_to_async
def a_line(author, *, lobby_id=None, match_id=None) -> int:
    """A stored line of `author` in the room (written straight to the table: nobody is told)."""
    from backend.chat.models import ChatMessage

    where = {"lobby_id": lobby_id, "channel": "lobby"} if lobby_id else {"match_id": match_id, "channel": "table"}
    return ChatMessage.objects.create(author=author, text="a line to remove", **where).pk


@database_sync_to_async
def clear_mutes() -> None:
    from backend.chat.models import ChatMute

    ChatMute.objects.all().delete()


def message(kind: str, other_id: int, line: int, n: int) -> dict:
    return {"chat": {"type": "chat", "text": f"line {n}", "id": f"c{n}"},
            "mute": {"type": "chat_mute", "user": other_id, "muted": True, "id": f"m{n}"},
            "unmute": {"type": "chat_mute", "user": other_id, "muted": False, "id": f"u{n}"},
            "history": {"type": "chat_history"},
            "remove": {"type": "chat_remove", "message": line, "id": f"r{n}"}}[kind]


async def play_every_order(socket_kind: str, role: str, path: str, token: str | None, other, where: dict):
    expected = EXPECTED[socket_kind, role]
    for order in itertools.permutations(KINDS):
        line = await a_line(other, **where)
        socket = Socket(path, token)
        await socket.open()
        muted = False
        for n, kind in enumerate(order):
            answer = await socket.answer(message(kind, other.pk, line, n))
            got = answer["code"] if answer["type"] == "error" else answer["type"]
            assert got == expected[kind], (order, kind, answer)
            if answer["type"] == "chat_muted":
                muted = answer["muted"]
            if answer["type"] == "chat_history":
                assert all(m["author"]["id"] != other.pk for m in answer["messages"]) or not muted, (order, answer)
        # Still up, and the mute as it was left holds in a history asked now.
        history = await socket.answer({"type": "chat_history"})
        assert history["type"] == "chat_history", (order, history)
        assert {m["id"] for m in history["muted"]} == ({other.pk} if muted else set()), (order, history)
        await socket.comm.disconnect()
        if muted:  # leave the next order as this one found it
            await clear_mutes()


@pytest.mark.parametrize("role", ["host", "visitor", "anonymous"])
async def test_lobby_room_chat_messages_in_every_order(role):
    host, guest, visitor = await make_users(3, "ord")
    lobby = await open_lobby(host, guest)
    token = {"host": await token_for(host), "visitor": await token_for(visitor), "anonymous": None}[role]
    await play_every_order("lobby", role, f"/ws/lobbies/{lobby.pk}/", token, guest, {"lobby_id": lobby.pk})


@pytest.mark.parametrize("role", ["player", "spectator", "anonymous"])
async def test_match_chat_messages_in_every_order(role):
    p0, p1, watcher = await make_users(3, "orm")
    match_id = await create("condottiere", [p0, p1])
    token = {"player": await token_for(p0), "spectator": await token_for(watcher), "anonymous": None}[role]
    await play_every_order("match", role, f"/ws/matches/{match_id}/", token, p1, {"match_id": match_id})
