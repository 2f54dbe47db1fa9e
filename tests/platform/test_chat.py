"""Chat over the match and lobby sockets (docs/api.md, Chat): delivery, who reads
which channel, limits, plain text, mutes, removal and history, through the real
ASGI app (PostgreSQL and Redis when DATABASE_URL and REDIS_URL point at them).

A frame that must not arrive is checked without waiting on a clock: the viewer
then receives a later message that went out after it, in the same order every
viewer is served in, and the frames received up to that one are inspected."""

from __future__ import annotations

import asyncio
import json
import os

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from backend.asgi import application
from backend.chat.models import ChatMessage, ChatMute
from backend.matches.runtime import MatchHub
from tests.support.servers import Daphne, database_url, manage, server_env
from tests.support.wsclient import WebSocket

from .match_support import BROWSER, Player, create, db_match, make_users, token_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.CHAT_RATE = 1000
    return match_env


async def chat(viewer, text: str, **extra) -> None:
    await viewer.send({"type": "chat", "text": text, **extra})


async def said(viewer, text: str) -> dict:
    """The next chat line `viewer` receives, which must be `text`."""
    frame = await viewer.next("chat", "error")
    assert frame["type"] == "chat" and frame["message"]["text"] == text, frame
    return frame["message"]


async def heard(viewer, text: str) -> dict:
    """Chat lines until `text` (those before it were checked elsewhere)."""
    while True:
        frame = await viewer.next("chat")
        if frame["message"]["text"] == text:
            return frame["message"]


def texts(viewer) -> list[str]:
    return [m["message"]["text"] for m in map(json.loads, viewer.raw) if m["type"] == "chat"]


async def table(n_players: int = 2, game: str = "condottiere", spectators: int = 1):
    """A match with its players and signed-in spectators connected, each past its chat history."""
    users = await make_users(n_players + spectators)
    match_id = await create(game, users[:n_players])
    viewers = []
    for user in users:
        viewer = Player(application, match_id, await token_for(user))
        await viewer.connect()
        await viewer.send({"type": "chat_history"})
        history = await viewer.next("chat_history")
        assert history["messages"] == []
        viewers.append(viewer)
    return match_id, users, viewers


async def test_players_and_spectators_each_hear_their_channel_and_a_spectator_never_reaches_a_player():
    match_id, users, (p0, p1, watcher) = await table()
    version = p0.state["version"]
    await chat(p0, "good luck")
    for viewer in (p0, p1, watcher):  # spectators read the table
        message = await said(viewer, "good luck")
        assert message["channel"] == "table" and message["author"] == {"id": users[0].pk, "name": users[0].username}
        assert set(message) == {"id", "channel", "author", "text", "at"}  # what people typed and who: nothing of the match
    await chat(watcher, "p1 should play the drummer")
    assert (await said(watcher, "p1 should play the drummer"))["channel"] == "spectators"
    await chat(p1, "thanks")
    for viewer in (p0, p1, watcher):
        await said(viewer, "thanks")
    for player in (p0, p1):  # what each player received up to the later line: no spectators' words
        assert texts(player) == ["good luck", "thanks"]
        assert "drummer" not in "".join(player.raw)
    assert texts(watcher) == ["good luck", "p1 should play the drummer", "thanks"]
    # Talking moves nothing in the match.
    assert (await db_match(match_id)).version == version
    for viewer in (p0, p1, watcher):
        await viewer.close()


