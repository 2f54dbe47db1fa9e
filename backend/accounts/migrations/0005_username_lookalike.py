"""Each account's look-alike key (backend/accounts/lookalikes.py), filled for existing accounts.

Not unique: accounts made before the check may already clash; `python manage.py lookalike_names`
lists them for the staff (nobody is renamed here).
"""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from backend.accounts.lookalikes import refill

    refill(apps.get_model("accounts", "User"))


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_user_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_lookalike",
            field=models.TextField(db_default="", db_index=True, default="", editable=False),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=False),
    ]
