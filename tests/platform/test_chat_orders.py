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


OTHER = object()  # stands for the other user's id
# Chat messages with fields of every wrong kind, and the answer each gets on the lobby room socket (its
# host) and on the match socket (a player): a documented code, never `unavailable` and never a closed
# socket (the lobby socket once took any error for the database's absence; it now lets through only
# database errors, so a field that raised anything else would close it).
MALFORMED = [
    ({"type": "chat"}, "bad_message", "bad_message"),
    ({"type": "chat", "text": None}, "bad_message", "bad_message"),
    ({"type": "chat", "text": 5}, "bad_message", "bad_message"),
    ({"type": "chat", "text": ["a"]}, "bad_message", "bad_message"),
    ({"type": "chat", "text": {"a": 1}}, "bad_message", "bad_message"),
    ({"type": "chat", "text": ""}, "chat_empty", "chat_empty"),
    ({"type": "chat", "text": "x" * 301}, "chat_too_long", "chat_too_long"),
    ({"type": "chat", "text": "x" * 100_000}, "too_large", "too_large"),
    ({"type": "chat", "text": "hi", "id": ["x"], "channel": ["table"]}, "chat", "chat"),  # extra fields ignored
    ({"type": "chat_mute"}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": None, "muted": True}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": "1", "muted": True}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": [1], "muted": True}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": 10**30, "muted": True}, "not_found", "not_found"),  # past any column's range
    ({"type": "chat_mute", "user": -1, "muted": True}, "not_found", "not_found"),
    ({"type": "chat_mute", "user": 1.5, "muted": True}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": True, "muted": True}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": 2**31 - 1, "muted": True}, "not_found", "not_found"),  # nobody
    ({"type": "chat_mute", "user": OTHER}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": OTHER, "muted": "yes"}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": OTHER, "muted": None}, "bad_message", "bad_message"),
    ({"type": "chat_mute", "user": OTHER, "muted": [1]}, "bad_message", "bad_message"),
    ({"type": "chat_remove"}, "bad_message", "bad_message"),
    ({"type": "chat_remove", "message": "x"}, "bad_message", "bad_message"),
    ({"type": "chat_remove", "message": [1]}, "bad_message", "bad_message"),
    ({"type": "chat_remove", "message": 1.5}, "bad_message", "bad_message"),
    ({"type": "chat_remove", "message": 10**30}, "not_found", "bad_message"),  # past any column's range
    ({"type": "chat_remove", "message": -5}, "not_found", "bad_message"),
    ({"type": "chat_history", "before": "x", "channel": ["x"], "id": {}}, "chat_history", "chat_history"),
]


@pytest.mark.parametrize("socket_kind", ["lobby", "match"])
async def test_chat_messages_with_malformed_fields_get_their_codes(socket_kind):
    host, guest = await make_users(2, "mal")
    if socket_kind == "lobby":
        path = f"/ws/lobbies/{(await open_lobby(host, guest)).pk}/"
    else:
        path = f"/ws/matches/{await create('condottiere', [host, guest])}/"
    socket = Socket(path, await token_for(host))
    await socket.open()
    got = []
    for message, lobby_answer, match_answer in MALFORMED:
        message = {k: guest.pk if v is OTHER else v for k, v in message.items()}
        answer = await socket.answer(message)
        got.append((message, answer["code"] if answer["type"] == "error" else answer["type"]))
    wanted = [(m, lobby_answer if socket_kind == "lobby" else match_answer)
              for (m, _), (_, lobby_answer, match_answer) in zip(got, MALFORMED)]
    assert got == wanted
    assert (await socket.answer({"type": "chat_history"}))["type"] == "chat_history"  # still up
    await socket.comm.disconnect()
