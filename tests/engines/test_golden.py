"""Recorded games replay byte for byte (tools/engine_golden.py records them).

The legacy Condottiere games were recorded before backend/engines/rng.py
existed, with the options a match stored then (no "generator" key): stored matches
must keep replaying as they were played.  The generator-2 games pin what new
matches do, on any Python: swapping out CPython's `random` leaves them alone.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from backend.engines import IllegalAction, canonical, get_engine
from tools.engine_golden import digest, replay

GOLDEN = Path(__file__).parent / "golden"
LEGACY = sorted(GOLDEN.glob("condottiere_legacy_*.json"))
GENERATOR2 = sorted(GOLDEN.glob("condottiere_generator2_*.json"))
ALL = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def replays(record: dict) -> bool:
    state, events = replay(record)
    return digest(state) == record["state_sha256"] and digest(events) == record["events_sha256"]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_a_recorded_game_replays_byte_for_byte(path):
    assert replays(load(path))


def test_the_golden_games_cover_both_generators_and_every_shuffle():
    assert len(LEGACY) == 3 and len(GENERATOR2) == 3
    for path in LEGACY + GENERATOR2:
        record = load(path)
        state, events = replay(record)
        assert ("generator" in record["options"]) == (path in GENERATOR2) == ("generator" in state)
        kinds = {e["kind"] for step in events for e in step}
        if record["options"]["draw_after_battle"]:
            assert "reshuffle" in kinds, path.stem
        if record["options"]["points"]:
            assert "new_game" in kinds, path.stem  # collect_all shuffles all 110 cards


def _another_random(monkeypatch):
    """CPython's random replaced by different algorithms, as a new Python might."""
    monkeypatch.setattr(random.Random, "shuffle", lambda self, x: x.reverse())
    monkeypatch.setattr(random.Random, "randrange", lambda self, *args: 0)
    monkeypatch.setattr(random.Random, "random", lambda self: 0.5)


@pytest.mark.parametrize("path", GENERATOR2, ids=lambda p: p.stem)
def test_a_new_match_replays_identically_whatever_random_does(path, monkeypatch):
    _another_random(monkeypatch)
    assert replays(load(path))


def test_the_swapped_random_does_change_a_legacy_match(monkeypatch):
    """The swap above is real: the legacy generator's games stop replaying under it."""
    _another_random(monkeypatch)
    for path in LEGACY:
        try:
            assert not replays(load(path)), path.stem
        except IllegalAction:
            pass  # the recorded actions no longer fit the deal


def test_new_games_use_generator_2_and_stored_options_keep_theirs():
    engine = get_engine("condottiere")
    stored = engine.validate_options({})  # what the platform stores for a new match
    assert stored["generator"] == 2
    new = engine.setup(3, stored, seed=5)
    assert new["generator"] == 2 and "generator" not in new["opts"]
    assert canonical(engine.setup(3, {}, seed=5)) == canonical(new)  # left out: the default
    assert canonical(engine.setup(3, {"points": False}, seed=5)) == canonical(new)
    # Every other option named but not the generator: options stored before it existed.
    old = engine.setup(3, {k: v for k, v in stored.items() if k != "generator"}, seed=5)
    assert "generator" not in old  # generator 1, and the state as it was before the option
    assert old["hands"] != new["hands"]
    assert engine.view(new, 0)["options"] == engine.view(old, 0)["options"]
