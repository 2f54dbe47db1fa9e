"""Who was last seen connected moves from the match row (Match.seen) to each
seat's row (MatchSeat.seen_ms): the presence heartbeat locked every match row
it stamped, and a move's UPDATE of that row waited for it (store.write_seen)."""

from django.db import migrations, models


def copy_seen(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    MatchSeat = apps.get_model("matches", "MatchSeat")
    for match_id, seen in Match.objects.exclude(seen=[]).values_list("pk", "seen").iterator():
        for seat, ms in enumerate(seen or []):
            if ms is not None:
                MatchSeat.objects.filter(match_id=match_id, seat=seat).update(seen_ms=ms)


class Migration(migrations.Migration):
    dependencies = [("matches", "0005_match_row_storage")]
    operations = [
        migrations.AddField("matchseat", "seen_ms", models.BigIntegerField(blank=True, null=True)),
        migrations.RunPython(copy_seen, migrations.RunPython.noop),
        migrations.RemoveField("match", "seen"),
    ]
