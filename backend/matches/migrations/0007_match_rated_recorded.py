"""Match.rated (chosen in the lobby) and Match.recorded_at, the once-only claim of recording a finish.

Finished matches older than this stay unrecorded: the sweep (or `manage.py record_results`) records them
as unrated results, so the profiles count them."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0006_seat_seen'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='rated',
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.AddField(
            model_name='match',
            name='recorded_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(condition=models.Q(('recorded_at__isnull', True), ('status', 'finished')), fields=['finished_at'], name='matches_unrecorded_idx'),
        ),
    ]
