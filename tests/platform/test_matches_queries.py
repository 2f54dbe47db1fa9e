"""The hot path's database cost: at most three statements per action (one on PostgreSQL when warm)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backend.engines import get_engine
from backend.matches import services, store
from backend.matches.models import ActionLog, Match


pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


def _next_action(match_id: int):
    match = Match.objects.get(pk=match_id)
    engine = get_engine("condottiere")
    state = store.read_state(match_id)  # the row's state is that of a version every few (store.py)
    seat = engine.to_move(state)[0]
    return seat, match.version, engine.legal_actions(state, seat)[0]


def _statements(queries) -> list[str]:
    # BEGIN/COMMIT/SAVEPOINT are transaction control, not queries.
    return [q["sql"] for q in queries if not q["sql"].upper().startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]


def test_the_one_by_one_path_reads_the_snapshot_and_writes_once(make_user):
    """services.apply_action (SQLite's path; PostgreSQL's for what the group
    commit cannot settle): with the match's fixed facts known, one snapshot
    read (two between stored states: the log rows since), then one statement on PostgreSQL (update, log and resend check in
    one) or the resend check, UPDATE and INSERT on SQLite."""
    users = [make_user() for _ in range(3)]
    match = services.create_match("condottiere", {}, users, 4, True)
    info = store.read_info(match.pk)
    for i in range(4):
        seat, version, action = _next_action(match.pk)
        with CaptureQueriesContext(connection) as ctx:
            applied = services.apply_action(match.pk, seat, version, action, f"id{i}", info)
        statements = _statements(ctx.captured_queries)
        assert not applied.duplicate and applied.snapshot.version == version + 1
        # The match row, then (between two stored states) the log rows since the stored one.
        reads = ["SELECT"] * (1 if version % settings.MATCH_STATE_EVERY == 0 else 2)
        expected = reads + (["WITH"] if connection.vendor == "postgresql" else ["SELECT", "UPDATE", "INSERT"])
        assert [s.split()[0].upper() for s in statements] == expected, statements
    assert ActionLog.objects.filter(match=match).count() == 4
