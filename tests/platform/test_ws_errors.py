"""Every WebSocket error code, provoked; the match is unchanged afterwards. Plus permissions."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from backend.asgi import application

from .match_support import BROWSER, Player, create, db_match, log_rows, make_users, new_id, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


async def _table(public: bool = True):
    users = await make_users(4)
    match_id = await create("condottiere", users[:3], seed=3, public=public)
    seats = [Player(application, match_id, await token_for(u)) for u in users[:3]]
    for p in seats:
        await p.connect()
    mover = next(p for p in seats if p.state["legal_actions"])
    waiting = next(p for p in seats if not p.state["legal_actions"])
    return match_id, seats, mover, waiting, users[3]


async def _unchanged(match_id: int, before) -> None:
    after = await db_match(match_id)
    assert (after.version, after.state, after.status) == (before.version, before.state, before.status)
    assert len(await log_rows(match_id)) == before.version


async def _error(player: Player) -> dict:
    message = await player.next("error", "state")
    assert message["type"] == "error", message
    return message


async def test_each_error_code_leaves_the_match_unchanged(settings):
    match_id, seats, mover, waiting, outsider = await _table()
    # One real action first, so "unchanged" means version 1, not a pristine match.
    await mover.act(mover.state["legal_actions"][0])
    for p in seats:
        await p.until_version(1)
    mover = next(p for p in seats if p.state["legal_actions"])
    waiting = next(p for p in seats if not p.state["legal_actions"])
    before = await db_match(match_id)

    client_id = await mover.act({"type": "play", "card": "no-such-card"})
    error = await _error(mover)
    assert (error["code"], error["id"]) == ("bad_message", client_id) and error["message"]  # not a card at all
    missing = next(c for c in ("m10", "m6", "m5", "m4", "m3", "m2", "m1", "heroine", "winter")
                   if c not in mover.state["view"]["hand"])
    client_id = await mover.act({"type": "play", "card": missing})
    error = await _error(mover)
    assert (error["code"], error["id"]) == ("illegal_action", client_id) and error["message"]  # a card, not held

    client_id = await mover.act(mover.state["legal_actions"][0], version=0)
    assert (await _error(mover))["code"] == "stale_version"
    await mover.act(mover.state["legal_actions"][0], version=7)
    assert (await _error(mover))["code"] == "stale_version"

    await waiting.act({"type": "pass"})
    assert (await _error(waiting))["code"] == "not_your_turn"

    for bad in ["not json", "[1, 2]", json.dumps({"type": "dance"}), json.dumps({"type": "action", "version": 1}),
                json.dumps({"type": "action", "version": "1", "id": "a", "action": {}}),
                json.dumps({"type": "action", "version": 1, "id": "x" * 65, "action": {"type": "pass"}}),
                json.dumps({"type": "action", "version": 1, "id": "a", "action": "pass"})]:
        await mover.send(bad)
        assert (await _error(mover))["code"] == "bad_message", bad

    await mover.send(json.dumps({"type": "sync", "pad": "x" * (16 * 1024)}))
    assert (await _error(mover))["code"] == "too_large"

    anonymous = Player(application, match_id)
    await anonymous.connect()
    await anonymous.act({"type": "pass"})
    assert (await _error(anonymous))["code"] == "unauthenticated"

    onlooker = Player(application, match_id, await token_for(outsider))
    assert (await onlooker.connect())["seat"] is None
    await onlooker.act(mover.state["legal_actions"][0])
    assert (await _error(onlooker))["code"] == "forbidden"
    # Acting for another seat is refused even by a seated player.
    await waiting.send({"type": "action", "version": 1, "id": new_id(), "seat": mover.state["seat"],
                        "action": mover.state["legal_actions"][0]})
    assert (await _error(waiting))["code"] == "forbidden"

    settings.MATCH_WS_RATE, settings.MATCH_WS_BURST = 0.001, 2
    limited = Player(application, match_id, await token_for(outsider))
    await limited.connect()
    for _ in range(3):
        await limited.send({"type": "sync"})
    await limited.next("state")
    await limited.next("state")
    assert (await _error(limited))["code"] == "rate_limited"

    await _unchanged(match_id, before)
    for p in seats + [anonymous, onlooker, limited]:
        await p.close()


async def test_private_match_refuses_strangers_and_anonymous():
    match_id, seats, mover, waiting, outsider = await _table(public=False)
    before = await db_match(match_id)
    for token, code, close in ((None, "unauthenticated", 4401), (await token_for(outsider), "forbidden", 4403)):
        stranger = Player(application, match_id, token)
        message = await stranger.connect()
        assert (message["type"], message["code"]) == ("error", code)
        assert (await stranger.comm.receive_output(timeout=2)) == {"type": "websocket.close", "code": close}
    await _unchanged(match_id, before)
    for p in seats:
        await p.close()


async def test_unknown_match_and_foreign_origin():
    comm = WebsocketCommunicator(application, "/ws/matches/999999/", headers=BROWSER)
    connected, _ = await comm.connect()
    assert connected
    assert json.loads(await comm.receive_from())["code"] == "not_found"
    await comm.disconnect()
    users = await make_users(3)
    match_id = await create("condottiere", users)
    # A foreign page, and the site's host with another scheme or port, are refused
    # like every other refusal: an error message, then close code 4403.
    for origin in (b"http://evil.example", b"https://localhost", b"http://localhost:8080", b"null"):
        evil = WebsocketCommunicator(application, f"/ws/matches/{match_id}/",
                                     headers=[(b"host", b"localhost"), (b"origin", origin)])
        connected, _ = await evil.connect()
        assert connected, origin
        error = json.loads(await evil.receive_from())
        assert (error["type"], error["code"]) == ("error", "forbidden"), origin
        assert await evil.receive_output(timeout=2) == {"type": "websocket.close", "code": 4403}
    # The same origin with its port spelled out, and a client that sends no Origin (not a browser), pass.
    for headers in ([(b"host", b"localhost:80"), (b"origin", b"http://localhost")], [(b"host", b"localhost")]):
        comm = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)
        assert (await comm.connect())[0]
        assert json.loads(await comm.receive_from())["type"] == "state"
        await comm.disconnect()


async def test_errors_come_in_the_connections_language():
    """A Hungarian visitor's socket answers in Hungarian, the engine's refusals included."""
    from django.utils import translation

    users = await make_users(3)
    match_id = await create("condottiere", users, seed=3)
    token = await token_for(users[0])
    hu = Player(application, match_id, token)
    hu.comm.scope["headers"].append((b"cookie", b"django_language=hu"))
    await hu.connect()
    await hu.act({"type": "dance"})  # not an action of the game: the engine's own refusal
    error = await _error(hu)
    en = Player(application, match_id, token)
    await en.connect()
    await en.act({"type": "dance"})
    english = (await _error(en))["message"]
    assert error["code"] == "bad_message" and error["message"] != english
    from backend.engines import IllegalAction, get_engine

    engine = get_engine("condottiere")
    try:
        engine.play(engine.setup(3, {}, 3), 0, {"type": "dance"})
    except IllegalAction as exc:
        refusal = exc
    with translation.override("hu"):  # the catalogue's sentence, the parameters filled in
        assert error["message"] == translation.gettext(refusal.template).format(**refusal.params)
    assert english == refusal.template.format(**refusal.params)
    for p in (hu, en):
        await p.close()


def test_engine_refusals_name_the_pieces_in_the_language():
    from django.utils import translation

    from backend.matches.errors import EngineMessage

    message = EngineMessage("You have no troops in {province}.", {"province": "little_poland"}, "gods_playground")
    with translation.override("hu"):
        assert "Kis-Lengyelország" in str(message)
    with translation.override("en"):
        assert "little_poland" not in str(message) and "Little Poland" in str(message)


async def test_a_ping_is_answered_by_a_pong_and_nothing_else():
    """The web app's heartbeat (docs/api.md, Match WebSocket): a client that heard nothing for a while asks
    whether its connection still carries; the answer is one small frame, with no state and no database read."""
    match_id, seats, mover, waiting, outsider = await _table()
    before = await db_match(match_id)
    for player in (waiting, Player(application, match_id)):
        if player.state is None:
            await player.connect()
        await player.send({"type": "ping"})
        heard = len(player.raw)
        assert await player.next("pong", "state", "error") == {"type": "pong"}
        while not await player.silent(0.3):  # presence may change meanwhile (a spectator came); nothing else
            await player.next("presence")
        assert [json.loads(t)["type"] for t in player.raw[heard:] if json.loads(t)["type"] != "presence"] == ["pong"]
        await player.close()
    await _unchanged(match_id, before)
    for p in seats:
        await p.close()
