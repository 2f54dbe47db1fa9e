"""backend/matches/clock.py: time controls and the clock arithmetic (pure; no database)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.matches import clock
from backend.matches.clock import TimeControlError

T0 = 1_800_000_000_000  # some moment, in ms since the epoch
S = 1000  # one second in ms
BLITZ = {"kind": "realtime", "bank_s": 180, "increment_s": 10}
DAILY = {"kind": "turn_based", "per_move_s": 86_400}


# ---- validation ------------------------------------------------------------
def test_validate_defaults_and_normal_forms():
    assert clock.validate(None) == {"kind": "none"}
    assert clock.validate({"kind": "none"}) == {"kind": "none"}
    assert clock.validate(dict(BLITZ)) == BLITZ
    assert clock.validate(dict(DAILY)) == DAILY
    assert clock.validate({"kind": "realtime", "bank_s": 60, "increment_s": 0}) == {
        "kind": "realtime", "bank_s": 60, "increment_s": 0}


@pytest.mark.parametrize("kind, field", [(k, f) for k, fields in clock.BOUNDS.items() for f in fields])
def test_bounds_are_inclusive(kind, field):
    low, high = clock.BOUNDS[kind][field]
    base = {"kind": kind, **{f: lo for f, (lo, _hi) in clock.BOUNDS[kind].items()}}
    assert clock.validate({**base, field: low})[field] == low
    assert clock.validate({**base, field: high})[field] == high
    for wrong in (low - 1, high + 1):
        with pytest.raises(TimeControlError) as caught:
            clock.validate({**base, field: wrong})
        assert caught.value.field == field
        assert str(caught.value) == f"{field} must be between {low} and {high} seconds."


@pytest.mark.parametrize("value, field, message", [
    ("blitz", None, 'The time control must be an object with a "kind".'),
    ({}, None, 'The time control must be an object with a "kind".'),
    ({"kind": "fischer"}, "kind", "The kind of time control must be none, realtime or turn_based."),
    ({"kind": ["none"]}, "kind", "The kind of time control must be none, realtime or turn_based."),
    ({"kind": "none", "bank_s": 60}, "bank_s", "A none time control has no field bank_s."),
    ({**BLITZ, "per_move_s": 60, "delay": 1}, "delay", "A realtime time control has no field delay, per_move_s."),
    ({"kind": "realtime", "bank_s": 180}, "increment_s", "A realtime time control needs increment_s."),
    ({**BLITZ, "bank_s": 180.0}, "bank_s", "bank_s must be a whole number of seconds."),
    ({**BLITZ, "bank_s": "180"}, "bank_s", "bank_s must be a whole number of seconds."),
    ({**BLITZ, "increment_s": True}, "increment_s", "increment_s must be a whole number of seconds."),
    ({"kind": "turn_based"}, "per_move_s", "A turn_based time control needs per_move_s."),
])
def test_refusals_name_the_field_and_read_well(value, field, message):
    with pytest.raises(TimeControlError) as caught:
        clock.validate(value)
    assert caught.value.field == field
    assert str(caught.value) == message
    assert caught.value.template % caught.value.params == message


def test_is_timed():
    assert not clock.is_timed(None) and not clock.is_timed({"kind": "none"})
    assert clock.is_timed(BLITZ) and clock.is_timed(DAILY)


def test_the_module_is_pure():
    code = ("import sys, backend.matches.clock; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'channels'}); "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# ---- realtime --------------------------------------------------------------
def test_sequential_turns_charge_the_mover_and_add_the_increment():
    c = clock.start(BLITZ, 2, [0], T0)
    assert clock.remaining(c, T0 + 5 * S) == [175 * S, 180 * S]
    c = clock.advance(c, T0 + 5 * S, [1], acted=0)
    assert c["remaining_ms"] == [185 * S, 180 * S] and c["running"] == [1]
    c = clock.advance(c, T0 + 65 * S, [0], acted=1)
    assert c["remaining_ms"] == [185 * S, 130 * S]
    assert clock.remaining(c, T0 + 70 * S) == [180 * S, 130 * S]
    assert clock.deadline(c) == T0 + 65 * S + 185 * S


def test_consecutive_actions_of_one_seat_each_earn_the_increment():
    c = clock.start(BLITZ, 3, [2], T0)
    c = clock.advance(c, T0 + 4 * S, [2], acted=2)
    c = clock.advance(c, T0 + 6 * S, [2], acted=2)
    assert c["remaining_ms"][2] == 180 * S - 6 * S + 20 * S
    assert c["started"][2] == T0 + 6 * S  # each action starts a new turn


def test_simultaneous_phase_runs_every_asked_clock():
    c = clock.start(BLITZ, 3, [0, 1, 2], T0)
    assert clock.remaining(c, T0 + 7 * S) == [173 * S] * 3
    # Seat 1 answers and leaves the asked set (the view shows who answered): credited at once.
    c = clock.advance(c, T0 + 7 * S, [0, 2], acted=1)
    assert c["remaining_ms"] == [173 * S, 183 * S, 173 * S]
    c = clock.advance(c, T0 + 9 * S, [2], acted=0)
    assert c["remaining_ms"] == [181 * S, 183 * S, 171 * S]
    assert clock.remaining(c, T0 + 10 * S) == [181 * S, 183 * S, 170 * S]


def test_hidden_progress_holds_the_credit_until_the_phase_ends():
    """While the asked set does not change, the public clock must not tell who answered."""
    c = clock.start(BLITZ, 3, [0, 1, 2], T0)
    c = clock.advance(c, T0 + 2 * S, [0, 1, 2], acted=1)
    c = clock.advance(c, T0 + 5 * S, [0, 1, 2], acted=2)
    assert clock.remaining(c, T0 + 5 * S) == [175 * S] * 3
    assert c["started"] == [T0] * 3
    c = clock.advance(c, T0 + 8 * S, [1], acted=0)  # the phase resolves: everyone answered
    assert c["remaining_ms"] == [182 * S] * 3
    assert c["pending"] == [0, 0, 0] and c["started"] == [None, T0 + 8 * S, None]


def test_a_user_answering_beside_bots_is_not_told_apart():
    """Seats 1 and 2 are bots (paused): the one running clock must not show whether seat 0 answered first."""
    c = clock.start(BLITZ, 3, [0, 1, 2], T0, paused=[1, 2])
    assert c["running"] == [0]
    human_first = clock.advance(c, T0 + 4 * S, [0, 1, 2], acted=0, paused=[1, 2])
    bot_first = clock.advance(c, T0 + 4 * S, [0, 1, 2], acted=1, paused=[1, 2])
    assert clock.frame(human_first, T0 + 5 * S) == clock.frame(bot_first, T0 + 5 * S)
    assert clock.deadline(human_first) == clock.deadline(bot_first) == T0 + 180 * S
    done = clock.advance(human_first, T0 + 6 * S, [1], acted=2, paused=[1, 2])  # everyone answered
    assert done["remaining_ms"][0] == 184 * S and done["running"] == []


def test_a_single_seat_acting_again_is_public_and_credited_at_once():
    c = clock.start(BLITZ, 3, [1], T0, paused=[2])
    c = clock.advance(c, T0 + S, [1], acted=1, paused=[2])
    assert c["remaining_ms"][1] == 189 * S


@pytest.mark.parametrize("order", [(0, 1), (1, 0), (2, 0), (1, 2)])
def test_public_frames_do_not_depend_on_who_answered(order):
    """The strong form: change who answered (a hidden fact), the frames are byte-identical."""
    def frames(answering):
        c = clock.start(BLITZ, 3, [0, 1, 2], T0)
        out = []
        for i, seat in enumerate(answering):
            c = clock.advance(c, T0 + (i + 1) * 3 * S, [0, 1, 2], acted=seat)
            out.append(json.dumps(clock.frame(c, T0 + (i + 1) * 3 * S + 500)))
        out.append(json.dumps(clock.deadline(c)))
        return out

    assert frames(order) == frames((0, 2))


def test_running_out_flags_the_seat_and_earns_nothing():
    c = clock.start({"kind": "realtime", "bank_s": 60, "increment_s": 5}, 2, [0], T0)
    assert clock.deadline(c) == T0 + 60 * S
    assert clock.flagged(c, T0 + 60 * S - 1) == []
    assert clock.flagged(c, T0 + 60 * S) == [0]
    assert clock.remaining(c, T0 + 90 * S) == [0, 60 * S]
    late = clock.advance(c, T0 + 90 * S, [1], acted=0)  # the runtime refuses this; the arithmetic stays sane
    assert late["remaining_ms"] == [0, 60 * S]
    # Handed to the bot: the seat stops running, keeps 0, the other clock starts.
    handed = clock.advance(c, T0 + 61 * S, [1])
    assert handed["remaining_ms"] == [0, 60 * S] and clock.deadline(handed) == T0 + 121 * S


def test_a_second_process_behind_in_time_never_charges_twice():
    c = clock.start(BLITZ, 2, [0], T0)
    c = clock.advance(c, T0 + 10 * S, [0, 1])
    behind = clock.advance(c, T0 + 8 * S, [1], acted=0)
    assert behind["since"] == T0 + 10 * S
    assert behind["remaining_ms"] == [180 * S, 180 * S]  # 170 + 10 increment; seat 1 charged nothing
    assert clock.remaining(c, T0) == clock.remaining(c, T0 + 10 * S)


def test_reclaim_gives_back_at_least_the_minimum():
    c = clock.start({"kind": "realtime", "bank_s": 60, "increment_s": 0}, 2, [0], T0)
    c = clock.advance(c, T0 + 70 * S, [1])  # ran out; the bot plays seat 0
    back = clock.reclaim(c, 0, T0 + 80 * S, [1])
    assert back["remaining_ms"] == [clock.RECLAIM_MIN_MS, 50 * S]
    rich = clock.start(BLITZ, 2, [1], T0)
    assert clock.reclaim(rich, 0, T0 + S, [1])["remaining_ms"][0] == 180 * S  # more than the minimum: kept


# ---- turn-based ------------------------------------------------------------
def test_turn_based_gives_each_decision_its_own_time():
    c = clock.start(DAILY, 2, [0], T0)
    day = 86_400 * S
    assert clock.deadline(c) == T0 + day
    c = clock.advance(c, T0 + 3600 * S, [1], acted=0)
    assert c["remaining_ms"] == [day, day] and clock.deadline(c) == T0 + 3600 * S + day
    c = clock.advance(c, T0 + 7200 * S, [1], acted=1)  # a second decision in a row: fresh time again
    assert clock.deadline(c) == T0 + 7200 * S + day
    assert clock.flagged(c, T0 + 7200 * S + day) == [1]


def test_turn_based_simultaneous_seat_keeps_its_deadline_while_others_act():
    c = clock.start(DAILY, 3, [0, 1, 2], T0)
    c = clock.advance(c, T0 + 100 * S, [0, 2], acted=1)
    assert clock.deadline(c) == T0 + 86_400 * S  # seats 0 and 2 are still on their first decision
    assert clock.frame(c, T0 + 100 * S)["remaining_ms"] == [86_300 * S, 86_400 * S, 86_300 * S]


# ---- untimed ---------------------------------------------------------------
def test_untimed_clock_only_tracks_turns():
    c = clock.start({"kind": "none"}, 3, [1], T0)
    assert clock.remaining(c, T0 + S) is None and clock.deadline(c) is None and clock.flagged(c, T0 + 10**9) == []
    c = clock.advance(c, T0 + 30 * S, [2], acted=1)
    assert clock.frame(c, T0 + 45 * S) == {
        "kind": "none", "running": [2], "remaining_ms": None, "turn_ms": [None, None, 15 * S], "server_ms": T0 + 45 * S}


def test_frame_is_relative_and_leaves_server_fields_out():
    c = clock.advance(clock.start(BLITZ, 2, [0], T0), T0 + 4 * S, [1], acted=0)
    assert clock.frame(c, T0 + 6 * S) == {
        "kind": "realtime", "running": [1], "remaining_ms": [186 * S, 178 * S], "turn_ms": [None, 2 * S],
        "server_ms": T0 + 6 * S, "increment_ms": 10 * S}
    assert set(clock.frame(clock.start(DAILY, 2, [0], T0), T0)) == {
        "kind", "running", "remaining_ms", "turn_ms", "server_ms", "per_move_ms"}


def test_bad_seats_are_a_programming_error():
    with pytest.raises(ValueError):
        clock.start(BLITZ, 2, [2], T0)
    with pytest.raises(ValueError):
        clock.advance(clock.start(BLITZ, 2, [0], T0), T0, [True])


# ---- properties ------------------------------------------------------------
TIME_CONTROLS = st.one_of(
    st.builds(lambda b, i: {"kind": "realtime", "bank_s": b, "increment_s": i},
              st.integers(60, 10_800), st.integers(0, 600)),
    st.builds(lambda p: {"kind": "turn_based", "per_move_s": p}, st.integers(30, 1_209_600)),
    st.just({"kind": "none"}),
)


@st.composite
def histories(draw):
    """A time control, a seat count and a list of (time step, asked seats, seats bots play, acting seat)."""
    tc = draw(TIME_CONTROLS)
    n = draw(st.integers(2, 6))
    seat_sets = st.lists(st.integers(0, n - 1), max_size=n).map(lambda s: sorted(set(s)))
    first = draw(seat_sets)
    steps = draw(st.lists(st.tuples(st.integers(-5 * S, 400 * S), seat_sets, seat_sets, st.integers(-1, n - 1)),
                          max_size=25))
    return tc, n, first, steps


def _replay(tc, n, first, steps):
    c = clock.start(tc, n, first, T0)
    now, clocks = T0, [(c, T0, None, None)]
    for step, asked, paused, actor in steps:
        now += step
        acted = actor if actor >= 0 and actor in c["running"] else None
        before = copy.deepcopy(c)
        nxt = clock.advance(c, now, asked, acted, paused)
        assert nxt["running"] == [s for s in asked if s not in paused]
        assert c == before, "advance must not change its input"
        clocks.append((nxt, now, acted, c))
        c = nxt
    return clocks


@settings(max_examples=300, deadline=None)
@given(histories())
def test_banks_never_go_negative_and_deadlines_are_exact(history):
    for c, now, _acted, _before in _replay(*history):
        assert json.loads(json.dumps(c)) == c
        banks = clock.remaining(c, now)
        if banks is None:
            assert clock.deadline(c) is None and clock.flagged(c, now) == []
            continue
        assert all(ms >= 0 for ms in banks) and all(ms >= 0 for ms in c["remaining_ms"])
        due = clock.deadline(c)
        if not c["running"]:
            assert due is None
            continue
        assert clock.flagged(c, due) and (due == c["since"] or not clock.flagged(c, due - 1))
        assert clock.flagged(c, max(now, c["since"])) == [s for s in c["running"] if banks[s] == 0]
        if c["kind"] == "turn_based":
            assert max(c["remaining_ms"]) <= c["per_move_ms"]


@settings(max_examples=300, deadline=None)
@given(histories())
def test_realtime_time_is_charged_exactly_once(history):
    """Each seat's bank = start - the time its clock ran + its increments, when no bank runs dry.

    Kept independently of the module: the time each seat spent in the running
    set (times behind the latest one count as the latest) and the actions
    each seat took while running."""
    tc, n, first, steps = history
    if tc["kind"] != "realtime":
        return
    tc = {**tc, "bank_s": 10_800}  # large enough that no bank runs out within 25 steps of at most 400 s
    clocks = _replay(tc, n, first, steps)
    ran = [0] * n
    actions = [0] * n
    latest = T0
    for (c, now, acted, before) in clocks[1:]:
        effective = max(now, latest)
        for seat in before["running"]:
            ran[seat] += effective - latest
        latest = effective
        if acted is not None:
            actions[acted] += 1
    final = clock.advance(clocks[-1][0], latest, [])  # the match ends: every held credit is paid
    assert final["remaining_ms"] == [
        10_800 * S - ran[s] + actions[s] * tc["increment_s"] * S for s in range(n)]
    assert final["pending"] == [0] * n


@settings(max_examples=200, deadline=None)
@given(histories(), st.integers(0, 1_000 * S))
def test_frame_counts_down_with_the_stored_clock(history, later):
    c, now, _acted, _before = _replay(*history)[-1]
    at = max(now, c["since"])
    frame = clock.frame(c, at + later)
    assert frame["server_ms"] == at + later and frame["running"] == c["running"]
    assert frame["remaining_ms"] == clock.remaining(c, at + later)
    if frame["remaining_ms"] is not None:
        for seat in range(len(frame["remaining_ms"])):
            expected = clock.remaining(c, at)[seat] - (later if seat in c["running"] else 0)
            assert frame["remaining_ms"][seat] == max(0, expected)
    assert [t is None for t in frame["turn_ms"]] == [s not in c["running"] for s in range(len(frame["turn_ms"]))]


@settings(max_examples=300, deadline=None)
@given(histories(), st.integers(0, 5), st.integers(0, 5), st.integers(0, 100 * S))
def test_who_answered_an_unchanged_question_never_shows(history, one, other, step):
    """Whenever an action leaves the same several seats asked, acting as one seat or another
    gives the same frames and deadline, now and after the question moves on."""
    c, now, _acted, _before = _replay(*history)[-1]
    asked = c["asked"]
    if len(asked) < 2:
        return
    a, b = asked[one % len(asked)], asked[other % len(asked)]
    paused = [s for s in asked if s not in c["running"]]
    after = [clock.advance(c, now + step, asked, seat, paused) for seat in (a, b)]
    assert clock.frame(after[0], now + step) == clock.frame(after[1], now + step)
    assert clock.deadline(after[0]) == clock.deadline(after[1])
    # Both seats then answer (in the two orders) and the question moves on: the same clock again.
    settled = [clock.advance(clock.advance(x, now + step + 1, asked, y, paused), now + step + 2, [], None, paused)
               for x, y in ((after[0], b), (after[1], a))]
    assert clock.frame(settled[0], now + step + 2) == clock.frame(settled[1], now + step + 2)
