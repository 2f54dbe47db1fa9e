"""A worker that is asked to stop (SIGTERM) drains first.

It stops taking new match sockets, lets the moves already on their way to
the database commit, and closes its match sockets with 4503 (this server
restarts), which the app answers by reconnecting at once, to whichever
worker takes it.  Then the server stops as it would have.  Under Daphne
only: Twisted's reactor is what stops, so the handler takes SIGTERM over
once the reactor runs.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from django.conf import settings

from .hub import MatchHub

log = logging.getLogger(__name__)


def install() -> None:
    """Take SIGTERM over once Daphne's reactor runs (call at import of the ASGI app)."""
    from twisted.internet import reactor

    reactor.callWhenRunning(_take_over_sigterm, reactor)
    log.debug("SIGTERM will drain the match sockets first")


def _take_over_sigterm(reactor) -> None:
    """Replace Twisted's SIGTERM handler (installed as the reactor started)."""
    stopping = []

    def begin() -> None:  # in the reactor's own loop
        if stopping:  # a second SIGTERM: stop now
            reactor.stop()
            return
        stopping.append(asyncio.get_running_loop().create_task(_drain_then_stop(reactor)))

    signal.signal(signal.SIGTERM, lambda signum, frame: reactor.callFromThread(begin))


async def _drain_then_stop(reactor) -> None:
    log.info("stopping: draining the match sockets first")
    try:
        await asyncio.wait_for(MatchHub.current().drain(), settings.MATCH_DRAIN_S)
    except Exception:
        log.warning("draining before the stop did not finish", exc_info=True)
    finally:
        reactor.stop()
