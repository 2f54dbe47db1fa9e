"""frontend/js/match/patch.js applies the server's patches as backend/matches/patches.py does: the same
states from the same messages of random games of both games, the held state never changed, what did not
change shared; and a patch for another version is refused (the screen then asks for the whole state)."""

from __future__ import annotations

import json
import random

import pytest

from backend.matches import jsoncodec, patches
from tests.platform.test_patches import _messages

from .test_match_log import app_page  # noqa: F401  (fixture: the app's page, no errors)

pytestmark = pytest.mark.browser

_APPLY_JS = """async (cases) => {
  const { applyPatch } = await import('/app/js/match/patch.js');
  return cases.map(([base, ops]) => {
    const before = JSON.stringify(base);
    const out = applyPatch(base, ops);
    const untouched = JSON.stringify(base) === before;
    // A member no operation reaches is the very object it was.
    const touched = new Set(ops.map((op) => op.path.split('/')[1].replace(/~1/g, '/').replace(/~0/g, '~')));
    const shared = Object.keys(base).filter((k) => !touched.has(k) && base[k] !== null && typeof base[k] === 'object')
      .every((k) => out[k] === base[k]);
    return { out, untouched, shared };
  });
}"""

_FRAMES_JS = """async ([first, patch, stray]) => {
  const { StateFrames } = await import('/app/js/match/patch.js');
  const frames = new StateFrames();
  const a = frames.take(first);
  const b = frames.take(patch);
  const c = frames.take(stray);
  return { a: a === first, b, c, path: window.__matchSocketPath(12) };
}"""


def _cases() -> list:
    cases = []
    for game in ("condottiere", "gods_playground"):
        held = {}
        for messages in _messages(game, 3, 150):
            for viewer, message in messages.items():
                if viewer in held:
                    cases.append([held[viewer], patches.diff(held[viewer], message), message])
                held[viewer] = message
    rng = random.Random(2)
    for _ in range(200):  # small documents, edits anywhere: lists grow and shrink, members come and go
        a = {k: rng.choice([[rng.randrange(5) for _ in range(rng.randrange(6))], {"x": rng.randrange(3)}, None, "s"])
             for k in rng.sample("abcdef~/", 4)}
        b = {k: rng.choice([[rng.randrange(5) for _ in range(rng.randrange(6))], {"x": rng.randrange(3), "y": 1}, 1])
             for k in rng.sample("abcdef~/", 4)}
        cases.append([a, patches.diff(a, b), b])
    return json.loads(jsoncodec.dumps(cases))


def test_the_browser_makes_the_same_states(app_page):
    cases = _cases()
    assert len(cases) > 500
    for start in range(0, len(cases), 200):
        batch = cases[start:start + 200]
        results = app_page.evaluate(_APPLY_JS, [[base, ops] for base, ops, _ in batch])
        for (base, ops, expected), got in zip(batch, results):
            assert got["out"] == expected
            assert got["untouched"] and got["shared"]


def test_a_patch_for_another_version_is_refused(app_page):
    first = {"type": "state", "version": 4, "view": {"hand": ["m1", "m2"]}, "legal_actions": []}
    patch = {"type": "patch", "version": 5, "base": 4,
             "patch": [{"op": "replace", "path": "/version", "value": 5}, {"op": "remove", "path": "/view/hand/0"}]}
    stray = {"type": "patch", "version": 7, "base": 6, "patch": []}
    got = app_page.evaluate(_FRAMES_JS, [first, patch, stray])
    assert got["a"] is True
    assert got["b"] == {"type": "state", "version": 5, "view": {"hand": ["m2"]}, "legal_actions": []}
    assert got["c"] is None
    assert got["path"] == "/ws/matches/12/?frames=patch"
