"""Ratings: the arithmetic on worked examples (docs/ratings.md), which matches count, places with
forfeits, and exactly once per finished match however many callers (threads, processes, the runtime)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from django.db import connection

from backend.asgi import application
from backend.lobbies import services as lobbies
from backend.matches import domain, seating, store, timing
from backend.matches import services as matches
from backend.matches.models import Match, MatchSeat
from backend.ratings import elo, services
from backend.ratings.models import Rating, Result
from backend.ratings.services import record

from .match_support import Player, make_users, token_for, wait_for

ROOT = Path(__file__).resolve().parents[2]


# ---- the arithmetic ------------------------------------------------------------------
def test_two_equal_players_move_by_half_of_k():
    assert elo.changes([1500, 1500], [1, 2]) == [16.0, -16.0]
    assert elo.changes([1500, 1500], [1, 1]) == [0.0, 0.0]


def test_the_favourite_gains_little_and_the_underdog_much():
    # E(1600 vs 1400) = 1 / (1 + 10^(-200/400)) = 0.7597
    up, down = elo.changes([1600, 1400], [1, 2])
    assert up == pytest.approx(32 * (1 - 0.759747), abs=1e-3) and up == pytest.approx(7.688, abs=1e-3)
    assert down == pytest.approx(-up)
    surprise, _ = elo.changes([1400, 1600], [1, 2])
    assert surprise == pytest.approx(24.312, abs=1e-3)


def test_three_players_count_as_three_pairs_at_k_over_two():
    # Each pair is worth 32 / 2 = 16: the first wins both pairs (+8 +8), the last loses both.
    assert elo.changes([1500, 1500, 1500], [1, 2, 3]) == [16.0, 0.0, -16.0]
    # A tie for first: level with each other, both above the third.
    assert elo.changes([1500, 1500, 1500], [1, 1, 3]) == [8.0, 8.0, -16.0]


def test_four_players_of_different_ratings():
    ratings, places = [1700, 1500, 1500, 1300], [4, 1, 2, 3]
    got = elo.changes(ratings, places)
    per = 32 / 3
    e = elo.expected
    assert got[0] == pytest.approx(per * (0 - e(1700, 1500) + 0 - e(1700, 1500) + 0 - e(1700, 1300)))
    assert got[0] == pytest.approx(-25.905, abs=0.001)  # 32/3 * (0.7597 + 0.7597 + 0.9091)
    assert got[1] == pytest.approx(per * (1 - e(1500, 1700) + 1 - 0.5 + 1 - e(1500, 1300)))
    assert sum(got) == pytest.approx(0)  # points move between players, none are made


def test_places_rank_forfeits_last_then_winners_scores_and_tie_breaks():
    assert elo.places(3, [1], [5, 9, 3]) == [2, 1, 3]
    assert elo.places(4, [0, 2], [7, 4, 7, 4]) == [1, 3, 1, 3]  # shared win; level scores share a place
    assert elo.places(3, [0], [10, 10, 2], ranking=[0, 2, 1]) == [1, 2, 3]  # tie-break from the game's ranking
    assert elo.places(3, [1], [0, 99, 5], forfeits={1}) == [2, 3, 1]  # a winner who forfeited is last
    assert elo.places(4, [0], [9, 1, 2, 3], forfeits={2, 3}) == [1, 2, 3, 3]


# ---- matches through the platform -------------------------------------------------
def _lobby_match(users, *, rated=True, rounds=2) -> Match:
    """Two rounds by default: a rated match moves ratings once each player made two moves (docs/ratings.md)."""
    lobby = lobbies.create_lobby(users[0], "counting", {"rounds": rounds}, len(users), False, rated=rated)
    for user in users[1:]:
        lobbies.join(user, lobby.pk)
    return lobbies.start(users[0], lobby.pk)


def _seat_users(match_id) -> dict:
    return dict(MatchSeat.objects.filter(match_id=match_id).values_list("seat", "user_id"))


def _play_out(match_id: int, says: dict | None = None) -> None:
    """Every seat says 1 (or says[seat]) until the end; written as a bot would, whoever plays the seat now."""
    info = store.read_info(match_id)
    while (snapshot := store.read_snapshot(info)).status == "active":
        seat = snapshot.to_move[0]
        move = domain.check(info, snapshot, seat, {"type": "say", "n": (says or {}).get(seat, 1)}, uuid.uuid4().hex,
                            timing.now_ms(), bot=True)
        assert store.write_atomic(move) == store.WRITTEN


def _timeout(match_id: int, seat: int) -> None:
    info = store.read_info(match_id)
    move = domain.hand_to_bot(info, store.read_snapshot(info), seat, seating.TIMEOUT, timing.now_ms())
    assert store.write_atomic(move) == store.WRITTEN


def _rating(user, game="counting") -> float | None:
    row = Rating.objects.filter(user=user, game=game).first()
    return None if row is None else row.value


@pytest.mark.django_db
def test_a_rated_two_player_match_moves_both_ratings_once(fake_game, make_user):
    alice, bob = make_user(), make_user()
    match = _lobby_match([alice, bob])
    assert match.rated
    owners = _seat_users(match.pk)
    _play_out(match.pk, says={s: 3 if owners[s] == alice.pk else 1 for s in owners})
    assert record(match.pk) is True
    assert record(match.pk) is False  # told again (another process, the sweep): nothing moves
    assert _rating(alice) == 1516 and _rating(bob) == 1484
    a = Rating.objects.get(user=alice)
    assert (a.matches, a.wins) == (1, 1)
    rows = {r.user_id: r for r in Result.objects.filter(match=match)}
    assert (rows[alice.pk].place, rows[alice.pk].won, rows[alice.pk].rating_before, rows[alice.pk].rating_after) \
        == (1, True, 1500, 1516)
    assert (rows[bob.pk].place, rows[bob.pk].won, rows[bob.pk].rated) == (2, False, True)
    assert Match.objects.get(pk=match.pk).recorded_at is not None


@pytest.mark.django_db
def test_the_result_card_reads_each_players_rating_change(fake_game, make_user, client_for, api_client):
    """GET /api/matches/<id>/ratings/ (docs/api.md, Players): the change as the card shows it, "+16"; nothing
    until the finish is recorded; a private match's only to its players."""
    alice, bob, carol = make_user(), make_user(), make_user()
    Rating.objects.create(user=alice, game="counting", value=1600.4)  # rounding: 1600 before, not 1600.4
    match = _lobby_match([alice, bob])
    owners = _seat_users(match.pk)
    seat_of = {user: seat for seat, user in owners.items()}
    url = f"/api/matches/{match.pk}/ratings/"
    assert client_for(alice).get(url).json() == {"match": match.pk, "rated": True, "recorded": False, "seats": []}
    _play_out(match.pk, says={s: 1 if owners[s] == alice.pk else 3 for s in owners})  # the underdog wins
    assert record(match.pk)
    answer = client_for(alice).get(url).json()
    assert answer["recorded"] is True and [s["seat"] for s in answer["seats"]] == [0, 1]
    mine, bobs = answer["seats"][seat_of[alice.pk]], answer["seats"][seat_of[bob.pk]]
    a, b = Result.objects.get(match=match, user=alice), Result.objects.get(match=match, user=bob)
    assert (mine["user"]["username"], mine["place"], mine["won"], mine["forfeit"]) == (alice.username, 2, False, False)
    assert (mine["rating_before"], mine["rating_after"]) == (1600, round(a.rating_after))
    assert (bobs["rating_before"], bobs["rating_after"]) == (1500, round(b.rating_after))
    assert bobs["change"] == round(b.rating_after) - 1500 > 16  # beat a stronger player: more than 16
    for s in answer["seats"]:
        assert s["rating_before"] + s["change"] == s["rating_after"]
    # A public match is anyone's to read; a private one its players'.
    assert api_client.get(url).json() == answer
    Match.objects.filter(pk=match.pk).update(public=False)
    assert api_client.get(url).json()["code"] == "unauthenticated"
    assert client_for(carol).get(url).json()["code"] == "forbidden"
    assert client_for(bob).get(url).json() == answer
    assert api_client.get("/api/matches/987654/ratings/").json()["code"] == "not_found"
    # An unrated match: the places, no rating.
    friendly = _lobby_match([alice, bob], rated=False)
    _play_out(friendly.pk)
    assert record(friendly.pk)
    seats = client_for(alice).get(f"/api/matches/{friendly.pk}/ratings/").json()["seats"]
    assert [(s["rating_before"], s["rating_after"], s["change"]) for s in seats] == [(None, None, None)] * 2


