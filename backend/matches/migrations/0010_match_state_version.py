from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0009_match_window_cap'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='state_version',
            field=models.IntegerField(default=0),
        ),
        # Every match stored so far holds the state of its version.
        migrations.RunSQL("UPDATE matches_match SET state_version = version", migrations.RunSQL.noop),
    ]