async def test_after_the_match_the_players_may_read_the_spectators(fake_game):
    users = await make_users(3)
    match_id = await create("counting", users[:2])
    p0 = Player(application, match_id, await token_for(users[0]))
    watcher = Player(application, match_id, await token_for(users[2]))
    for viewer in (p0, watcher):
        await viewer.connect()
        await viewer.send({"type": "chat_history"})
        await viewer.next("chat_history")
    await chat(watcher, "from the stands")
    await said(watcher, "from the stands")
    await chat(p0, "hello")
    await said(p0, "hello")
    assert texts(p0) == ["hello"]
    from backend.matches import services as matches

    await database_sync_to_async(matches.abort)(users[0], match_id)
    await MatchHub.current().wake(match_id)
    await p0.until_version(1)
    assert p0.state["status"] == "aborted"
    await p0.send({"type": "chat_history"})
    history = await p0.next("chat_history")
    assert [(m["channel"], m["text"]) for m in history["messages"]] == [("spectators", "from the stands"),
                                                                        ("table", "hello")]
    await chat(watcher, "gg")  # and live from now on
    await said(p0, "gg")
    for viewer in (p0, watcher):
        await viewer.close()


async def test_anonymous_spectators_read_but_may_not_write():
    match_id, _users, (p0, p1, watcher) = await table()
    visitor = Player(application, match_id)
    await visitor.connect()
    await visitor.send({"type": "chat_history"})
    await visitor.next("chat_history")
    await chat(visitor, "hi all", id="c1")
    error = await visitor.next("error")
    assert (error["code"], error["id"]) == ("unauthenticated", "c1")
    await chat(p0, "who is there?")
    await said(visitor, "who is there?")
    await said(p1, "who is there?")
    assert texts(p1) == ["who is there?"]
    assert await database_sync_to_async(ChatMessage.objects.count)() == 1
    for viewer in (p0, p1, watcher, visitor):
        await viewer.close()


async def test_length_emptiness_and_type_are_refused_with_their_codes(settings):
    _match_id, _users, (p0, p1, watcher) = await table()
    await chat(p0, "x" * (settings.CHAT_MAX_CHARS + 1), id="long")
    assert {"code": "chat_too_long", "id": "long"}.items() <= (await p0.next("error")).items()
    await chat(p0, " \n\t ", id="blank")
    assert (await p0.next("error"))["code"] == "chat_empty"
    await p0.send({"type": "chat", "text": ["not", "text"], "id": "list"})
    assert (await p0.next("error"))["code"] == "bad_message"
    await chat(p0, "y" * settings.CHAT_MAX_CHARS)  # the limit itself is allowed
    await said(p1, "y" * settings.CHAT_MAX_CHARS)
    assert texts(p1) == ["y" * settings.CHAT_MAX_CHARS]
    for viewer in (p0, p1, watcher):
        await viewer.close()


async def test_markup_travels_as_plain_text_and_control_characters_become_spaces():
    _match_id, _users, (p0, p1, watcher) = await table()
    markup = '<img src=x onerror="alert(1)"><b>bold</b> & "quotes"'
    await chat(p0, markup)
    assert (await said(p1, markup))["text"] == markup  # stored and sent as typed, for textContent
    await chat(p0, "one\nline\u0007 \ud800")
    await said(p1, "one line  \ufffd")
    stored = await database_sync_to_async(lambda: list(ChatMessage.objects.order_by("id")
                                                       .values_list("text", flat=True)))()
    assert stored == [markup, "one line  \ufffd"]
    for viewer in (p0, p1, watcher):
        await viewer.close()


async def test_the_rate_limit_holds_per_user_across_sockets(settings):
    settings.CHAT_RATE, settings.CHAT_RATE_WINDOW_S = 3, 60
    match_id, users, (p0, p1, watcher) = await table()
    second_tab = Player(application, match_id, await token_for(users[0]))
    await second_tab.connect()
    for i in range(2):
        await chat(p0, f"m{i}")
        await said(p0, f"m{i}")
    await chat(second_tab, "m2")
    await heard(second_tab, "m2")
    await chat(second_tab, "m3", id="over")
    error = await second_tab.next("error")
    assert (error["code"], error["id"]) == ("chat_rate_limited", "over")
    await chat(p0, "m4")
    assert (await p0.next("error"))["code"] == "chat_rate_limited"
    await chat(p1, "others still talk")
    await heard(p0, "others still talk")
    assert texts(p0)[-1] == "others still talk" and "m3" not in texts(p0) and "m4" not in texts(p0)
    for viewer in (p0, p1, watcher, second_tab):
        await viewer.close()


