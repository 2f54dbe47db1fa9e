"""Ratings per player and game, and one result row per player and finished match."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('matches', '0007_match_rated_recorded'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(max_length=40)),
                ('value', models.FloatField(default=1500.0)),
                ('matches', models.PositiveIntegerField(default=0)),
                ('wins', models.PositiveIntegerField(default=0)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['game', '-value', 'user'], name='ratings_leaderboard_idx')],
                'constraints': [models.UniqueConstraint(fields=('user', 'game'), name='ratings_rating_user_game_unique')],
            },
        ),
        migrations.CreateModel(
            name='Result',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(max_length=40)),
                ('seat', models.PositiveSmallIntegerField()),
                ('place', models.PositiveSmallIntegerField()),
                ('players', models.PositiveSmallIntegerField()),
                ('won', models.BooleanField()),
                ('forfeit', models.BooleanField()),
                ('rated', models.BooleanField()),
                ('rating_before', models.FloatField(blank=True, null=True)),
                ('rating_after', models.FloatField(blank=True, null=True)),
                ('finished_at', models.DateTimeField()),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='matches.match')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['user', '-finished_at'], name='ratings_result_recent_idx'), models.Index(condition=models.Q(('rated', True)), fields=['user', 'game', '-finished_at'], name='ratings_result_history_idx')],
                'constraints': [models.UniqueConstraint(fields=('match', 'user'), name='ratings_result_match_user_unique')],
            },
        ),
    ]