@pytest.mark.django_db
def test_an_unrated_match_records_results_but_no_rating(fake_game, make_user):
    alice, bob = make_user(), make_user()
    match = _lobby_match([alice, bob], rated=False)
    _play_out(match.pk)
    assert record(match.pk)
    assert not Rating.objects.exists()
    assert Result.objects.filter(match=match, rated=False, rating_after__isnull=True).count() == 2
    assert set(Result.objects.filter(match=match).values_list("won", flat=True)) == {True}  # level totals: both win


@pytest.mark.django_db
def test_bots_never_sit_in_a_rated_match(fake_game, make_user, client_for):
    alice, bob = make_user(), make_user()
    client = client_for(alice)
    lobby = client.post("/api/lobbies/", {"game": "counting", "num_seats": 3, "rated": True}, format="json").json()
    assert lobby["rated"] is True
    refused = client.post(f"/api/lobbies/{lobby['id']}/bots/", {"bot": "random"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "conflict"
    assert "rated" in refused.json()["message"]
    # Unrated, the bot may sit; then the lobby cannot be made rated until it leaves.
    assert client.post(f"/api/lobbies/{lobby['id']}/rated/", {"rated": False}, format="json").json()["rated"] is False
    assert client.post(f"/api/lobbies/{lobby['id']}/bots/", {"bot": "random"}, format="json").status_code == 200
    refused = client.post(f"/api/lobbies/{lobby['id']}/rated/", {"rated": True}, format="json")
    assert refused.status_code == 409 and "bot" in refused.json()["message"]
    assert client_for(bob).post(f"/api/lobbies/{lobby['id']}/rated/", {"rated": False},
                                format="json").status_code == 403
    # The list shows the choice.
    listed = {row["id"]: row for row in client.get("/api/lobbies/").json()}
    assert listed[lobby["id"]]["rated"] is False
    # Below the lobby: the match itself refuses a bot when rated.
    with pytest.raises(ValueError):
        matches.create_match("counting", {}, [alice, "random"], 1, rated=True)
    with pytest.raises(ValueError):
        matches.create_match("counting", {}, [alice, alice], 1, rated=True)


@pytest.mark.django_db
def test_a_match_with_a_bot_is_never_rated_even_if_flagged(fake_game, make_user):
    """Defence in depth: a row flagged rated by hand with a bot seat records no rating."""
    alice = make_user()
    match = matches.create_match("counting", {"rounds": 1}, [alice, "random"], 1)
    Match.objects.filter(pk=match.pk).update(rated=True)
    _play_out(match.pk)
    assert record(match.pk)
    assert not Rating.objects.exists()
    assert Result.objects.get(match=match).rated is False


@pytest.mark.django_db
def test_resigning_counts_as_last_place(fake_game, make_user):
    users = [make_user() for _ in range(3)]
    match = _lobby_match(users, rounds=2)
    owners = _seat_users(match.pk)
    quitter = next(u for u in users if u.pk == owners[0])
    matches.resign(quitter, match.pk)
    # The bot then plays the quitter's seat to the highest total; the quitter still places last.
    _play_out(match.pk, says={0: 3, 1: 2, 2: 1})
    m = Match.objects.get(pk=match.pk)
    assert m.result["resigned"] == [0]
    assert record(match.pk)
    places = {r.seat: r.place for r in Result.objects.filter(match=match)}
    assert places == {0: 3, 1: 1, 2: 2}
    assert Result.objects.get(match=match, seat=0).forfeit
    assert [round(_rating(u)) for u in sorted(users, key=lambda u: next(s for s, o in owners.items() if o == u.pk))] \
        == [1484, 1516, 1500]


@pytest.mark.django_db
def test_running_out_of_time_counts_as_last_even_after_coming_back(fake_game, make_user):
    alice, bob = make_user(), make_user()
    match = _lobby_match([alice, bob], rounds=2)
    owners = _seat_users(match.pk)
    _timeout(match.pk, 0)
    matches.reclaim(next(u for u in (alice, bob) if u.pk == owners[0]), match.pk)
    _play_out(match.pk, says={0: 3, 1: 1})  # seat 0 has the higher total and the engine's win
    assert Match.objects.get(pk=match.pk).result["winners"] == [0]
    assert record(match.pk)
    rows = {r.seat: r for r in Result.objects.filter(match=match)}
    assert (rows[0].place, rows[0].won, rows[0].forfeit) == (2, False, True)
    assert (rows[1].place, rows[1].won) == (1, True)
    assert round(rows[1].rating_after) == 1516


@pytest.mark.django_db
def test_aborted_and_running_matches_are_not_recorded(fake_game, make_user):
    alice, bob = make_user(), make_user()
    match = _lobby_match([alice, bob])
    assert record(match.pk) is False  # still running
    matches.abort(alice, match.pk)
    assert record(match.pk) is False
    assert not Result.objects.exists()


@pytest.mark.django_db
def test_finishes_recorded_together_move_a_common_player_match_by_match(fake_game, make_user):
    """Several finishes in one record_many (a process gathers the finishes of a
    moment): each is recorded, and a player in two of them moves twice, the
    second time from the first's rating."""
    alice, bob, carol = make_user(), make_user(), make_user()
    first, second, unfinished = _lobby_match([alice, bob]), _lobby_match([alice, carol]), _lobby_match([bob, carol])
    for match, winner in ((first, alice), (second, alice)):
        owners = _seat_users(match.pk)
        _play_out(match.pk, says={s: 3 if owners[s] == winner.pk else 1 for s in owners})
    assert services.record_many([second.pk, unfinished.pk, first.pk, first.pk]) == 2
    assert services.record_many([first.pk, second.pk]) == 0  # told again: nothing moves
    rows = {r.match_id: r for r in Result.objects.filter(user=alice)}
    assert (rows[first.pk].rating_before, rows[first.pk].rating_after) == (1500, 1516)  # the lower id first
    assert rows[second.pk].rating_before == 1516 and rows[second.pk].rating_after > 1516
    assert Rating.objects.get(user=alice).matches == 2 and _rating(alice) == rows[second.pk].rating_after
    assert (_rating(bob), _rating(carol)) == (1484, 1500 + 1516 - rows[second.pk].rating_after)
    assert not Result.objects.filter(match=unfinished).exists()
    assert Match.objects.get(pk=unfinished.pk).recorded_at is None


@pytest.mark.django_db
def test_recording_many_finishes_costs_the_statements_of_one(fake_game, make_user):
    """On PostgreSQL a batch of finishes is claimed and read in one statement:
    recording five costs as many statements as recording one."""
    if connection.vendor != "postgresql":
        pytest.skip("the one-statement claim is PostgreSQL's (SQLite claims match by match)")
    from django.test.utils import CaptureQueriesContext

    users = [make_user() for _ in range(6)]
    ids = []
    for i in range(6):
        match = _lobby_match([users[i], users[(i + 1) % 6]])
        _play_out(match.pk)
        ids.append(match.pk)
    with CaptureQueriesContext(connection) as one:
        assert services.record_many(ids[:1]) == 1
    with CaptureQueriesContext(connection) as five:
        assert services.record_many(ids[1:]) == 5
    assert len(five.captured_queries) == len(one.captured_queries)
    assert Result.objects.filter(match_id__in=ids).count() == 12


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_records_of_one_finish_move_ratings_once(fake_game, make_user):
    if connection.vendor == "sqlite":
        pytest.skip("needs PostgreSQL (in-memory SQLite cannot queue concurrent writers)")
    alice, bob = make_user(), make_user()
    match = _lobby_match([alice, bob])
    _play_out(match.pk)
    barrier = threading.Barrier(4)
    outcomes = []

    def go():
        try:
            barrier.wait()
            outcomes.append(record(match.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == [False, False, False, True]
    assert Result.objects.filter(match=match).count() == 2
    assert sorted(Rating.objects.values_list("matches", flat=True)) == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_two_processes_recording_the_same_matches_record_each_once(fake_game, make_user):
    """Two `manage.py record_results` at once over the same five finished rated matches."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the processes share the test database")
    alice, bob = make_user(), make_user()
    ids = []
    for _ in range(5):
        match = _lobby_match([alice, bob])
        _play_out(match.pk)
        ids.append(match.pk)
    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "DB_POOL_MAX": "0", "PYTHONPATH": str(ROOT)}
    # The counting game is registered by the fixture in this process only: the children register it too.
    code = ("import django, sys; django.setup(); import backend.engines as e; "
            "e._REGISTRY['counting'] = 'tests.platform.lobby_game'; "
            "from django.core.management import call_command; call_command('record_results')")
    env["DJANGO_SETTINGS_MODULE"] = "backend.settings"
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    counts = [int(out.split()[1]) for out, _err in outputs]
    assert sum(counts) == 5, outputs
    assert Result.objects.filter(match_id__in=ids).count() == 10
    assert sorted(Rating.objects.values_list("matches", flat=True)) == [5, 5]
    assert Match.objects.filter(pk__in=ids, recorded_at__isnull=True).count() == 0


# ---- the runtime records a finish played over the sockets ---------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("match_env")
async def test_a_match_finished_over_the_sockets_is_recorded_by_the_runtime(fake_game):
    from channels.db import database_sync_to_async

    users = await make_users(2)
    match = await database_sync_to_async(_lobby_match)(users)
    players = [Player(application, match.pk, await token_for(u)) for u in users]
    for p in players:
        await p.connect()
    while players[0].state["status"] == "active":
        mover = next(p for p in players if p.state["legal_actions"])
        version = mover.state["version"]
        await mover.act({"type": "say", "n": 2 if mover is players[0] else 1})
        for p in players:
            await p.until_version(version + 1)

    def recorded():
        return Result.objects.filter(match_id=match.pk).count() == 2

    await wait_for(database_sync_to_async(recorded))
    first, second = [await database_sync_to_async(_rating)(u) for u in users]
    assert (first, second) == (1516, 1484)
    for p in players:
        await p.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("match_env")
async def test_the_sweep_records_a_finish_nobody_recorded(fake_game, settings):
    """A process that stopped between the finish and the record: another's sweep finds it."""
    from channels.db import database_sync_to_async

    from backend.matches.runtime import MatchHub

    settings.MATCH_DEADLINE_SWEEP_S = 0.05
    users = await make_users(2)
    match = await database_sync_to_async(_lobby_match)(users)
    await database_sync_to_async(_play_out)(match.pk)  # written without any runtime hearing of it
    other = await database_sync_to_async(_lobby_match)(users)
    hub = MatchHub.current()
    room = await hub.room(other.pk)  # a process at work: its sweep runs

    def recorded():
        return Match.objects.filter(pk=match.pk, recorded_at__isnull=False).exists()

    await wait_for(database_sync_to_async(recorded))
    assert await database_sync_to_async(lambda: Result.objects.filter(match=match).count())() == 2
    hub.release(room)


@pytest.mark.django_db
def test_a_rematch_keeps_the_rating_choice(fake_game, make_user, client_for):
    alice, bob = make_user(), make_user()
    match = _lobby_match([alice, bob])
    _play_out(match.pk)
    lobby, created = lobbies.rematch(alice, match.pk)
    assert created and lobby.rated
