"""Usernames (and e-mail addresses) compare by a folded key on every database.

The old rule, a unique index on lower(username), folded only ASCII on SQLite,
so existing rows may clash under the new key. The oldest account keeps its
name; a later one is renamed "<name>-<id>" (and a later duplicate e-mail
address is cleared). Each change is printed, for the operator to tell the
people concerned.
"""

from django.db import migrations, models

from backend.accounts.models import fold


def fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    names, addresses = set(), set()
    for user in User.objects.order_by("pk").iterator():
        key = fold(user.username)
        if key in names:
            old, suffix = user.username, f"-{user.pk}"
            while key in names:
                user.username = old[: 150 - len(suffix)] + suffix
                key = fold(user.username)
                suffix += "x"
            print(f"\n  accounts: user {user.pk} renamed from {old!r} to {user.username!r} (clashed with an older account)")
        names.add(key)
        user.username_key = key
        email_key = fold(user.email) if user.email else None
        if email_key in addresses:
            print(f"\n  accounts: user {user.pk}'s e-mail address cleared (an older account uses it)")
            user.email, email_key = "", None
        if email_key:
            addresses.add(email_key)
        user.email_key = email_key
        user.save(update_fields=["username", "username_key", "email", "email_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_user_manager_iexact"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="user", name="accounts_user_username_ci_unique"),
        migrations.AddField(model_name="user", name="username_key", field=models.TextField(editable=False, null=True)),
        migrations.AddField(model_name="user", name="email_key", field=models.TextField(editable=False, null=True)),
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(model_name="user", name="username_key", field=models.TextField(editable=False, unique=True)),
        migrations.AlterField(model_name="user", name="email_key",
                              field=models.TextField(editable=False, null=True, unique=True)),
    ]
