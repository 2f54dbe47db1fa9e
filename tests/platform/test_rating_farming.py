"""Ratings that cannot be farmed (docs/ratings.md, What a rated match must show): a rated match moves
ratings only when every player made their own moves, and the results of one pair of accounts count less
the more often they meet within a window. The farming sequence an outside probe ran on main (a second
account resigning at version 0 of a private rated two-seat match, 20 rounds: 1500 to 1665, top of the
leaderboard) leaves the leaderboard as it was."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from backend.lobbies import services as lobbies
from backend.matches import domain, seating, store, timing
from backend.matches.models import Match
from backend.ratings import elo, services
from backend.ratings.models import Rating, Result

pytestmark = pytest.mark.django_db

ROUNDS = 20


def _private_rated_match(client, farmer, alt, game="condottiere", options=None) -> int:
    """As the probe did it over the API: a private rated two-seat lobby, the second account joins by
    the invite code, the host starts."""
    lobby = client(farmer).post("/api/lobbies/", {"game": game, "options": options or {}, "num_seats": 2,
                                                  "private": True, "rated": True}, format="json").json()
    assert lobby["rated"] and lobby["private"]
    joined = client(alt).post(f"/api/lobbies/{lobby['id']}/join/", {"code": lobby["invite_code"]}, format="json")
    assert joined.status_code == 200, joined.json()
    started = client(farmer).post(f"/api/lobbies/{lobby['id']}/start/", format="json")
    assert started.status_code == 201, started.json()
    return started.json()["match_id"]


def _leaderboard(api_client, game="condottiere") -> list:
    return [(row["user"]["username"], row["rating"], row["matches"])
            for row in api_client.get(f"/api/leaderboards/{game}/").json()["results"]]


def test_the_probe_s_farming_sequence_leaves_the_leaderboard_unchanged(make_user, client_for, api_client):
    honest, rival, farmer, alt = (make_user() for _ in range(4))
    # Two players already on the leaderboard (as an earlier rated match left them).
    Rating.objects.bulk_create([Rating(user=honest, game="condottiere", value=1516, matches=1, wins=1),
                                Rating(user=rival, game="condottiere", value=1484, matches=1)])
    before = _leaderboard(api_client)
    assert before == [(honest.username, 1516, 1), (rival.username, 1484, 1)]
    for _ in range(ROUNDS):
        match_id = _private_rated_match(client_for, farmer, alt)
        resigned = client_for(alt).post(f"/api/matches/{match_id}/resign/", format="json")
        assert resigned.status_code == 200 and resigned.json()["status"] == "finished"
        assert services.record(match_id)
    assert _leaderboard(api_client) == before
    assert not Rating.objects.filter(user__in=[farmer, alt]).exists()
    # Each result is kept, marked as not rated and why.
    rows = Result.objects.filter(user=farmer)
    assert rows.count() == ROUNDS
    assert set(rows.values_list("rated", "unrated_reason", "won")) == {(False, "few_moves", True)}
    page = api_client.get(f"/api/players/{farmer.username}/").json()
    assert page["games"][0]["rating"] is None and page["games"][0]["played"] == ROUNDS
    assert page["recent"] == []  # private matches count, but are not listed


def _counting_match(users, rounds=2) -> int:
    lobby = lobbies.create_lobby(users[0], "counting", {"rounds": rounds}, len(users), False, rated=True)
    for user in users[1:]:
        lobbies.join(user, lobby.pk)
    return lobbies.start(users[0], lobby.pk).pk


def _say(match_id: int, seat: int, n: int = 1, client_id: str | None = None) -> None:
    info = store.read_info(match_id)
    snapshot = store.read_snapshot(info)
    move = domain.check(info, snapshot, seat, {"type": "say", "n": n}, client_id or uuid.uuid4().hex,
                        timing.now_ms())
    assert store.write_atomic(move) == store.WRITTEN


def _seat_of(match_id: int, user) -> int:
    return store.read_info(match_id).seat_of(user.pk)


def _resign(match_id: int, user) -> None:
    info = store.read_info(match_id)
    move = domain.hand_to_bot(info, store.read_snapshot(info), _seat_of(match_id, user), seating.RESIGNED,
                              timing.now_ms())
    assert store.write_atomic(move) == store.WRITTEN


def _bot_moves(match_id: int, seat: int) -> None:
    """One move the bot makes for `seat`, with the runtime's own id for bot moves."""
    from backend.matches.runtime import bots

    info = store.read_info(match_id)
    snapshot = store.read_snapshot(info)
    move = domain.check(info, snapshot, seat, {"type": "say", "n": 1}, bots.client_id(snapshot.version, seat),
                        timing.now_ms(), bot=True)
    assert store.write_atomic(move) == store.WRITTEN


def _bot_plays_out(match_id: int) -> None:
    while (snapshot := store.read_snapshot(store.read_info(match_id))).status == "active":
        _bot_moves(match_id, snapshot.to_move[0])


