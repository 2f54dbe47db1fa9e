"""A lobby may be rated (backend/ratings): its match changes the players' ratings. Off for every lobby so far."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('lobbies', '0003_time_control_rematch'),
    ]

    operations = [
        migrations.AddField(
            model_name='lobby',
            name='rated',
            field=models.BooleanField(db_default=False, default=False),
        ),
    ]
