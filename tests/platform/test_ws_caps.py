"""The caps on match sockets per account and per address (spectators included):
the socket past a cap gets `limit_reached` and close code 4429, the match is
unchanged, and a closed socket frees its place."""

from __future__ import annotations

import pytest

from backend.asgi import application

from .match_support import Player, create, db_match, make_users, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


def _socket(match_id: int, address: str, token: str | None = None, forwarded: str | None = None) -> Player:
    player = Player(application, match_id, token)
    player.comm.scope["client"] = (address, 50000)
    if forwarded is not None:
        player.comm.scope["headers"].append((b"x-forwarded-for", forwarded.encode()))
    return player


async def _admitted(*players: Player) -> None:
    for player in players:
        assert (await player.connect())["type"] == "state"


async def _refused(player: Player) -> dict:
    message = await player.connect()
    assert (message["type"], message["code"]) == ("error", "limit_reached"), message
    assert message["message"]
    assert await player.comm.receive_output(timeout=2) == {"type": "websocket.close", "code": 4429}
    return message


async def test_one_account_opens_a_bounded_number_of_match_sockets(settings):
    settings.MATCH_SOCKETS_PER_USER = 2
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=3)
    first_match = await db_match(match_id)
    other_id = await create("condottiere", users, seed=4)
    token = await token_for(users[0])
    # The cap counts the account's sockets on every match of the process.
    tabs = [Player(application, match_id, token), Player(application, other_id, token)]
    await _admitted(*tabs)
    refused = await _refused(Player(application, match_id, token))
    assert "tabs" in refused["message"]
    # Another account is not held back by this one's sockets.
    other = Player(application, match_id, await token_for(users[1]))
    await _admitted(other)
    after = await db_match(match_id)
    assert (after.version, after.state) == (first_match.version, first_match.state)
    # A closed tab frees its place.
    await tabs[1].close()
    again = Player(application, match_id, token)
    await _admitted(again)
    for p in (tabs[0], other, again):
        await p.close()


async def test_one_address_opens_a_bounded_number_of_sockets_anonymous_spectators_included(settings):
    settings.MATCH_SOCKETS_PER_ADDRESS = 3
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=3)
    here = "203.0.113.7"
    seated = _socket(match_id, here, await token_for(users[0]))
    watchers = [_socket(match_id, here) for _ in range(2)]
    await _admitted(seated, *watchers)
    # A fourth socket from that address is refused, whether anonymous or signed in.
    await _refused(_socket(match_id, here))
    await _refused(_socket(match_id, here, await token_for(users[1])))
    elsewhere = _socket(match_id, "198.51.100.9")
    await watchers[0].close()
    back = _socket(match_id, here)
    await _admitted(elsewhere, back)
    for p in (seated, watchers[1], elsewhere, back):
        await p.close()


async def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(settings):
    settings.MATCH_SOCKETS_PER_ADDRESS = 1
    settings.TRUSTED_PROXY_COUNT = 1
    match_id = await create("condottiere", await make_users(3), seed=3)
    # Every socket arrives from the proxy's address; the cap is per forwarded client.
    proxy = "10.0.0.2"
    one, two = _socket(match_id, proxy, forwarded="203.0.113.7"), _socket(match_id, proxy, forwarded="198.51.100.9")
    await _admitted(one, two)
    # A client cannot dodge the cap by prepending an address of its own.
    await _refused(_socket(match_id, proxy, forwarded="192.0.2.1, 203.0.113.7"))
    for p in (one, two):
        await p.close()
