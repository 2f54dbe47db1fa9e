import sys
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from backend.notifications.models import Outbox
from backend.notifications.worker import Worker


class Command(BaseCommand):
    help = "Send the notifications in the outbox (Web Push, e-mail digests) until stopped (SIGTERM)."

    def add_arguments(self, parser):
        parser.add_argument("--health", type=float, metavar="SECONDS", default=None,
                            help="Do not run: exit 1 if a notice has been due for longer than SECONDS "
                                 "(no worker is draining the outbox), else 0.")

    def handle(self, *args, health=None, **options):
        if health is not None:
            late = timezone.now() - timedelta(seconds=health)
            sys.exit(1 if Outbox.objects.filter(done_at__isnull=True, due_at__lt=late).exists() else 0)
        Worker().run()