async def test_a_mute_hides_that_author_for_the_muter_only_and_is_kept():
    match_id, users, (p0, p1, watcher) = await table(n_players=3, spectators=0)
    p2 = watcher  # the third player
    await p0.send({"type": "chat_mute", "user": users[1].pk, "muted": True})
    assert await p0.next("chat_muted") == {"type": "chat_muted", "user": users[1].pk, "name": users[1].username,
                                          "muted": True}
    await chat(p1, "you cannot hear me")
    await said(p2, "you cannot hear me")
    await chat(p2, "but me")
    await said(p0, "but me")
    assert texts(p0) == ["but me"]
    assert await database_sync_to_async(ChatMute.objects.filter(user=users[0], muted=users[1]).exists)()
    # A new connection reads the mute with the history: the muted line is not in it.
    await p0.close()
    again = Player(application, match_id, await token_for(users[0]))
    await again.connect()
    await again.send({"type": "chat_history"})
    history = await again.next("chat_history")
    assert [m["text"] for m in history["messages"]] == ["but me"] and history["muted"] == [{"id": users[1].pk,
                                                                                      "name": users[1].username}]
    # A connection that never asks for the history reads the mutes when the first line comes.
    quiet = Player(application, match_id, await token_for(users[0]))
    await quiet.connect()
    await chat(p1, "still muted")
    await heard(p2, "still muted")
    await chat(p2, "p2 again")
    await said(quiet, "p2 again")
    assert texts(quiet) == ["p2 again"]
    await quiet.close()
    await again.send({"type": "chat_mute", "user": users[0].pk, "muted": True})
    assert (await again.next("error"))["code"] == "bad_message"  # not oneself
    await again.send({"type": "chat_mute", "user": users[1].pk, "muted": False})
    await again.next("chat_muted")
    await chat(p1, "heard again")
    await said(again, "heard again")
    for viewer in (again, p1, p2):
        await viewer.close()


async def test_history_on_reconnect_is_the_newest_messages_in_order(settings):
    settings.CHAT_HISTORY = 3
    match_id, users, (p0, p1, watcher) = await table()
    for i in range(5):
        await chat(p0, f"line {i}")
        await said(p0, f"line {i}")
    await chat(watcher, "spectating")
    await heard(watcher, "spectating")
    await p1.close()
    p1 = Player(application, match_id, await token_for(users[1]))
    await p1.connect()
    await p1.send({"type": "chat_history"})
    history = await p1.next("chat_history")
    assert [m["text"] for m in history["messages"]] == ["line 2", "line 3", "line 4"]  # no spectators' line
    await watcher.close()
    watcher = Player(application, match_id, await token_for(users[2]))
    await watcher.connect()
    await watcher.send({"type": "chat_history"})
    assert [m["text"] for m in (await watcher.next("chat_history"))["messages"]] == ["line 3", "line 4",
                                                                                    "spectating"]
    for viewer in (p0, p1, watcher):
        await viewer.close()


async def test_staff_remove_a_message_in_the_admin_and_the_table_is_told():
    match_id, users, (p0, p1, watcher) = await table()
    await chat(p1, "something rude")
    message = await said(p0, "something rude")
    await said(watcher, "something rude")

    @database_sync_to_async
    def remove_in_admin():
        from django.contrib.auth import get_user_model

        staff = get_user_model().objects.create_superuser("staff-chat", "s@example.org", "x-very-long-pass-1")
        client = Client()
        client.force_login(staff)
        listing = client.get("/admin/chat/chatmessage/")
        assert listing.status_code == 200 and b"something rude" in listing.content
        response = client.post("/admin/chat/chatmessage/", {"action": "remove_messages",
                                                            "_selected_action": [message["id"]]})
        assert response.status_code == 302

    await remove_in_admin()
    for viewer in (p0, p1, watcher):
        assert await viewer.next("chat_removed") == {"type": "chat_removed", "id": message["id"], "channel": "table"}
    await p0.close()
    p0 = Player(application, match_id, await token_for(users[0]))
    await p0.connect()
    await p0.send({"type": "chat_history"})
    assert (await p0.next("chat_history"))["messages"] == []
    for viewer in (p0, p1, watcher):
        await viewer.close()


