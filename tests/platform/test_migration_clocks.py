"""matches 0002: matches from before clocks are untimed, and those a user already played can no longer be aborted."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("matches", "0001_initial")]
AFTER = [("matches", "0002_clocks_control_rematch")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_existing_matches_become_untimed_and_remember_human_moves():
    apps = _migrate(BEFORE)
    try:
        # Only matches goes back in time: the accounts table is as its latest migration left it.
        from django.contrib.auth import get_user_model

        Match, MatchSeat, ActionLog = (apps.get_model("matches", n) for n in ("Match", "MatchSeat", "ActionLog"))
        alice = get_user_model().objects.create_user(username="alice-m").pk

        def match(log):
            m = Match.objects.create(game="counting", seed=1, state={})
            MatchSeat.objects.create(match=m, seat=0, user_id=alice)
            MatchSeat.objects.create(match=m, seat=1, bot="random")
            for version, (seat, client_id) in enumerate(log, 1):
                ActionLog.objects.create(match=m, version=version, seat=seat, action={}, client_id=client_id)
            return m.pk

        untouched = match([])
        bot_only = match([(1, "bot:1:1:x")])
        # Seat 0 is a user's; a "bot:" id there is a bot playing it, not the user.
        user_played = match([(1, "bot:1:1:y"), (0, "3b7c")])
        bot_for_user = match([(0, "bot:1:0:z")])
        apps = _migrate(AFTER)
        Match = apps.get_model("matches", "Match")
        rows = {m.pk: m for m in Match.objects.all()}
        assert {pk for pk, m in rows.items() if m.human_acted} == {user_played}
        assert {untouched, bot_only, bot_for_user} <= set(rows)
        for m in rows.values():
            assert m.time_control == {"kind": "none"} and m.clock is None and m.control == []
            assert m.deadline_at is None and m.rematch_lobby_id is None
    finally:  # the tests after this one need every migration, later ones too
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
