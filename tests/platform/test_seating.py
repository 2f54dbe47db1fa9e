"""backend/matches/seating.py: who plays each seat and the rules of resign, abort, takeover and reclaim."""

from __future__ import annotations

import pytest

from backend.common.errors import AppError
from backend.matches import seating
from backend.matches.seating import Table

ALICE, BOB, CAROL = 11, 12, 13
# Three humans and a lobby bot in seat 3.
OWNERS = (ALICE, BOB, CAROL, None)
GRACE = 90_000


def table(**kw) -> Table:
    base = {"status": "active", "owners": OWNERS, "control": (), "timed": False, "human_acted": False}
    return Table(**{**base, **kw})


def refused(code: str, fn, *args):
    with pytest.raises(AppError) as caught:
        fn(*args)
    assert caught.value.code == code
    return caught.value.message


# ---- who plays -------------------------------------------------------------
def test_control_entries_and_who_plays():
    control = seating.hand_to_bot(seating.initial(4), 4, 1, seating.TIMEOUT, at=7)
    assert control == [None, {"reason": "timeout", "bot": "heuristic", "at": 7}, None, None]
    assert [seating.played_by_owner(OWNERS, control, s) for s in range(4)] == [True, False, True, False]
    assert seating.bot_played(OWNERS, control) == [1, 3]
    assert seating.bot_for("", control, 1) == "heuristic"
    assert seating.bot_for("random", control, 3) == "random"
    assert seating.bot_for("", control, 0) is None
    assert seating.give_back(control, 4, 1) == [None] * 4


def test_short_control_lists_mean_owners_play():
    """Matches created before the column have []: nobody handed over."""
    assert seating.bot_played(OWNERS, []) == [3]
    taken = seating.hand_to_bot([], 4, 2, seating.TAKEOVER, at=3, by=0)
    assert taken == [None, None, {"reason": "takeover", "bot": "heuristic", "at": 3, "by": 0}, None]


def test_hand_to_bot_does_not_change_its_input():
    control = [None, None, None, None]
    seating.hand_to_bot(control, 4, 0, seating.RESIGNED, at=1)
    assert control == [None] * 4
    with pytest.raises(ValueError):
        seating.hand_to_bot(control, 4, 0, "bored", at=1)


# ---- resign ----------------------------------------------------------------
def test_resign_rules():
    assert seating.check_resign(table(), BOB) == 1
    assert "Only a player" in refused("forbidden", seating.check_resign, table(), 99)
    refused("forbidden", seating.check_resign, table(), None)
    assert refused("conflict", seating.check_resign, table(status="finished"), BOB) == "The match is over."
    gone = seating.hand_to_bot([], 4, 1, seating.RESIGNED, at=2)
    assert refused("conflict", seating.check_resign, table(control=gone), BOB) == "You have already resigned."
    # A player whose seat the bot plays after a timeout may still resign.
    timed_out = seating.hand_to_bot([], 4, 1, seating.TIMEOUT, at=2)
    assert seating.check_resign(table(control=timed_out, timed=True), BOB) == 1


# ---- abort -----------------------------------------------------------------
def test_abort_rules():
    assert seating.check_abort(table(), CAROL) == 2
    refused("forbidden", seating.check_abort, table(), 99)
    refused("conflict", seating.check_abort, table(status="aborted"), ALICE)
    assert "resign instead" in refused("conflict", seating.check_abort, table(human_acted=True), ALICE)


# ---- takeover --------------------------------------------------------------
def test_takeover_allowed_after_the_grace():
    assert seating.check_takeover(table(), ALICE, 2, [2], GRACE, GRACE) == 0


@pytest.mark.parametrize("kw, user, target, asked, absent, code, words", [
    ({}, 99, 2, [2], GRACE, "forbidden", "Only a player"),
    ({"status": "finished"}, ALICE, 2, [2], GRACE, "conflict", "over"),
    ({"control": ({"reason": "resigned", "bot": "heuristic", "at": 1},)}, ALICE, 2, [2], GRACE, "forbidden", "resigned"),
    ({}, ALICE, 7, [2], GRACE, "bad_message", "no such seat"),
    ({}, ALICE, "2", [2], GRACE, "bad_message", "no such seat"),
    ({}, ALICE, 0, [0], GRACE, "forbidden", "your own seat"),
    ({"timed": True}, ALICE, 2, [2], GRACE, "conflict", "timed match"),
    ({}, ALICE, 3, [3], GRACE, "conflict", "already plays"),
    ({"control": (None, None, {"reason": "takeover", "bot": "heuristic", "at": 4})}, ALICE, 2, [2], GRACE,
     "conflict", "already plays"),
    ({}, ALICE, 2, [1], GRACE, "conflict", "turn"),
    ({}, ALICE, 2, [2], None, "conflict", "connected"),
])
def test_takeover_refusals(kw, user, target, asked, absent, code, words):
    assert words in refused(code, seating.check_takeover, table(**kw), user, target, asked, absent, GRACE)


