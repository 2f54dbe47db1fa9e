"""Time controls chosen in the lobby: validation, the lobby payloads, and the clock a started match gets."""

from __future__ import annotations

import pytest
from django.db import connection
from rest_framework.test import APIClient

from backend.lobbies import services
from backend.matches import clock, timing
from backend.matches.domain import public_asked
from backend.matches.models import Match

pytestmark = pytest.mark.django_db

BLITZ = {"kind": "realtime", "bank_s": 180, "increment_s": 10}


def _create(client, **overrides):
    body = {"game": "counting", "options": {}, "num_seats": 2, "private": False, **overrides}
    return client.post("/api/lobbies/", body, format="json")


def test_lobbies_are_untimed_by_default_and_carry_the_time_control(fake_game, make_user, client_for):
    host = client_for(make_user())
    plain = _create(host).json()
    assert plain["time_control"] == {"kind": "none"} and plain["rematch_of"] is None
    assert _create(host, time_control=None).json()["time_control"] == {"kind": "none"}
    timed = _create(host, time_control=BLITZ).json()
    assert timed["time_control"] == BLITZ
    listed = {entry["id"]: entry for entry in APIClient().get("/api/lobbies/").json()}
    assert listed[timed["id"]]["time_control"] == BLITZ and listed[plain["id"]]["time_control"] == {"kind": "none"}
    assert APIClient().get(f"/api/lobbies/{timed['id']}/").json()["time_control"] == BLITZ


@pytest.mark.parametrize("time_control, fields", [
    ("3+10", {"time_control": ['The time control must be an object with a "kind".']}),
    ({"kind": "bullet"}, {"time_control": {"kind": ["The kind of time control must be none, realtime or turn_based."]}}),
    ({"kind": "realtime", "bank_s": 5, "increment_s": 0},
     {"time_control": {"bank_s": ["bank_s must be between 60 and 10800 seconds."]}}),
    ({"kind": "realtime", "bank_s": 180}, {"time_control": {"increment_s": ["A realtime time control needs increment_s."]}}),
    ({"kind": "turn_based", "per_move_s": 1.5}, {"time_control": {"per_move_s": ["per_move_s must be a whole number of seconds."]}}),
    ({"kind": "none", "per_move_s": 60}, {"time_control": {"per_move_s": ["A none time control has no field per_move_s."]}}),
])
def test_bad_time_controls_are_bad_messages_naming_the_field(fake_game, make_user, client_for, time_control, fields):
    response = _create(client_for(make_user()), time_control=time_control)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_message" and body["fields"] == fields
    assert Match.objects.count() == 0 and not services.open_public_lobbies()


def _started(make_user, client_for, time_control, bot: str | None = None):
    host_user = make_user()
    host = client_for(host_user)
    lobby = _create(host, num_seats=2, time_control=time_control).json()
    if bot:
        host.post(f"/api/lobbies/{lobby['id']}/bots/", {"bot": bot}, format="json")
    else:
        client_for(make_user()).post(f"/api/lobbies/{lobby['id']}/join/", {}, format="json")
    before = timing.now_ms()
    response = host.post(f"/api/lobbies/{lobby['id']}/start/")
    after = timing.now_ms()
    assert response.status_code == 201, response.json()
    match = Match.objects.get(pk=response.json()["match_id"])
    return match, match.state["turn"], before, after


def test_a_timed_lobby_starts_a_match_with_a_running_clock(fake_game, make_user, client_for):
    match, first, before, after = _started(make_user, client_for, BLITZ)
    assert match.time_control == BLITZ and match.control == [None, None] and not match.human_acted
    c = match.clock
    assert before <= c["since"] <= after
    assert c["running"] == [first] and c["remaining_ms"] == [180_000, 180_000] and c["increment_ms"] == 10_000
    assert match.deadline_at == timing.as_datetime(c["since"] + 180_000)
    assert APIClient().get(f"/api/matches/{match.pk}/").json()["time_control"] == BLITZ


def test_a_bot_to_move_has_no_running_clock(fake_game, make_user, client_for):
    """Seat order is shuffled; whichever seat the bot got, its clock never runs."""
    match, first, _, _ = _started(make_user, client_for, BLITZ, bot="random")
    human = next(s.seat for s in match.seats.all() if s.user_id)
    assert match.clock["running"] == ([first] if first == human else [])
    assert (match.deadline_at is None) == (first != human)


def test_an_untimed_match_tracks_turns_without_a_deadline(fake_game, make_user, client_for):
    match, first, before, _ = _started(make_user, client_for, None)
    assert match.time_control == {"kind": "none"} and match.deadline_at is None
    assert match.clock["running"] == [first] and match.clock["started"][first] >= before
    assert "remaining_ms" not in match.clock


def test_turn_based_match(fake_game, make_user, client_for):
    match, _, _, _ = _started(make_user, client_for, {"kind": "turn_based", "per_move_s": 86_400})
    assert clock.frame(match.clock, match.clock["since"])["remaining_ms"] == [86_400_000, 86_400_000]
    assert match.deadline_at == timing.as_datetime(match.clock["since"] + 86_400_000)