# ---- lobby rooms ------------------------------------------------------------------
class Room:
    """A lobby room socket that keeps every frame."""

    def __init__(self, lobby_id: int, token: str | None = None, code: str | None = None):
        headers = BROWSER + ([(b"authorization", f"Token {token}".encode())] if token else [])
        query = f"?code={code}" if code else ""
        self.comm = WebsocketCommunicator(application, f"/ws/lobbies/{lobby_id}/{query}", headers=headers)
        self.raw: list[str] = []

    async def connect(self) -> dict:
        connected, _ = await self.comm.connect()
        assert connected
        await self.next("lobby")
        await self.send({"type": "chat_history"})
        return await self.next("chat_history")

    async def next(self, *types: str) -> dict:
        while True:
            text = await self.comm.receive_from(timeout=5)
            self.raw.append(text)
            message = json.loads(text)
            if message["type"] in types:
                return message

    async def send(self, message: dict) -> None:
        await self.comm.send_to(text_data=json.dumps(message))

    async def close(self) -> None:
        await self.comm.disconnect()


@database_sync_to_async
def open_lobby(host, *joiners, private: bool = False):
    from backend.lobbies import services as lobbies

    lobby = lobbies.create_lobby(host, "condottiere", {}, 3, private)
    for user in joiners:
        lobbies.join(user, lobby.pk, lobby.invite_code or None)
    return lobby


async def test_a_lobby_room_talks_and_its_host_removes_a_message():
    host, guest, passer_by = await make_users(3, "l")
    lobby = await open_lobby(host, guest)
    rooms = [Room(lobby.pk, await token_for(u)) for u in (host, guest, passer_by)]
    visitor = Room(lobby.pk)
    for room in rooms + [visitor]:
        assert (await room.connect())["messages"] == []
    h, g, _p = rooms
    await g.send({"type": "chat", "text": "<i>ready</i>"})
    for room in rooms + [visitor]:
        frame = await room.next("chat")
        assert frame["message"]["text"] == "<i>ready</i>" and frame["message"]["channel"] == "lobby"
    line = frame["message"]
    await visitor.send({"type": "chat", "text": "me too", "id": "v"})
    assert (await visitor.next("error"))["code"] == "unauthenticated"
    await g.send({"type": "chat_remove", "message": line["id"]})
    assert (await g.next("error"))["code"] == "forbidden"  # only the host
    await h.send({"type": "chat_remove", "message": line["id"]})
    for room in rooms + [visitor]:
        assert await room.next("chat_removed") == {"type": "chat_removed", "id": line["id"], "channel": "lobby"}
    await h.send({"type": "action"})
    assert (await h.next("error"))["code"] == "bad_message"
    late = Room(lobby.pk, await token_for(passer_by))
    assert (await late.connect())["messages"] == []
    for room in rooms + [visitor, late]:
        await room.close()


async def test_a_lobby_mute_and_a_kicked_user():
    host, guest, other = await make_users(3, "k")
    lobby = await open_lobby(host, guest, other)
    h, g, o = [Room(lobby.pk, await token_for(u)) for u in (host, guest, other)]
    for room in (h, g, o):
        await room.connect()
    await h.send({"type": "chat_mute", "user": guest.pk, "muted": True})
    await h.next("chat_muted")
    await g.send({"type": "chat", "text": "muted words"})
    await o.next("chat")
    await o.send({"type": "chat", "text": "plain words"})
    assert (await h.next("chat"))["message"]["text"] == "plain words"
    assert "muted words" not in "".join(h.raw)
    from backend.lobbies import services as lobbies

    await database_sync_to_async(lobbies.kick)(host, lobby.pk, other.pk)
    await o.send({"type": "chat", "text": "let me back", "id": "k"})
    assert (await o.next("error"))["code"] == "forbidden"
    for room in (h, g, o):
        await room.close()


