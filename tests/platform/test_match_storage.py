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
