"""The lean messages of difference-frame clients (docs/api.md, Difference
frames): a clock that reads as it stood at the last move, events without
their English text.  Read from receipt minus `age_ms`, a lean clock says what
the whole frame says; between two moves it does not change at all."""

from __future__ import annotations

import pytest

from backend.matches import clock as clocks
from backend.matches.ws.socket import lean_event

CONTROLS = [
    {"kind": "none"},
    {"kind": "realtime", "bank_s": 300, "increment_s": 5},
    {"kind": "turn_based", "per_move_s": 86_400},
]


def _played(control: dict):
    """A clock after three moves of a 3-seat match, the last at t=10,000."""
    clock = clocks.start(control, 3, [0], 1_000)
    clock = clocks.advance(clock, 4_000, [1], 0)
    clock = clocks.advance(clock, 9_000, [2], 1)
    return clocks.advance(clock, 10_000, [0, 2], 2)  # two seats asked at once: seat 2 went on


def _read(frame: dict, seats: int) -> tuple[list, list]:
    """(remaining, on turn) per seat as a client counts them at the moment the frame reads at."""
    if "running_ms" in frame:  # lean: it stood still age_ms ago
        age, turn = frame.get("age_ms", 0), [None] * seats
        for seat, ms in zip(frame["running"], frame["running_ms"]):
            turn[seat] = ms + age
        banks = frame.get("remaining_ms")
        remaining = None if banks is None else [
            max(0, ms - age) if s in frame["running"] else ms for s, ms in enumerate(banks)]
        return remaining, turn
    return frame["remaining_ms"], frame["turn_ms"]


@pytest.mark.parametrize("control", CONTROLS, ids=lambda c: c["kind"])
@pytest.mark.parametrize("later", [0, 7, 999, 1_000, 61_234])
def test_a_lean_clock_reads_as_the_whole_frame(control, later):
    clock = _played(control)
    now = clock["since"] + later
    lean, whole = clocks.lean_frame(clock, now), clocks.frame(clock, now)
    assert lean["kind"] == whole["kind"] and lean["running"] == whole["running"] == [0, 2]
    assert "turn_ms" not in lean and "server_ms" not in lean
    remaining, turn = _read(lean, 3)
    if control["kind"] == "none":
        assert remaining is None and whole["remaining_ms"] is None
        # Untimed: whole seconds of age, so the turn reads at most a second short.
        assert [t is None for t in turn] == [t is None for t in whole["turn_ms"]]
        assert all(0 <= w - t < 1_000 for t, w in zip(turn, whole["turn_ms"]) if t is not None)
    else:
        assert (remaining, turn) == (whole["remaining_ms"], whole["turn_ms"])
        for key in ("increment_ms", "per_move_ms"):
            assert lean.get(key) == whole.get(key)


@pytest.mark.parametrize("control", CONTROLS, ids=lambda c: c["kind"])
def test_between_two_moves_an_untimed_lean_clock_stays_the_same(control):
    clock = _played(control)
    soon, later = (clocks.lean_frame(clock, clock["since"] + ms) for ms in (3, 80))
    whole = clocks.frame(clock, clock["since"] + 3), clocks.frame(clock, clock["since"] + 80)
    assert whole[0] != whole[1]  # the whole frame changes with every reading
    if control["kind"] == "none":
        assert soon == later and "age_ms" not in soon
    else:
        assert {**soon, "age_ms": 0} == {**later, "age_ms": 0} and (soon["age_ms"], later["age_ms"]) == (3, 80)


def test_a_lean_event_drops_its_text_and_a_public_to():
    public = {"text": "Seat 1 passes.", "to": None, "kind": "pass", "seat": 1, "params": {}}
    private = {"text": "You draw m10.", "to": [2], "kind": "deal_private", "seat": 2, "params": {"cards": ["m10"]}}
    assert lean_event(public) == {"kind": "pass", "seat": 1, "params": {}}
    assert lean_event(private) == {"to": [2], "kind": "deal_private", "seat": 2, "params": {"cards": ["m10"]}}
    assert public["text"] and private["text"]  # the log's events are left alone
    old = {"text": "Seat 0 wins Milano.", "to": None}  # stored before events were data: its words are all it has
    assert lean_event(old) is old
