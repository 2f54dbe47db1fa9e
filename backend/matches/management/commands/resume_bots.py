"""Play every bot turn that is due, e.g. after all server processes restarted.

Bots are normally driven by the process that committed the previous action
(or by whichever process a client of the match connects to).  A bots-only
match whose process stopped mid-match has neither; this command plays such
matches on until no bot is left to move, announcing each version as usual.
"""

import asyncio

from django.core.management.base import BaseCommand

from backend.engines import get_engine
from backend.matches import live
from backend.matches.cache import Snapshot
from backend.matches.models import Match
from backend.matches.services import load_info


class Command(BaseCommand):
    help = "Play every bot turn that is due in active matches."

    def handle(self, *args, **options):
        due = []
        for match in Match.objects.filter(status=Match.Status.ACTIVE).iterator():
            info = load_info(match.pk)
            to_move = tuple(get_engine(match.game).to_move(match.state))
            if any(info.seats[s].bot for s in to_move):
                due.append((info, Snapshot(match.version, match.state, to_move, match.status)))
        asyncio.run(self._play(due))
        self.stdout.write(f"resumed {len(due)} match(es)")

    async def _play(self, due):
        for info, snapshot in due:
            live.schedule_bots(info, snapshot)
        while live._background:
            await asyncio.gather(*list(live._background), return_exceptions=True)
