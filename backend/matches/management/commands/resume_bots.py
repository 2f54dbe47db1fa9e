"""Play every bot turn that is due, e.g. after all server processes restarted.

Bots are normally driven by the process that committed the previous action
(or by whichever process a client of the match connects to).  A bots-only
match whose process stopped mid-match has neither; this command plays such
matches on until no bot is left to move, announcing each version as usual.
"""

import asyncio

from django.core.management.base import BaseCommand

from backend.matches.models import Match
from backend.matches.runtime import MatchHub


class Command(BaseCommand):
    help = "Play every bot turn that is due in active matches."

    def handle(self, *args, **options):
        ids = list(Match.objects.filter(status=Match.Status.ACTIVE).values_list("pk", flat=True))
        asyncio.run(self._play(ids))
        self.stdout.write(f"looked at {len(ids)} active match(es)")

    async def _play(self, ids):
        hub = MatchHub.current()
        try:
            for match_id in ids:
                await hub.wake(match_id)
            await hub.idle()
        finally:
            MatchHub.close_all()
