"""Idle open lobbies expire: lazily when lobbies are read or changed, and by
`manage.py expire_lobbies`; rooms and the open list hear of it live."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db.models import F

from backend.common.errors import AppError
from backend.lobbies import services
from backend.lobbies.models import Lobby

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _hour(settings):
    settings.LOBBY_IDLE_MINUTES = 60


def _age(lobby_id: int, minutes: float) -> None:
    """Move the lobby's idle clock back, as if `minutes` passed with nothing happening."""
    Lobby.objects.filter(pk=lobby_id).update(last_active_at=F("last_active_at") - timedelta(minutes=minutes))


def _create(client, **overrides):
    body = {"game": "counting", "options": {}, "num_seats": 3, "private": False, **overrides}
    r = client.post("/api/lobbies/", body, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def _expired_refusal(response):
    assert response.status_code == 409, response.json()
    body = response.json()
    assert body["code"] == "conflict" and "expired after 60 minutes without activity" in body["message"]


def _listed(client, query=""):
    return [entry["id"] for entry in client.get(f"/api/lobbies/{query}").json()]


def test_listing_hides_idle_lobbies_and_marks_them_expired(fake_game, make_user, client_for):
    host = client_for(make_user())
    idle, fresh = _create(host), _create(host)
    idle_private = _create(host, private=True)
    _age(idle["id"], 61)
    _age(idle_private["id"], 61)
    _age(fresh["id"], 59)
    assert _listed(host) == [fresh["id"]]
    assert _listed(host, "?mine=1") == [fresh["id"]]
    stored = Lobby.objects.get(pk=idle["id"])
    assert stored.status == "expired" and stored.version == idle["version"] + 1
    seen = host.get(f"/api/lobbies/{idle['id']}/").json()
    assert seen["status"] == "expired" and len([s for s in seen["seats"] if s["user"]]) == 1  # nothing else lost
    assert Lobby.objects.get(pk=fresh["id"]).status == "open"


def test_fetching_one_idle_lobby_expires_it(fake_game, make_user, client_for):
    host = client_for(make_user())
    lobby = _create(host)
    _age(lobby["id"], 61)
    assert host.get(f"/api/lobbies/{lobby['id']}/").json()["status"] == "expired"


def test_join_and_start_of_an_idle_lobby_are_refused_as_expired(fake_game, make_user, client_for):
    host_user = make_user()
    host, guest = client_for(host_user), client_for(make_user())
    lobby = _create(host, num_seats=2)
    assert host.post(f"/api/lobbies/{lobby['id']}/bots/", {"bot": "random"}, format="json").status_code == 200
    # Nobody listed it in between: the action itself notices the idle clock.
    _age(lobby["id"], 61)
    _expired_refusal(host.post(f"/api/lobbies/{lobby['id']}/start/"))
    _expired_refusal(guest.post(f"/api/lobbies/{lobby['id']}/join/", {}, format="json"))
    stored = Lobby.objects.get(pk=lobby["id"])
    assert stored.status == "expired" and stored.match_id is None and stored.seats.count() == 2
    # The refusal comes from the stored status too, not just from the clock.
    with pytest.raises(AppError) as refused:
        services.join(make_user(), lobby["id"])
    assert refused.value.code == "conflict" and "expired" in refused.value.message


def test_a_closed_lobby_is_not_called_expired(fake_game, make_user, client_for):
    host, guest = client_for(make_user()), client_for(make_user())
    lobby = _create(host)
    host.post(f"/api/lobbies/{lobby['id']}/leave/")
    refused = guest.post(f"/api/lobbies/{lobby['id']}/join/", {}, format="json")
    assert refused.status_code == 409 and "expired" not in refused.json()["message"]


def _join(host, guest, guest_id, lobby_id):
    guest.post(f"/api/lobbies/{lobby_id}/join/", {}, format="json")


def _leave(host, guest, guest_id, lobby_id):
    guest.post(f"/api/lobbies/{lobby_id}/leave/")


def _add_bot(host, guest, guest_id, lobby_id):
    host.post(f"/api/lobbies/{lobby_id}/bots/", {"bot": "random"}, format="json")


def _remove_bot(host, guest, guest_id, lobby_id):
    host.delete(f"/api/lobbies/{lobby_id}/bots/2/")


def _kick(host, guest, guest_id, lobby_id):
    host.post(f"/api/lobbies/{lobby_id}/kick/", {"user_id": guest_id}, format="json")


@pytest.mark.parametrize("activity", [_join, _leave, _add_bot, _remove_bot, _kick])
def test_activity_restarts_the_idle_clock(fake_game, make_user, client_for, activity):
    guest_user = make_user()
    host, guest = client_for(make_user()), client_for(guest_user)
    lobby = _create(host)
    if activity in (_leave, _kick):
        _join(host, guest, guest_user.pk, lobby["id"])
    if activity is _remove_bot:
        _add_bot(host, guest, guest_user.pk, lobby["id"])
        _add_bot(host, guest, guest_user.pk, lobby["id"])
    before = host.get(f"/api/lobbies/{lobby['id']}/").json()["version"]
    _age(lobby["id"], 50)
    activity(host, guest, guest_user.pk, lobby["id"])
    assert host.get(f"/api/lobbies/{lobby['id']}/").json()["version"] == before + 1  # the activity happened
    _age(lobby["id"], 50)  # 100 minutes since creation, 50 since the activity
    assert _listed(host) == [lobby["id"]]
    _age(lobby["id"], 11)
    assert _listed(host) == []
    assert Lobby.objects.get(pk=lobby["id"]).status == "expired"


def test_reading_is_not_activity(fake_game, make_user, client_for):
    host = client_for(make_user())
    lobby = _create(host)
    _age(lobby["id"], 50)
    assert _listed(host) == [lobby["id"]]
    assert host.get(f"/api/lobbies/{lobby['id']}/").json()["status"] == "open"
    _age(lobby["id"], 11)
    assert _listed(host) == []


def test_command_expires_idle_open_lobbies_only(fake_game, make_user, settings):
    host, guest = make_user(), make_user()
    idle_public = services.create_lobby(host, "counting", {}, 2, False)
    idle_private = services.create_lobby(host, "counting", {}, 2, True)
    fresh = services.create_lobby(host, "counting", {}, 2, False)
    started = services.create_lobby(host, "counting", {}, 2, False)
    services.join(guest, started.pk)
    services.start(host, started.pk)
    closed = services.create_lobby(host, "counting", {}, 2, False)
    services.leave(host, closed.pk)
    for lobby in (idle_public, idle_private, started, closed):
        _age(lobby.pk, 61)
    _age(fresh.pk, 59)

    out = io.StringIO()
    call_command("expire_lobbies", stdout=out)
    assert "expired 2 lobbies" in out.getvalue()
    status = dict(Lobby.objects.values_list("pk", "status"))
    assert status == {idle_public.pk: "expired", idle_private.pk: "expired", fresh.pk: "open",
                      started.pk: "started", closed.pk: "closed"}
    call_command("expire_lobbies", stdout=(again := io.StringIO()))
    assert "expired 0 lobbies" in again.getvalue()

    # 0 turns expiry off.
    settings.LOBBY_IDLE_MINUTES = 0
    _age(fresh.pk, 10_000)
    call_command("expire_lobbies", stdout=io.StringIO())
    assert _listed_ids() == [fresh.pk]


def _listed_ids():
    return [lobby.pk for lobby in services.open_public_lobbies()]


# ---- live ------------------------------------------------------------------
live = pytest.mark.django_db(transaction=True)


async def _ws(path, *headers):
    from channels.testing import WebsocketCommunicator

    from backend.asgi import application

    comm = WebsocketCommunicator(application, path, headers=[(b"host", b"testserver"), (b"origin", b"http://testserver"),
                                                            *headers])
    connected, _ = await comm.connect()
    assert connected
    return comm


def _db(fn):
    from channels.db import database_sync_to_async

    return database_sync_to_async(fn)


def _token(user):
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key


def _run_command():
    call_command("expire_lobbies", stdout=io.StringIO())


def _someone_lists():
    from rest_framework.test import APIClient

    APIClient().get("/api/lobbies/")


@live
@pytest.mark.parametrize("sweep", [_run_command, _someone_lists])
async def test_room_and_list_sockets_hear_of_the_expiry(fake_game, make_user, sweep):
    host, guest = await _db(make_user)(), await _db(make_user)()
    lobby = await _db(services.create_lobby)(host, "counting", {}, 3, False)
    await _db(services.join)(guest, lobby.pk)
    room = await _ws(f"/ws/lobbies/{lobby.pk}/", (b"authorization", f"Token {await _db(_token)(guest)}".encode()))
    joined = (await room.receive_json_from())["lobby"]
    watcher = await _ws("/ws/lobbies/")
    assert [entry["id"] for entry in (await watcher.receive_json_from())["lobbies"]] == [lobby.pk]

    await _db(_age)(lobby.pk, 61)
    await _db(sweep)()
    expired = await room.receive_json_from()
    assert expired["type"] == "lobby"
    assert expired["lobby"]["status"] == "expired" and expired["lobby"]["version"] == joined["version"] + 1
    assert expired["lobby"]["seats"] == joined["seats"]
    assert (await watcher.receive_json_from())["lobbies"] == []
    # Announced once: a later sweep finds nothing more to say.
    await _db(_run_command)()
    assert await room.receive_nothing(timeout=0.3)
    for comm in (room, watcher):
        await comm.disconnect()
