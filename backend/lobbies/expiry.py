"""Open lobbies nobody has touched for LOBBY_IDLE_MINUTES expire.

No scheduler is required: listing and fetching sweep first (services.py), and
`manage.py expire_lobbies` sweeps from cron so that rooms nobody looks at are
announced too. The usual sweep finds nothing and then costs one indexed read
that takes no lock, so listing never queues behind writers (SQLite's write
lock is per database).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import ngettext

from . import broadcast
from .models import Lobby

BATCH = 500


def idle_minutes() -> int:
    return settings.LOBBY_IDLE_MINUTES


def expired_message() -> str:
    return ngettext("This lobby expired after %(minutes)d minute without activity; create a new one.",
                    "This lobby expired after %(minutes)d minutes without activity; create a new one.",
                    idle_minutes()) % {"minutes": idle_minutes()}


def expire_idle(lobby_id: int | None = None) -> int:
    """Expire idle open lobbies (only `lobby_id` if given), announce them after the commit; how many expired."""
    if idle_minutes() <= 0:
        return 0
    now = timezone.now()
    stale = Lobby.objects.filter(status=Lobby.Status.OPEN, last_active_at__lt=now - timedelta(minutes=idle_minutes()))
    if lobby_id is not None:
        stale = stale.filter(pk=lobby_id)
    found = list(stale.order_by().values_list("pk", "private")[:BATCH])  # any order: no sort after the index scan
    if not found:
        return 0
    with transaction.atomic():
        # One UPDATE that checks the condition again on each row as it writes it, so a lobby
        # joined since the read stays open (its announcement below then repeats a version
        # every client already holds, which they drop).
        count = stale.filter(pk__in=[pk for pk, _ in found]).update(
            status=Lobby.Status.EXPIRED, version=F("version") + 1, updated_at=now)
        for pk, private in found:
            broadcast.after_commit(pk, private)
    return count
