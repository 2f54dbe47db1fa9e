from django.core.management.base import BaseCommand

from backend.notifications.worker import Worker


class Command(BaseCommand):
    help = "Send the notifications in the outbox (Web Push, e-mail digests) until stopped (SIGTERM)."

    def handle(self, *args, **options):
        Worker().run()
