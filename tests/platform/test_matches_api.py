"""REST listings of matches and the public event log."""

from __future__ import annotations

import random

import pytest

from backend.matches import services, store

from .match_support import condottiere_policy

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


def _deck():
    from backend.engines.condottiere.cards import STANDARD_DECK

    return list(reversed(STANDARD_DECK))


@pytest.fixture
def table(make_user):
    users = [make_user() for _ in range(4)]
    public = services.create_match("condottiere", {"deck": _deck()}, users[:3], 1, True)
    private = services.create_match("condottiere", {}, users[:3], 2, False)
    return users, public, private


def _play(match, n: int):
    from backend.engines import get_engine

    engine = get_engine("condottiere")
    for i in range(n):
        match.refresh_from_db()
        state = store.read_state(match.pk)  # the row's state is that of a version every few (store.py)
        seat = engine.to_move(state)[0]
        services.apply_action(match.pk, seat, match.version, engine.legal_actions(state, seat)[0], f"a{i}")
    match.refresh_from_db()


def test_my_matches_by_status(table, client_for, api_client):
    users, public, private = table
    public.status = "finished"
    public.save(update_fields=["status"])
    me = client_for(users[0])
    assert {m["id"] for m in me.get("/api/matches/").json()} == {public.pk, private.pk}
    assert [m["id"] for m in me.get("/api/matches/?status=finished").json()] == [public.pk]
    assert [m["id"] for m in me.get("/api/matches/?status=active").json()] == [private.pk]
    assert me.get("/api/matches/?status=bogus").json()["code"] == "bad_message"
    assert client_for(users[3]).get("/api/matches/").json() == []
    response = api_client.get("/api/matches/")
    assert response.status_code == 401 and response.json()["code"] == "unauthenticated"


def test_live_lists_active_public_matches_only(table, api_client):
    users, public, private = table
    live = api_client.get("/api/matches/live/").json()
    assert [m["id"] for m in live] == [public.pk]
    match = live[0]
    assert match["status"] == "active" and match["version"] == 0
    assert [s["seat"] for s in match["seats"]] == [0, 1, 2]
    assert match["seats"][0]["user"]["username"] == users[0].username
    assert "deck" not in match["options"]  # test hooks stay on the server
    assert "state" not in match


def test_detail_and_private_access(table, client_for, api_client):
    users, public, private = table
    assert api_client.get(f"/api/matches/{public.pk}/").json()["id"] == public.pk
    assert api_client.get(f"/api/matches/{private.pk}/").json()["code"] == "unauthenticated"
    assert client_for(users[3]).get(f"/api/matches/{private.pk}/").json()["code"] == "forbidden"
    assert client_for(users[1]).get(f"/api/matches/{private.pk}/").status_code == 200
    assert api_client.get("/api/matches/987654/").json()["code"] == "not_found"
    assert client_for(users[3]).get(f"/api/matches/{private.pk}/events/").status_code == 403


def test_event_log_holds_public_events_only(table, api_client):
    from backend.engines import get_engine
    from backend.matches.models import ActionLog

    users, public, private = table
    _play(public, 8)
    log = api_client.get(f"/api/matches/{public.pk}/events/").json()
    assert log and all({"version", "seat", "text"} <= set(e) for e in log)
    expected = [(r.version, e["text"]) for r in ActionLog.objects.filter(match=public).order_by("version")
                for e in get_engine("condottiere").visible_events(r.events, None)]
    assert [(e["version"], e["text"]) for e in log] == expected
    assert all("to" not in e and "cards" not in e for e in log)


def test_a_client_catching_up_reads_only_the_versions_it_lacks(table, client_for, api_client):
    """After a reconnect the web app asks for the versions between the last it heard and the first state of
    the new connection (docs/api.md, Matches: ?after= and ?upto=); the pieces make up the whole log."""
    users, public, _ = table
    _play(public, 12)
    me = client_for(users[0])
    whole = me.get(f"/api/matches/{public.pk}/events/").json()
    assert {e["version"] for e in whole} >= {1, 12}
    head = me.get(f"/api/matches/{public.pk}/events/?upto=5").json()
    middle = me.get(f"/api/matches/{public.pk}/events/?after=5&upto=9").json()
    tail = me.get(f"/api/matches/{public.pk}/events/?after=9").json()
    assert head and middle and tail
    assert head + middle + tail == whole
    assert {e["version"] for e in middle} <= {6, 7, 8, 9}
    caught_up = api_client.get(f"/api/matches/{public.pk}/events/?after=12")
    assert caught_up.status_code == 200 and caught_up.json() == []
    # Only the rows asked for are read: a long match's catch-up costs what it lacks, not the whole log.
    assert len(tail) < len(whole)
    for bad in ("-1", "x", "1.5", "9" * 12):
        answer = api_client.get(f"/api/matches/{public.pk}/events/?after={bad}")
        assert answer.status_code == 400 and answer.json()["code"] == "bad_message", bad
        assert "after" in answer.json()["message"]
    assert api_client.get(f"/api/matches/{public.pk}/events/?upto=z").json()["code"] == "bad_message"


def test_a_player_reads_their_own_private_lines_and_nobody_elses(table, client_for, api_client):
    """A reload keeps a player's private lines (the cards they drew); another
    seat's and the spectators' logs never hold them."""
    from backend.engines import get_engine
    from backend.matches.models import ActionLog

    users, _, _ = table
    public = services.create_match("condottiere", {"hidden_cards": True}, users[:3], 5, True)
    engine = get_engine("condottiere")
    rng = random.Random(5)
    for step in range(400):  # until every seat has played a card face down, which only it sees
        public.refresh_from_db()
        state = store.read_state(public.pk)
        seat = engine.to_move(state)[0]
        action = condottiere_policy(engine.legal_actions(state, seat), rng)
        services.apply_action(public.pk, seat, public.version, action, f"p{step}")
        rows = list(ActionLog.objects.filter(match=public).order_by("version"))
        if all(any(e.get("to") == [s] for r in rows for e in r.events) for s in range(3)):
            break
    spectator = api_client.get(f"/api/matches/{public.pk}/events/").json()
    assert not any(e.get("private") for e in spectator)
    for seat in range(3):
        log = client_for(users[seat]).get(f"/api/matches/{public.pk}/events/").json()
        expected = [(r.version, e["text"], e.get("to") is not None) for r in rows
                    for e in engine.visible_events(r.events, seat)]
        assert [(e["version"], e["text"], e.get("private", False)) for e in log] == expected
        own = [e for r in rows for e in r.events if e.get("to") == [seat]]
        others = [e for r in rows for e in r.events if e.get("to") is not None and seat not in e["to"]]
        assert own and others  # the deck deals every seat private lines
        assert {e["text"] for e in log if e.get("private")} >= {e["text"] for e in own}
        assert not any("to" in e for e in log)
    # The outsider (no seat) reads what a spectator reads.
    assert client_for(users[3]).get(f"/api/matches/{public.pk}/events/").json() == spectator


def test_the_match_tells_clients_the_absence_grace(table, api_client, settings):
    # Clients count the absent player's grace down before offering the takeover (docs/api.md, Seats).
    _, public, _ = table
    settings.ABSENT_GRACE_S = 7
    assert api_client.get(f"/api/matches/{public.pk}/").json()["absent_grace_s"] == 7
    settings.ABSENT_GRACE_S = 90
    assert api_client.get(f"/api/matches/{public.pk}/").json()["absent_grace_s"] == 90
