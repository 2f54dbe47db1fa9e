"""How soon the PostgreSQL connection pools try again after losing the server.

psycopg_pool retries a lost connection after 1 s, then doubles the wait
(2, 4, 8 s ...): PostgreSQL away for 8 s left the matches still 7 s after it
came back (issue 25).  Retrying every RETRY_S instead costs a few refused
connects a second per process while it is away; a retry that comes right
after the server returns is what players notice.  The pool has no option for
this, so its class constants are set once, when the apps load.
"""

from __future__ import annotations

from psycopg_pool import base

RETRY_S = 0.5


def retry_promptly() -> None:
    base.AttemptWithBackoff.INITIAL_DELAY = RETRY_S
    base.AttemptWithBackoff.DELAY_BACKOFF = 1.0  # every retry after RETRY_S (±10% jitter), not longer and longer
