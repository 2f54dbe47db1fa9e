"""The view is built from allow-lists: a key nobody named never reaches a viewer."""

import json
import random

from backend.engines.base import canonical, clone
from backend.engines.gods_playground import ENGINE

from .helpers import play_random

TOKEN = "zz-new-secret"


def with_unknown_keys(s: dict) -> dict:
    """The state with a new field in each record a future change might extend."""
    s = clone(s)
    s[TOKEN] = TOKEN
    s["prov"]["ukraine"][TOKEN] = TOKEN
    s["box"]["black"][TOKEN] = TOKEN
    s["royal_army"][TOKEN] = TOKEN
    s["cossacks"][TOKEN] = TOKEN
    if s["revealed"]:
        s["revealed"][0][TOKEN] = TOKEN
    if s["pending"]:
        s["pending"][TOKEN] = TOKEN
    return s


def test_a_key_added_to_the_state_appears_in_no_view():
    rng = random.Random(0)
    checked = 0
    seen_kinds = set()
    for s, _, _ in play_random(4):
        kind = s["pending"]["kind"] if s["pending"] else None
        if kind in seen_kinds and rng.random() > 0.2:
            continue  # a sample, but every kind of decision at least once
        changed = with_unknown_keys(s)
        for seat in (None, 0, 1, 2):
            view = ENGINE.view(changed, seat)
            assert TOKEN not in json.dumps(view), f"a new key leaks into the view of {seat}"
            assert canonical(view) == canonical(ENGINE.view(s, seat))
            checked += 1
        seen_kinds.add(kind)
    assert checked > 100 and len(seen_kinds) >= 6, (checked, seen_kinds)


def test_every_public_key_of_the_state_is_in_the_view():
    """The allow-list is not an empty list: all of the state but its secrets is shown."""
    s = next(s for s, _, _ in play_random(2) if s["round"] == 2)
    view = ENGINE.view(s, 0)
    secret = {"seed", "rng", "dice_queue", "secret"}
    assert set(s) - secret <= set(view)
    assert not secret & set(view)
    for p, pr in s["prov"].items():
        assert view["prov"][p] == pr
