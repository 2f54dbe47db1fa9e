"""GET /api/players/<name>/ and /api/leaderboards/<game>/: what they say, what they keep back, and a bounded
number of queries however much a player has played."""

from __future__ import annotations

import pytest

from backend.ratings import services
from backend.ratings.models import Rating

from .test_ratings import _lobby_match, _play_out, _seat_users

pytestmark = pytest.mark.django_db


def _played(users, winner, *, rated=True, private=False):
    match = _lobby_match(users, rated=rated)
    if private:
        match.public = False
        match.save(update_fields=["public"])
    owners = _seat_users(match.pk)
    _play_out(match.pk, says={s: 3 if owners[s] == winner.pk else 1 for s in owners})
    assert services.record(match.pk)
    return match


def test_a_profile_counts_games_ratings_history_and_recent_matches(fake_game, make_user, api_client):
    alice, bob = make_user("Alíz"), make_user()
    first = _played([alice, bob], alice)
    _played([alice, bob], bob)
    last = _played([alice, bob], alice, rated=False)
    body = api_client.get("/api/players/ALÍZ/").json()  # any spelling of the name
    assert body["user"] == {"id": alice.pk, "username": "Alíz"}
    (game,) = body["games"]
    assert (game["game"], game["played"], game["won"], game["rated_matches"]) == ("counting", 3, 2, 2)
    # 1500 -> 1516 (beat an equal) -> 1516 - 32 * E(1516 vs 1484) = 1516 - 17.47
    assert [h["rating"] for h in game["history"]] == [1516, 1499]
    assert game["start"] == 1500 and game["rating"] == 1499 and game["rank"] == 2
    recent = body["recent"]
    assert [r["match"] for r in recent] == [last.pk, recent[1]["match"], first.pk]
    assert recent[0]["rated"] is False and recent[0]["rating_after"] is None
    assert (recent[2]["place"], recent[2]["won"], recent[2]["rating_before"], recent[2]["rating_after"]) == \
        (1, True, 1500, 1516)
    assert {s["user"]["username"] for s in recent[2]["seats"]} == {"Alíz", bob.username}
    assert "state" not in str(body) and "seed" not in body


def test_private_matches_count_but_are_not_listed(fake_game, make_user, api_client):
    alice, bob = make_user(), make_user()
    hidden = _played([alice, bob], alice, private=True)
    body = api_client.get(f"/api/players/{alice.username}/").json()
    assert body["games"][0]["played"] == 1
    assert hidden.pk not in [r["match"] for r in body["recent"]]


def test_an_unknown_player_is_not_found(api_client):
    response = api_client.get("/api/players/nobody-here/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_profile_takes_the_same_queries_for_one_match_or_many(fake_game, make_user, api_client,
                                                                django_assert_max_num_queries):
    alice, bob, carol = make_user(), make_user(), make_user()
    _played([alice, bob], alice)
    with django_assert_max_num_queries(9) as few:
        api_client.get(f"/api/players/{alice.username}/")
    for i in range(6):
        _played([alice, carol if i % 2 else bob], alice, rated=i % 3 != 0)
    with django_assert_max_num_queries(len(few.captured_queries)):
        body = api_client.get(f"/api/players/{alice.username}/").json()
    assert body["games"][0]["played"] == 7


def test_the_leaderboard_pages_best_first(fake_game, make_user, api_client, django_assert_max_num_queries, monkeypatch):
    users = [make_user() for _ in range(5)]
    for value, user in zip([1480, 1620, 1500, 1550, 1500], users):
        Rating.objects.create(user=user, game="counting", value=value, matches=3, wins=1)
    monkeypatch.setattr(services, "PAGE", 2)
    with django_assert_max_num_queries(2):
        first = api_client.get("/api/leaderboards/counting/").json()
    assert (first["count"], first["pages"], first["page"]) == (5, 3, 1)
    assert [(r["rank"], r["user"]["id"], r["rating"]) for r in first["results"]] == \
        [(1, users[1].pk, 1620), (2, users[3].pk, 1550)]
    second = api_client.get("/api/leaderboards/counting/?page=2").json()
    # Level ratings: the older account first.
    assert [(r["rank"], r["user"]["id"]) for r in second["results"]] == [(3, users[2].pk), (4, users[4].pk)]
    assert api_client.get("/api/leaderboards/counting/?page=9").json()["results"] == []
    assert api_client.get("/api/leaderboards/condottiere/").json()["count"] == 0


@pytest.mark.parametrize("page", ["0", "-1", "x", "1.5", "9999999"])
def test_a_bad_page_is_refused(api_client, page):
    response = api_client.get(f"/api/leaderboards/condottiere/?page={page}")
    assert response.status_code == 400 and response.json()["code"] == "bad_message"


def test_an_unknown_game_has_no_leaderboard(api_client):
    response = api_client.get("/api/leaderboards/chess/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_finished_matches_list_winners_scores_and_rating(fake_game, make_user, client_for):
    alice, bob = make_user(), make_user()
    match = _played([alice, bob], bob)
    (row,) = client_for(alice).get("/api/matches/?status=finished").json()
    owners = _seat_users(match.pk)
    bob_seat = next(s for s, u in owners.items() if u == bob.pk)
    assert row["rated"] is True and row["result"]["winners"] == [bob_seat]
    assert row["result"]["scores"][bob_seat] == 6  # two rounds of 3
