"""List the accounts whose names look alike, and the names that mix scripts (backend/accounts/lookalikes.py).

Sign-up refuses both since the check exists; accounts made before it may
clash. Nobody is renamed: the staff decide (the admin can rename or
deactivate an account). `--refresh` first recomputes every account's key,
for after an upgrade of the confusables data.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from backend.accounts.lookalikes import clashes, refill


def _who(user) -> str:
    return f"{user.username} (id {user.pk}, joined {user.date_joined:%Y-%m-%d})"


class Command(BaseCommand):
    help = "List accounts whose names look alike or mix scripts."

    def add_arguments(self, parser):
        parser.add_argument("--refresh", action="store_true", help="recompute every account's look-alike key first")

    def handle(self, *args, refresh=False, **options):
        User = get_user_model()
        if refresh:
            self.stdout.write(f"{refill(User)} keys recomputed")
        groups, mixed = clashes(User)
        for group in groups:
            self.stdout.write("look alike: " + ", ".join(map(_who, group)))
        for user in mixed:
            self.stdout.write(f"mixes scripts: {_who(user)}")
        if not groups and not mixed:
            self.stdout.write("No look-alike names, and no name mixes scripts.")
            return
        accounts = sum(map(len, groups))
        self.stdout.write(f"{accounts} accounts in {len(groups)} group{'s' * (len(groups) != 1)} of look-alike names; "
                          f"{len(mixed)} name{' mixes' if len(mixed) == 1 else 's mix'} scripts.")
