"""Record finished matches nobody recorded: those finished before the ratings
app existed, or whose process stopped between the finish and the record (the
server's sweep does the latter too, a few at a time)."""

from django.core.management.base import BaseCommand

from backend.ratings.services import record_pending


class Command(BaseCommand):
    help = "Record the results (and rating changes) of finished matches not yet recorded."

    def handle(self, *args, **options):
        total = 0
        while count := record_pending():
            total += count
        self.stdout.write(f"recorded {total} matches")