async def test_a_private_lobby_chat_needs_the_code():
    host, outsider = await make_users(2, "q")
    lobby = await open_lobby(host, private=True)
    comm = WebsocketCommunicator(application, f"/ws/lobbies/{lobby.pk}/",
                                 headers=BROWSER + [(b"authorization", f"Token {await token_for(outsider)}".encode())])
    connected, _ = await comm.connect()
    assert connected
    assert json.loads(await comm.receive_from())["code"] == "forbidden"
    await comm.disconnect()
    with_code = Room(lobby.pk, await token_for(outsider), code=lobby.invite_code)
    await with_code.connect()
    await with_code.send({"type": "chat", "text": "may I join?"})
    assert (await with_code.next("chat"))["message"]["text"] == "may I join?"
    await with_code.close()


# ---- across server processes ----------------------------------------------------------
TWO_PLAYERS_AND_A_WATCHER = """
import json, uuid
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from backend.matches.services import create_match
User = get_user_model()
users = [User.objects.create_user(username=f"chat{i}-{uuid.uuid4().hex[:6]}", password="x-long-pass-123") for i in range(3)]
match = create_match("condottiere", {}, users[:2], 13, True)
print(json.dumps({"match": match.pk, "tokens": [Token.objects.create(user=u).key for u in users]}))
"""


async def _remote_chat(ws, received: list) -> dict:
    """The next chat frame on a raw socket; every chat text it passes on the way is kept in `received`."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "chat":
            received.append(message["message"]["text"])
            return message["message"]
        if message["type"] == "chat_history":
            received += [m["text"] for m in message["messages"]]


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="processes share a channel layer only through Redis")
async def test_lines_cross_server_processes_and_the_spectators_stay_apart(tmp_path):
    from django.db import connection

    env = server_env(database_url(connection.settings_dict, tmp_path / "db.sqlite3"))
    made = json.loads((await asyncio.to_thread(manage, env, "shell", "-c", TWO_PLAYERS_AND_A_WATCHER))
                      .strip().splitlines()[-1])
    match_id, tokens = made["match"], made["tokens"]
    servers = [await asyncio.to_thread(Daphne, env) for _ in range(2)]
    path = f"/ws/matches/{match_id}/"
    try:
        p0 = await WebSocket.connect("127.0.0.1", servers[0].port, path, headers={"Authorization": f"Token {tokens[0]}"})
        p1, watcher = [await WebSocket.connect("127.0.0.1", servers[1].port, path,
                                               headers={"Authorization": f"Token {tokens[i]}"}) for i in (1, 2)]
        heard = {ws: [] for ws in (p0, p1, watcher)}
        for ws in (p0, p1, watcher):
            await ws.send(json.dumps({"type": "chat_history"}))  # a barrier: the sockets are followed by now
        for ws in (p0, p1, watcher):
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "chat_history":
                pass
        await p0.send(json.dumps({"type": "chat", "text": "across"}))
        for ws in (p0, p1, watcher):
            assert (await _remote_chat(ws, heard[ws]))["text"] == "across"
        await watcher.send(json.dumps({"type": "chat", "text": "from the stands"}))
        assert (await _remote_chat(watcher, heard[watcher]))["text"] == "from the stands"
        await p1.send(json.dumps({"type": "chat", "text": "later"}))
        for ws in (p0, p1, watcher):
            while (await _remote_chat(ws, heard[ws]))["text"] != "later":
                pass
        assert heard[p0] == heard[p1] == ["across", "later"]
        assert heard[watcher] == ["across", "from the stands", "later"]
        for ws in (p0, p1, watcher):
            await ws.close()
    finally:
        for server in servers:
            await asyncio.to_thread(server.stop)
