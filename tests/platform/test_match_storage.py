"""The match row's storage on PostgreSQL (migration 0005): every move rewrites the row."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_match_rows_leave_room_for_hot_updates_and_compress_the_state_with_lz4():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL storage parameters")
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'matches_match'")
        assert "fillfactor=50" in (cursor.fetchone()[0] or [])
        cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        lz4 = cursor.fetchone()[0]
        cursor.execute("SELECT attcompression FROM pg_attribute WHERE attrelid = 'matches_match'::regclass "
                       "AND attname = 'state'")
        assert cursor.fetchone()[0] == ("l" if lz4 else "")


def test_seen_stamps_of_many_matches_are_written_in_one_batch_and_a_later_stamp_stays(make_user):
    """store.write_seen (the absent-player rule's record): one call covers
    several matches and seats; an older stamp, open or closed, never replaces
    a newer one; a seat never stamped takes the first."""
    from backend.matches import store
    from backend.matches.services import create_match

    users = [make_user(f"seen{i}") for i in range(3)]
    first = create_match("condottiere", {}, users, 1, True).pk
    second = create_match("condottiere", {}, users, 2, True).pk
    start, other = store.read_seen(first), store.read_seen(second)
    assert all(s and s < 0 for s in start + other)  # gone from the start until a connection vouches
    t = max(-s for s in start + other)
    store.write_seen({first: {0: t + 1000, 1: -(t + 2000)}, second: {2: t + 3000}})
    assert store.read_seen(first) == [t + 1000, -(t + 2000), start[2]]
    assert store.read_seen(second) == [other[0], other[1], t + 3000]
    # Older than what is there, whatever the signs: nothing changes.
    store.write_seen({first: {0: -(t + 500), 1: t + 1500}, second: {2: t + 2500}})
    assert store.read_seen(first) == [t + 1000, -(t + 2000), start[2]]
    assert store.read_seen(second) == [other[0], other[1], t + 3000]
    store.write_seen({})
    store.write_seen({first: {2: -(t + 4000)}})
    assert store.read_seen(first) == [t + 1000, -(t + 2000), -(t + 4000)]
