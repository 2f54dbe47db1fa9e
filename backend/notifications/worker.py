"""The notify worker's loop (manage.py notify_worker): drain the outbox, then the digests.

A process of its own, beside the server's: a push service that is slow or
down holds up this loop only, never a move. It polls (NOTIFY_POLL_S) for
due rows; rows are claimed with a lease (services.claim), so several workers
share the outbox and one that dies frees its rows when the lease runs out.
SIGTERM stops it after the row in hand.
"""

from __future__ import annotations

import logging
import signal
import threading

from django.conf import settings
from django.db import close_old_connections

from . import services
from .push import Sender

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, send=None):
        self.send = send or Sender()
        self.stopping = threading.Event()

    def run_once(self) -> int:
        """Serve every row due now (claimed a batch at a time) and the digests due; returns the rows served."""
        served = 0
        while not self.stopping.is_set():
            ids = services.claim(settings.NOTIFY_BATCH, settings.NOTIFY_LEASE_S)
            if not ids:
                break
            for row_id in ids:
                if self.stopping.is_set():
                    break  # the rest keep their lease until it runs out, then another worker has them
                try:
                    services.deliver(row_id, self.send)
                except Exception:
                    log.exception("notice %s failed; it is tried again when its lease runs out", row_id)
                served += 1
        if not self.stopping.is_set():
            services.send_digests()
        return served

    def run(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self.stopping.set())
        log.info("notify worker started")
        while not self.stopping.is_set():
            try:
                self.run_once()
            except Exception:
                log.exception("notify worker pass failed")
            close_old_connections()
            self.stopping.wait(settings.NOTIFY_POLL_S)
        log.info("notify worker stopped")