def _moves_then_alt_resigns(farmer, alt, moves: int) -> int:
    """The alt and the farmer each make `moves` moves, then the alt resigns and the bot finishes."""
    match_id = _counting_match([farmer, alt], rounds=moves + 1)
    for _ in range(2 * moves):
        snapshot = store.read_snapshot(store.read_info(match_id))
        _say(match_id, snapshot.to_move[0])
    _resign(match_id, alt)
    _bot_plays_out(match_id)
    return match_id


def test_a_player_with_fewer_than_two_own_moves_leaves_the_ratings_alone(fake_game, make_user, settings):
    assert settings.RATING_MIN_MOVES == 2
    farmer, alt = make_user(), make_user()
    one = _moves_then_alt_resigns(farmer, alt, moves=1)  # one move each: not enough
    assert services.record(one)
    assert not Rating.objects.exists()
    assert set(Result.objects.filter(match_id=one).values_list("rated", "unrated_reason")) == {(False, "few_moves")}
    two = _moves_then_alt_resigns(farmer, alt, moves=2)
    assert services.record(two)
    assert Rating.objects.get(user=farmer).value == 1516
    assert set(Result.objects.filter(match_id=two).values_list("rated", "unrated_reason")) == {(True, "")}


def test_moves_the_bot_made_for_a_seat_are_not_its_player_s(fake_game, make_user):
    """A player who resigned at once, whose seat the bot then played to the end, made no move."""
    farmer, alt = make_user(), make_user()
    match_id = _counting_match([farmer, alt], rounds=3)
    snapshot = store.read_snapshot(store.read_info(match_id))
    if snapshot.to_move[0] == _seat_of(match_id, farmer):
        _say(match_id, snapshot.to_move[0])
    _resign(match_id, alt)
    while store.read_snapshot(store.read_info(match_id)).status == "active":
        seat = store.read_snapshot(store.read_info(match_id)).to_move[0]
        if seat == _seat_of(match_id, farmer):
            _say(match_id, seat)
        else:
            _bot_moves(match_id, seat)
    assert services.record(match_id)
    assert not Rating.objects.exists()


def test_a_client_may_not_pass_its_moves_off_as_the_server_s():
    """An id of the server's own shape (a bot's, a platform move's) is refused: otherwise a player could
    make their moves look like the bot's and so void a lost rated match."""
    for reserved in ("bot:3:0:abc", "platform:3:silence:0:abc"):
        assert not domain.valid_client_id(reserved)
    assert domain.valid_client_id("3b7c-client-uuid")


def test_repeated_results_between_two_accounts_count_less_and_less(fake_game, make_user, settings):
    assert (settings.RATING_REPEAT_FULL, settings.RATING_REPEAT_WINDOW_H) == (3, 24)
    farmer, alt, stranger = make_user(), make_user(), make_user()
    gains = []
    for _ in range(ROUNDS):
        before = Rating.objects.filter(user=farmer).values_list("value", flat=True).first() or elo.INITIAL
        assert services.record(_moves_then_alt_resigns(farmer, alt, moves=2))
        gains.append(Rating.objects.get(user=farmer).value - before)
    # The first three count fully (+16, then a little less each time: the farmer is now the favourite);
    # each later one half as much as the one before.
    assert gains[0] == 16
    for earlier, later in zip(gains[3:], gains[4:]):
        assert later < earlier / 2 + 1e-9
    assert gains[3] < gains[2] / 2 + 1e-9
    total = Rating.objects.get(user=farmer).value - elo.INITIAL
    assert total < 16 * 4  # at most four full games' worth a day, however many rounds (the probe: +165)
    assert Rating.objects.get(user=alt).value == pytest.approx(elo.INITIAL - total)
    # Another opponent counts fully.
    first_against_stranger = _moves_then_alt_resigns(farmer, stranger, moves=2)
    before = Rating.objects.get(user=farmer).value
    assert services.record(first_against_stranger)
    assert Rating.objects.get(user=farmer).value - before == pytest.approx(
        elo.changes([before, elo.INITIAL], [1, 2])[0])
    # Outside the window the pair counts fully again.
    Result.objects.update(finished_at=timezone.now() - timezone.timedelta(hours=settings.RATING_REPEAT_WINDOW_H + 1))
    later = _moves_then_alt_resigns(farmer, alt, moves=2)
    before, alt_before = Rating.objects.get(user=farmer).value, Rating.objects.get(user=alt).value
    assert services.record(later)
    assert Rating.objects.get(user=farmer).value - before == pytest.approx(
        elo.changes([before, alt_before], [1, 2])[0])


def test_in_a_larger_match_only_the_repeated_pair_counts_less():
    ratings, places = [1500.0, 1500.0, 1500.0], [1, 2, 3]
    full = elo.changes(ratings, places)
    # Seats 0 and 1 met often today: their pairwise game counts half; the others' count fully.
    weights = [[1, 0.5, 1], [0.5, 1, 1], [1, 1, 1]]
    got = elo.changes(ratings, places, weights=weights)
    assert got == [12.0, 4.0, -16.0] and full == [16.0, 0.0, -16.0]
    assert sum(got) == pytest.approx(0)
