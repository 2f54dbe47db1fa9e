"""Expire idle open lobbies, for cron (e.g. every 5 minutes).

Listing and fetching lobbies already expire them lazily; this also reaches
lobbies nobody lists, so members still in the room hear of it on time. Their
room sockets are told through the channel layer, which needs REDIS_URL when
the command runs outside the server process.
"""

from django.core.management.base import BaseCommand

from backend.lobbies.expiry import expire_idle, idle_minutes


class Command(BaseCommand):
    help = "Expire open lobbies idle for LOBBY_IDLE_MINUTES and tell their rooms."

    def handle(self, *args, **options):
        total = 0
        while count := expire_idle():
            total += count
        self.stdout.write(f"expired {total} lobbies (idle limit {idle_minutes()} minutes)")
