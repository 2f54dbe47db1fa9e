"""POST /api/matches/<id>/rematch/: one lobby per finished match, same setup, the old players join with one call."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from backend.common.errors import AppError
from backend.lobbies import services
from backend.lobbies.models import Lobby
from backend.matches import store
from backend.matches.models import Match

pytestmark = pytest.mark.django_db

BLITZ = {"kind": "realtime", "bank_s": 300, "increment_s": 5}


def _match(make_user, *, private=True, bots=("random",), status=Match.Status.FINISHED, humans=2):
    """A started match of the counting game (three seats: humans, then bots), as a lobby makes it."""
    users = [make_user() for _ in range(humans)]
    lobby = services.create_lobby(users[0], "counting", {"rounds": 3}, humans + len(bots), private, BLITZ)
    for user in users[1:]:
        services.join(user, lobby.pk, lobby.invite_code)
    for bot in bots:
        services.add_bot(users[0], lobby.pk, bot)
    match = services.start(users[0], lobby.pk)
    Match.objects.filter(pk=match.pk).update(status=status)
    return Match.objects.get(pk=match.pk), users


def _rematch(client, match_id):
    return client.post(f"/api/matches/{match_id}/rematch/")


def _error(response, status, code):
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code and response.json()["message"]


def test_rematch_opens_one_lobby_with_the_same_setup(fake_game, make_user, client_for):
    match, (alice, bob) = _match(make_user)
    response = _rematch(client_for(bob), match.pk)
    assert response.status_code == 201, response.json()
    lobby = response.json()
    assert lobby["game"] == "counting" and lobby["options"] == {"rounds": 3, "fixed_start": None}
    assert lobby["time_control"] == BLITZ and lobby["num_seats"] == 3 and lobby["private"] is True
    assert lobby["host"]["id"] == bob.pk and lobby["rematch_of"] == match.pk and lobby["status"] == "open"
    assert [(s["user"] and s["user"]["id"], s["bot"]) for s in lobby["seats"]] == [
        (bob.pk, None), (None, "random"), (None, None)]
    assert lobby["invite_code"]  # the host sees the code of a private lobby
    assert Match.objects.get(pk=match.pk).rematch_lobby_id == lobby["id"]
    assert APIClient().get(f"/api/matches/{match.pk}/").status_code == 401  # a private match: its players only
    assert client_for(alice).get(f"/api/matches/{match.pk}/").json()["rematch_lobby_id"] == lobby["id"]

    # Asked again, by anyone of the match: the same lobby, not a second one.
    again = _rematch(client_for(alice), match.pk)
    assert again.status_code == 200 and again.json()["id"] == lobby["id"]
    assert _rematch(client_for(bob), match.pk).json()["id"] == lobby["id"]
    assert Lobby.objects.filter(rematch_of=match.pk).count() == 1


def test_old_players_join_a_private_rematch_without_the_code(fake_game, make_user, client_for):
    match, (alice, bob) = _match(make_user)
    lobby = _rematch(client_for(alice), match.pk).json()
    stranger = client_for(make_user())
    _error(stranger.get(f"/api/lobbies/{lobby['id']}/"), 403, "forbidden")
    _error(stranger.post(f"/api/lobbies/{lobby['id']}/join/", {}, format="json"), 403, "forbidden")

    seen = client_for(bob).get(f"/api/lobbies/{lobby['id']}/").json()
    assert seen["rematch_of"] == match.pk and seen["invite_code"] is None
    joined = client_for(bob).post(f"/api/lobbies/{lobby['id']}/join/", {}, format="json")
    assert joined.status_code == 200, joined.json()
    assert [s["user"]["id"] for s in joined.json()["seats"] if s["user"]] == [alice.pk, bob.pk]
    assert joined.json()["invite_code"] == lobby["invite_code"]  # now a member

    started = client_for(alice).post(f"/api/lobbies/{lobby['id']}/start/")
    assert started.status_code == 201
    rematch = Match.objects.get(pk=started.json()["match_id"])
    assert rematch.time_control == BLITZ and rematch.options["rounds"] == 3 and not rematch.public
    assert sorted(filter(None, rematch.seats.values_list("user_id", flat=True))) == sorted([alice.pk, bob.pk])
    assert rematch.seats.filter(bot="random").count() == 1
    # Once started, asking again still answers that lobby (it leads to the new match).
    again = _rematch(client_for(bob), match.pk).json()
    assert again["id"] == lobby["id"] and again["match_id"] == rematch.pk


def test_public_match_gives_a_public_rematch(fake_game, make_user, client_for):
    match, (alice, _bob) = _match(make_user, private=False, bots=())
    lobby = _rematch(client_for(alice), match.pk).json()
    assert lobby["private"] is False and lobby["invite_code"] is None and lobby["num_seats"] == 2
    assert [entry["id"] for entry in APIClient().get("/api/lobbies/").json()] == [lobby["id"]]


def test_a_closed_rematch_lobby_gives_way_to_a_new_one(fake_game, make_user, client_for):
    match, (alice, bob) = _match(make_user)
    first = _rematch(client_for(alice), match.pk).json()
    client_for(alice).post(f"/api/lobbies/{first['id']}/leave/")  # the host leaving closes it
    second = _rematch(client_for(bob), match.pk)
    assert second.status_code == 201 and second.json()["id"] != first["id"]
    assert second.json()["host"]["id"] == bob.pk
    assert Match.objects.get(pk=match.pk).rematch_lobby_id == second.json()["id"]


def test_rematch_refusals(fake_game, make_user, client_for):
    match, (alice, _bob) = _match(make_user)
    _error(_rematch(client_for(make_user()), match.pk), 403, "forbidden")
    _error(_rematch(APIClient(), match.pk), 401, "unauthenticated")
    _error(_rematch(client_for(alice), 999_999), 404, "not_found")
    for status in (Match.Status.ACTIVE, Match.Status.ABORTED):
        other, (player, _) = _match(make_user, status=status)
        _error(_rematch(client_for(player), other.pk), 409, "conflict")
    # The refusals created nothing.
    assert Lobby.objects.filter(rematch_of__isnull=False).count() == 0


def test_a_rematch_of_a_match_played_to_the_end(fake_game, make_user, client_for):
    """The real path: the match finishes through the rules, then its player asks."""
    from backend.engines import get_engine
    from backend.matches import services as matches

    match, (alice, bob) = _match(make_user, bots=(), status=Match.Status.ACTIVE)
    engine = get_engine("counting")
    for i in range(engine.setup(2, {"rounds": 3}, 0)["left"]):
        match.refresh_from_db()
        seat = engine.to_move(store.read_state(match.pk))[0]  # the row's state: that of a version every few
        matches.apply_action(match.pk, seat, match.version, {"type": "say", "n": 1}, f"a{i}")
    match.refresh_from_db()
    assert match.status == "finished"
    assert _rematch(client_for(alice), match.pk).status_code == 201


@pytest.mark.django_db(transaction=True)
def test_two_players_asking_at_once_get_one_lobby(fake_game, make_user):
    if connection.vendor == "sqlite":
        pytest.skip("needs PostgreSQL (in-memory SQLite cannot queue concurrent writers)")
    match, (alice, bob) = _match(make_user)
    barrier = threading.Barrier(2)
    outcomes = []

    def ask(user):
        try:
            barrier.wait()
            lobby, created = services.rematch(user, match.pk)
            outcomes.append((lobby.pk, created))
        except AppError as exc:  # pragma: no cover - a failure shows in the assertion below
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(u,)) for u in (alice, bob)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(created for _pk, created in outcomes) == [False, True]
    assert len({pk for pk, _created in outcomes}) == 1
    assert Lobby.objects.filter(rematch_of=match.pk).count() == 1


def test_a_lobby_stored_meanwhile_wins_and_the_loser_leaves_nothing(fake_game, make_user, monkeypatch):
    """Where rows are not locked, another call may store its lobby between this one's read and write."""
    match, (alice, bob) = _match(make_user)
    winner, _ = services.rematch(alice, match.pk)
    Match.objects.filter(pk=match.pk).update(rematch_lobby_id=None)
    real_engine = services._engine

    def engine_after_a_racer(game):
        # Runs after this call read the match: the other call stores its lobby now.
        Match.objects.filter(pk=match.pk).update(rematch_lobby_id=winner.pk)
        return real_engine(game)

    monkeypatch.setattr(services, "_engine", engine_after_a_racer)
    lobby, created = services.rematch(bob, match.pk)
    assert (lobby.pk, created) == (winner.pk, False)
    assert list(Lobby.objects.filter(rematch_of=match.pk).values_list("pk", flat=True)) == [winner.pk]


