"""One account cannot fill the lobby list: caps on open lobbies hosted and sat in."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _create(client):
    return client.post("/api/lobbies/", {"game": "counting", "options": {}, "num_seats": 2, "private": False},
                       format="json")


def test_an_account_hosts_a_few_open_lobbies_at_a_time(fake_game, make_user, client_for, settings):
    settings.LOBBY_MAX_HOSTED, settings.LOBBY_MAX_SEATED = 3, 8
    me = client_for(make_user())
    made = [_create(me) for _ in range(3)]
    assert [r.status_code for r in made] == [201] * 3
    refused = _create(me)
    assert refused.status_code == 429 and refused.json()["code"] == "limit_reached"
    assert "3" in refused.json()["message"]
    # Closing one makes room again.
    assert me.post(f"/api/lobbies/{made[0].json()['id']}/leave/").status_code == 200
    assert _create(me).status_code == 201


def test_an_account_sits_in_a_bounded_number_of_open_lobbies(fake_game, make_user, client_for, settings):
    settings.LOBBY_MAX_HOSTED, settings.LOBBY_MAX_SEATED = 3, 4
    hosts = [client_for(make_user()) for _ in range(6)]
    lobbies = [_create(h).json()["id"] for h in hosts]
    guest = client_for(make_user())
    answers = [guest.post(f"/api/lobbies/{i}/join/", {}, format="json") for i in lobbies]
    assert [a.status_code for a in answers] == [200] * 4 + [429] * 2
    assert answers[-1].json()["code"] == "limit_reached"
    # Hosting counts too: seated in four, the guest may not open a fifth.
    assert _create(guest).json()["code"] == "limit_reached"
    # A started lobby no longer counts.
    assert guest.post(f"/api/lobbies/{lobbies[0]}/leave/").status_code == 200
    assert guest.post(f"/api/lobbies/{lobbies[4]}/join/", {}, format="json").status_code == 200
