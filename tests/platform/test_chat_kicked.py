"""A private lobby's room after a kick (docs/api.md, Lobbies and Chat): the user the host kicked can
neither come back nor read the room, however they try (their account with the invite code, signed out
with it, or as a player of the match the lobby rematches), and nothing written after the kick reaches
them; and a lobby socket asked to mute before its history answers the mute (it once failed with
`unavailable`, which means the database is away)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from backend.asgi import application
from backend.lobbies import services as lobbies

from .match_support import BROWSER, make_users, token_for
from .test_chat import Room, open_lobby

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.CHAT_RATE = 1000
    return match_env


async def refused(lobby_id: int, token: str | None, code: str | None) -> tuple[dict, int]:
    """A room socket that is refused: its one error, and the close code; nothing else arrives."""
    headers = BROWSER + ([(b"authorization", f"Token {token}".encode())] if token else [])
    comm = WebsocketCommunicator(application, f"/ws/lobbies/{lobby_id}/" + (f"?code={code}" if code else ""),
                                 headers=headers)
    connected, _ = await comm.connect()
    assert connected
    error = json.loads(await comm.receive_from())
    assert error["type"] == "error", error
    closed = await comm.receive_output()
    assert closed["type"] == "websocket.close"
    await comm.send_to(text_data=json.dumps({"type": "chat_history"}))
    assert await comm.receive_nothing(timeout=0.2)  # a refused socket answers nothing, history included
    await comm.disconnect()
    return error, closed["code"]


async def test_a_kicked_user_with_the_code_neither_rejoins_nor_reads_the_room():
    host, guest, kicked = await make_users(3, "kk")
    lobby = await open_lobby(host, guest, kicked, private=True)
    old_code = lobby.invite_code
    h = Room(lobby.pk, await token_for(host))
    k = Room(lobby.pk, await token_for(kicked), code=old_code)  # came by the link the host shared
    for room in (h, k):
        await room.connect()
    await h.send({"type": "chat", "text": "before the kick"})
    await k.next("chat")

    await database_sync_to_async(lobbies.kick)(host, lobby.pk, kicked.pk)
    # The socket the kicked user holds is told and closed at once, though it came with the code.
    error = await k.next("error")
    assert error["code"] == "forbidden"
    assert (await k.comm.receive_output())["type"] == "websocket.close"
    await h.send({"type": "chat", "text": "after the kick"})
    await h.next("chat")
    assert "after the kick" not in "".join(k.raw)

    # Coming back: with their account and the old code, signed out with it, or with the new code.
    token = await token_for(kicked)
    lobby = await database_sync_to_async(lobbies.load)(lobby.pk)
    assert lobby.invite_code and lobby.invite_code != old_code  # the code the kicked user knows is dead
    for who, code in ((token, old_code), (None, old_code), (token, lobby.invite_code)):
        error, close = await refused(lobby.pk, who, code)
        assert (error["code"], close) == ("forbidden", 4403)
    with pytest.raises(Exception) as refusal:
        await database_sync_to_async(lobbies.join)(kicked, lobby.pk, lobby.invite_code)
    assert refusal.value.code == "forbidden"
    # Nor through the REST API.
    with pytest.raises(Exception) as refusal:
        await database_sync_to_async(lobbies.get_lobby)(lobby.pk, kicked, lobby.invite_code)
    assert refusal.value.code == "forbidden"
    # The members are still in, and new guests come with the new code.
    newcomer, = await make_users(1, "nc")
    n = Room(lobby.pk, await token_for(newcomer), code=lobby.invite_code)
    history = await n.connect()
    assert [m["text"] for m in history["messages"]] == ["before the kick", "after the kick"]
    for room in (h, n):
        await room.close()


async def test_a_watcher_who_came_by_the_old_code_is_shown_out_and_members_stay():
    host, guest, kicked, watcher = await make_users(4, "kw")
    lobby = await open_lobby(host, guest, kicked, private=True)
    g = Room(lobby.pk, await token_for(guest))
    w = Room(lobby.pk, await token_for(watcher), code=lobby.invite_code)
    for room in (g, w):
        await room.connect()
    await database_sync_to_async(lobbies.kick)(host, lobby.pk, kicked.pk)
    assert (await w.next("error", "lobby"))["code"] == "forbidden"  # the code it came with no longer opens the room
    update = await g.next("lobby")
    assert kicked.pk not in {s["user"]["id"] for s in update["lobby"]["seats"] if s["user"]}
    assert update["lobby"]["invite_code"] != lobby.invite_code  # a member gets the new code to share
    await g.close()


async def test_a_kicked_player_of_the_rematched_match_needs_more_than_that():
    from backend.matches.models import Match

    host, kicked = await make_users(2, "kr")

    @database_sync_to_async
    def rematch_lobby():
        from backend.matches.services import create_match

        match = create_match("condottiere", {}, [host, kicked], 7, public=False)
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
        return lobbies.rematch(host, match.pk)[0]

    lobby = await rematch_lobby()
    assert lobby.private
    await database_sync_to_async(lobbies.join)(kicked, lobby.pk)
    k = Room(lobby.pk, await token_for(kicked))
    await k.connect()
    await database_sync_to_async(lobbies.kick)(host, lobby.pk, kicked.pk)
    assert (await k.next("error"))["code"] == "forbidden"
    error, close = await refused(lobby.pk, await token_for(kicked), None)
    assert (error["code"], close) == ("forbidden", 4403)


@pytest.mark.parametrize("muted", [True, False])
async def test_a_mute_before_the_history_is_answered(muted):
    host, guest = await make_users(2, "mb")
    lobby = await open_lobby(host, guest)
    comm = WebsocketCommunicator(application, f"/ws/lobbies/{lobby.pk}/",
                                 headers=BROWSER + [(b"authorization", f"Token {await token_for(host)}".encode())])
    await comm.connect()
    assert json.loads(await comm.receive_from())["type"] == "lobby"
    await comm.send_to(text_data=json.dumps({"type": "chat_mute", "user": guest.pk, "muted": muted, "id": "m"}))
    answer = json.loads(await comm.receive_from())
    assert answer == {"type": "chat_muted", "user": guest.pk, "name": guest.username, "muted": muted}
    # The mute holds for lines that come before any history was asked for.
    g = Room(lobby.pk, await token_for(guest))
    await g.connect()
    await g.send({"type": "chat", "text": "hello host"})
    await g.next("chat")
    await g.send({"type": "chat_history"})
    await g.next("chat_history")
    await comm.send_to(text_data=json.dumps({"type": "chat_history"}))
    frame = json.loads(await comm.receive_from())
    if muted:  # the muted line never came live: the history is the next frame
        assert frame["type"] == "chat_history" and frame["messages"] == []
    else:
        assert frame["type"] == "chat" and frame["message"]["text"] == "hello host"
    await comm.disconnect()
    await g.close()