@pytest.mark.django_db(transaction=True)
async def test_an_old_player_watches_the_private_rematch_room_without_the_code(fake_game, make_user):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator
    from rest_framework.authtoken.models import Token

    from backend.asgi import application

    match, (alice, bob) = await database_sync_to_async(_match)(make_user)
    lobby, _ = await database_sync_to_async(services.rematch)(alice, match.pk)
    token = (await database_sync_to_async(Token.objects.get_or_create)(user=bob))[0].key
    room = WebsocketCommunicator(application, f"/ws/lobbies/{lobby.pk}/",
                                 headers=[(b"host", b"testserver"), (b"origin", b"http://testserver"),
                                          (b"authorization", f"Token {token}".encode())])
    assert (await room.connect())[0]
    first = await room.receive_json_from()
    assert first["type"] == "lobby" and first["lobby"]["invite_code"] is None
    await database_sync_to_async(services.join)(bob, lobby.pk)
    joined = await room.receive_json_from()
    assert joined["type"] == "lobby" and joined["lobby"]["invite_code"] == lobby.invite_code
    await database_sync_to_async(services.leave)(bob, lobby.pk)
    left = await room.receive_json_from()  # no longer seated, still a player of the old match: not shut out
    assert left["type"] == "lobby" and left["lobby"]["invite_code"] is None
    await room.disconnect()
