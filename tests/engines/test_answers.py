"""Both engines answer recorded actions as they did when the answers were recorded.

tests/engines/answers/ holds, for positions of seeded random games, actions at
and near the legal ones with the answer the engines gave before each action
was checked on its own instead of looked up in the listing (accepted and its
canonical spelling, or the refusal's kind, template and parameters):
tools/engine_answers.py records and checks them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.engine_answers import differences, load

ANSWERS = sorted((Path(__file__).parent / "answers").glob("*.json.gz"))


def test_both_games_have_recorded_answers():
    assert {p.name.split(".")[0] for p in ANSWERS} == {"condottiere", "gods_playground"}


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.name.split(".")[0])
def test_the_engine_answers_every_recorded_action_as_recorded(path):
    assert differences(load(str(path))) == []


def test_an_answer_that_changed_is_found(monkeypatch):
    """A refusal that lets a seat bid one taler more than it has is caught."""
    from backend.engines.gods_playground import refusals

    def lenient(s, seat, a):
        return None if a["amount"] == s["money"][seat] + 1 else refusals._bid(s, seat, a)

    monkeypatch.setitem(refusals._REASONS, "bid", lenient)
    path = next(p for p in ANSWERS if p.name.startswith("gods_playground"))
    assert differences(load(str(path)), limit=1)
