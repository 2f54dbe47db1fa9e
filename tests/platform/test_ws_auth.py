"""How sockets authenticate: the session cookie (browsers), an Authorization
header or a single-use ticket (scripts); never a long-lived token in the URL."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from backend.asgi import application

from .match_support import BROWSER, create, make_users, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


async def _seat(match_id: int, path_suffix: str = "", headers=()) -> tuple[int | None, dict]:
    comm = WebsocketCommunicator(application, f"/ws/matches/{match_id}/{path_suffix}", headers=BROWSER + list(headers))
    assert (await comm.connect())[0]
    first = json.loads(await comm.receive_from())
    await comm.disconnect()
    return first.get("seat"), first


async def _ticket(client) -> str:
    response = await database_sync_to_async(client.post)("/api/auth/ws-ticket/")
    assert response.status_code == 200, response.content
    assert response.json()["expires_in"] > 0
    return response.json()["ticket"]


async def test_a_header_token_or_a_ticket_seats_a_script_and_a_url_token_does_not(client_for):
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=3)
    token = await token_for(users[1])
    assert (await _seat(match_id, headers=[(b"authorization", f"Token {token}".encode())]))[0] == 1
    # A token in the URL ends up in proxy logs: it is not a credential.
    assert (await _seat(match_id, f"?token={token}"))[0] is None
    client = await database_sync_to_async(client_for)(users[2])
    ticket = await _ticket(client)
    assert (await _seat(match_id, f"?ticket={ticket}"))[0] == 2
    # Single use: the same ticket again is nobody.
    assert (await _seat(match_id, f"?ticket={ticket}"))[0] is None
    # A wrong header or ticket is anonymous, never a fallback to the cookie.
    assert (await _seat(match_id, "?ticket=forged"))[0] is None
    assert (await _seat(match_id, headers=[(b"authorization", b"Bearer x")]))[0] is None


async def test_tickets_are_for_signed_in_callers(api_client):
    response = await database_sync_to_async(api_client.post)("/api/auth/ws-ticket/")
    assert response.status_code == 401 and response.json()["code"] == "unauthenticated"
