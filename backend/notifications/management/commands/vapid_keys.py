from django.core.management.base import BaseCommand

from backend.notifications.keys import new_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push as environment lines (deploy/README.md, Notifications)."

    def handle(self, *args, **options):
        private, public = new_keys()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")