def test_public_asked_hides_who_answered_a_secret_question():
    """Condottiere asks every seat holding cards to keep or discard at once and shows none of the
    answers until all are in: the clock must run on what the view shows, not on the engine's queue."""
    import random

    from backend.engines import get_engine

    engine = get_engine("condottiere")
    rng = random.Random(4)
    state = engine.setup(3, {}, 4)
    while not (state["phase"] == "discard_hand" and len(state["queue"]) < len(state["asked"])):
        seat = engine.to_move(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert public_asked(engine, state) == state["asked"] != engine.to_move(state)


def test_overdue_matches_come_from_the_deadline_index(fake_game, make_user, client_for):
    match, _, _, _ = _started(make_user, client_for, BLITZ)
    due = match.clock["since"] + 180_000
    assert timing.overdue(due - 1) == [] and timing.overdue(due) == [match.pk]
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert timing.overdue(due + 10**6) == []
    sql, params = (Match.objects.filter(status="active", deadline_at__lte=match.deadline_at)
                   .order_by("deadline_at").values_list("pk").query.sql_with_params())
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table: ask whether the index can serve it
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "matches_deadline_idx" in plan, plan


# ---- what a move writes: domain.check and the platform's moves ------------------
def _table(time_control, owners=(11, 12, None), to_move=(0,), control=()):
    """A counting-game match at version 4: seats per `owners` (None: a lobby bot)."""
    from backend.engines import get_engine
    from backend.matches.domain import MatchInfo, SeatInfo, Snapshot

    engine = get_engine("counting")
    seats = tuple(SeatInfo(o, f"u{o}" if o else "", "" if o else "random") for o in owners)
    info = MatchInfo(1, "counting", {}, 1, True, seats, time_control)
    state = engine.setup(len(owners), {"rounds": 3, "fixed_start": to_move[0]}, 1)
    c = clock.start(time_control, len(owners), list(engine.to_move(state)), 1_000_000,
                    paused=[s for s, o in enumerate(owners) if o is None])
    return info, Snapshot(4, state, tuple(engine.to_move(state)), "active", c, tuple(control))


def test_an_action_charges_the_mover_and_sets_the_deadline(fake_game):
    from backend.matches.domain import check

    info, snap = _table(BLITZ)
    move = check(info, snap, 0, {"type": "say", "n": 1}, "a", 1_004_000)
    a = move.applied
    assert a.human_acted and a.version == 5 and a.control == ()
    assert a.clock["remaining_ms"] == [186_000, 180_000, 180_000] and a.clock["running"] == [1]
    assert clock.deadline(a.clock) == 1_004_000 + 180_000
    # Seat 1, then the lobby bot's seat 2: no clock runs while the bot is asked, and its move is not a user's.
    nxt = check(info, a, 1, {"type": "say", "n": 1}, "b", 1_010_000).applied
    assert nxt.clock["running"] == [] and clock.deadline(nxt.clock) is None
    assert check(info, nxt, 2, {"type": "say", "n": 1}, "c", 1_011_000, bot=True).applied.clock["running"] == [0]


def test_a_seat_handed_to_the_bot_refuses_its_user_but_not_the_bot(fake_game):
    from backend.matches import seating
    from backend.matches.domain import check, give_back, hand_to_bot
    from backend.matches.errors import MatchError

    info, snap = _table({"kind": "realtime", "bank_s": 60, "increment_s": 0})
    assert clock.flagged(snap.clock, 1_060_000) == [0]
    handed = hand_to_bot(info, snap, 0, seating.TIMEOUT, 1_061_000)
    a = handed.applied
    assert a.version == 5 and a.state == snap.state and a.control[0]["reason"] == "timeout"
    assert a.clock["running"] == [] and a.clock["remaining_ms"][0] == 0 and clock.deadline(a.clock) is None
    assert handed.events[0]["kind"] == "seat_to_bot" and handed.action == {"platform": "timeout"}
    with pytest.raises(MatchError) as refused:
        check(info, a, 0, {"type": "say", "n": 1}, "mine", 1_062_000)
    assert refused.value.code == "conflict"
    assert not check(info, a, 0, {"type": "say", "n": 1}, "bot", 1_062_000, bot=True).applied.human_acted
    back = give_back(info, a, 0, 1_070_000).applied
    assert back.control[0] is None and back.clock["running"] == [0]
    assert back.clock["remaining_ms"][0] == clock.RECLAIM_MIN_MS
    assert clock.deadline(back.clock) == 1_070_000 + clock.RECLAIM_MIN_MS


def test_the_last_resignation_but_one_ends_the_match(fake_game):
    from backend.matches import seating
    from backend.matches.domain import hand_to_bot

    info, snap = _table(BLITZ, owners=(11, 12))
    gone = hand_to_bot(info, snap, 1, seating.RESIGNED, 1_001_000).applied
    assert gone.status == "finished" and gone.result == {"winners": [0], "ranking": [0, 1], "resigned": [1],
                                                         "reason": "resignation"}
    assert clock.deadline(gone.clock) is None