def test_takeover_too_early_says_how_long_to_wait():
    assert refused("conflict", seating.check_takeover, table(), ALICE, 2, [2], GRACE - 30_500, GRACE).endswith(
        "in 31 seconds.")
    assert refused("conflict", seating.check_takeover, table(), ALICE, 2, [2], GRACE - 1, GRACE).endswith(
        "in 1 second.")


def test_absence_counts_from_the_later_of_turn_and_disconnection():
    assert seating.absent_ms(100_000, turn_started=10_000, disconnected_at=40_000) == 60_000
    assert seating.absent_ms(100_000, turn_started=70_000, disconnected_at=40_000) == 30_000
    assert seating.absent_ms(100_000, turn_started=None, disconnected_at=40_000) is None
    assert seating.absent_ms(100_000, turn_started=10_000, disconnected_at=None) is None


# ---- reclaim ---------------------------------------------------------------
def test_reclaim_rules():
    away = seating.hand_to_bot([], 4, 2, seating.TAKEOVER, at=5, by=0)
    assert seating.check_reclaim(table(control=away), CAROL) == 2
    refused("forbidden", seating.check_reclaim, table(control=away), 99)
    refused("conflict", seating.check_reclaim, table(control=away, status="finished"), CAROL)
    assert refused("conflict", seating.check_reclaim, table(control=away), ALICE) == "You are already playing your seat."
    gone = seating.hand_to_bot([], 4, 2, seating.RESIGNED, at=5)
    assert "resigned" in refused("conflict", seating.check_reclaim, table(control=gone), CAROL)


def test_refusals_go_through_gettext(monkeypatch):
    monkeypatch.setattr(seating, "_", lambda text: f"[{text}]")
    assert refused("conflict", seating.check_resign, table(status="finished"), BOB) == "[The match is over.]"
    assert refused("conflict", seating.check_reclaim, table(), CAROL) == "[You are already playing your seat.]"


# ---- resignations and the result -------------------------------------------
def _resign(control, seat, at):
    return seating.hand_to_bot(control, 4, seat, seating.RESIGNED, at=at)


def test_resigned_seats_rank_last_in_order_of_resignation():
    control = _resign(_resign([], 2, at=9), 0, at=4)
    assert seating.resigned(control) == [0, 2]
    gp = {"winners": [2], "scores": [30, 25, 40, 10], "ranking": [2, 0, 1, 3], "money": [1, 2, 3, 4]}
    out = seating.with_resignations(gp, control)
    assert out == {"winners": [1], "scores": [30, 25, 40, 10], "ranking": [1, 3, 2, 0], "money": [1, 2, 3, 4],
                   "resigned": [0, 2]}
    assert gp["winners"] == [2]  # input unchanged


def test_condottiere_result_gets_a_ranking_and_shared_winners():
    control = _resign([], 1, at=3)
    cond = {"winners": [1], "scores": [2, 4, 2, 1], "reason": "regions", "shared": False}
    out = seating.with_resignations(cond, control)
    assert out["winners"] == [0, 2] and out["shared"] is True
    assert out["ranking"] == [0, 2, 3, 1] and out["resigned"] == [1] and out["reason"] == "regions"
    # A winner who did not resign keeps the win.
    out = seating.with_resignations({**cond, "winners": [0, 1], "shared": True}, control)
    assert out["winners"] == [0] and out["shared"] is False and out["ranking"][0] == 0


def test_results_without_resignations_are_untouched():
    result = {"winners": [0], "scores": [1, 0]}
    assert seating.with_resignations(result, [None, {"reason": "timeout", "bot": "heuristic", "at": 1}]) is result


def test_resignations_decide_when_one_seat_is_left():
    control = _resign(_resign([], 0, at=2), 1, at=5)
    assert not seating.decided(4, control)
    control = _resign(control, 2, at=8)
    assert seating.decided(4, control)
    assert seating.resignation_result(4, control) == {
        "winners": [3], "ranking": [3, 2, 1, 0], "resigned": [0, 1, 2], "reason": "resignation"}


def test_events_are_data_with_an_english_text():
    assert seating.handed_event(2, seating.TAKEOVER, by=0) == {
        "kind": "seat_to_bot", "seat": 2, "params": {"reason": "takeover", "by": 0}, "to": None,
        "text": "Seat 2 was away; seat 0 handed it to the bot."}
    assert seating.handed_event(1, seating.TIMEOUT)["text"] == "Seat 1 ran out of time; the bot plays for them."
    assert seating.handed_event(1, seating.TIMEOUT)["params"] == {"reason": "timeout"}
    assert seating.back_event(1) == {"kind": "seat_back", "seat": 1, "to": None, "params": {},
                                     "text": "Seat 1 is back and plays again."}
    assert seating.aborted_event(0)["kind"] == "aborted"
