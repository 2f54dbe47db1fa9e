from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0008_log_match_no_extra_index'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='window_cap',
            field=models.BigIntegerField(blank=True, null=True),
        ),
    ]
