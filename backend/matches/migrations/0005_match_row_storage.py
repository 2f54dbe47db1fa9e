"""PostgreSQL storage of the match row, which every move rewrites.

- fillfactor 50: the new version of a row fits in its own page, so the update
  is HOT (no index entry written) and the old version is pruned in place
  instead of piling up for vacuum.
- lz4 for the state: the state (a few KB of JSON) is compressed on every
  move; lz4 costs a fraction of the default pglz.  A server built without
  lz4 keeps pglz (the setting is refused there, and that is fine).
bench/ws_load.py measures the effect (PostgreSQL CPU per action)."""

from django.db import migrations


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("ALTER TABLE matches_match SET (fillfactor = 50)")
        cursor.execute("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
                       "AND 'lz4' = ANY(enumvals)")
        if cursor.fetchone():
            cursor.execute("ALTER TABLE matches_match ALTER COLUMN state SET COMPRESSION lz4")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("ALTER TABLE matches_match RESET (fillfactor)")
        cursor.execute("ALTER TABLE matches_match ALTER COLUMN state SET COMPRESSION DEFAULT")


class Migration(migrations.Migration):
    dependencies = [("matches", "0004_match_window")]
    operations = [migrations.RunPython(forwards, backwards)]
