"""The hot path's database cost: at most three statements per action (one on PostgreSQL when warm)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backend.engines import get_engine
from backend.matches import services
from backend.matches.cache import CACHE
from backend.matches.models import ActionLog, Match

from .match_support import match_env  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    return match_env


def _next_action(match_id: int):
    match = Match.objects.get(pk=match_id)
    engine = get_engine("condottiere")
    seat = engine.to_move(match.state)[0]
    return seat, match.version, engine.legal_actions(match.state, seat)[0]


def _statements(queries) -> list[str]:
    # BEGIN/COMMIT/SAVEPOINT are transaction control, not queries.
    return [q["sql"] for q in queries if not q["sql"].upper().startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]


def test_an_action_costs_at_most_two_statements_warm(make_user):
    users = [make_user() for _ in range(3)]
    match = services.create_match("condottiere", {}, users, 4, True)
    for i in range(6):
        seat, version, action = _next_action(match.pk)
        if i % 2:
            CACHE.clear()  # as in a process that has not seen this match yet
        with CaptureQueriesContext(connection) as ctx:
            applied = services.apply_action(match.pk, seat, version, action, f"id{i}")
        statements = _statements(ctx.captured_queries)
        assert not applied.duplicate and applied.snapshot.version == version + 1
        # Cold: the seats (info) and snapshot reads come first; info is fixed and cached for good.
        reads = [s for s in statements if s.upper().startswith("SELECT")]
        writes = [s for s in statements if not s.upper().startswith("SELECT")]
        assert len(statements) <= 3 or i % 2, statements
        # PostgreSQL: one UPDATE-then-INSERT statement (a CTE); SQLite: the two.
        expected = ["WITH"] if connection.vendor == "postgresql" else ["UPDATE", "INSERT"]
        assert [w.split()[0].upper() for w in writes] == expected
        if i % 2 == 0 and i > 0:
            assert reads == [], statements
    assert ActionLog.objects.filter(match=match).count() == 6


def test_cold_process_with_known_seats_reads_once(make_user):
    users = [make_user() for _ in range(3)]
    match = services.create_match("condottiere", {}, users, 4, True)
    for i in range(3):
        services.apply_action(match.pk, *_next_action(match.pk), f"warm{i}")
    seat, version, action = _next_action(match.pk)
    info = CACHE.info(match.pk)
    CACHE.clear()
    CACHE.put_info(info)
    with CaptureQueriesContext(connection) as ctx:
        services.apply_action(match.pk, seat, version, action, "cold")
    statements = _statements(ctx.captured_queries)
    # SELECT snapshot, then UPDATE + INSERT (SQLite) or the one CTE (PostgreSQL).
    assert len(statements) == (2 if connection.vendor == "postgresql" else 3), statements
