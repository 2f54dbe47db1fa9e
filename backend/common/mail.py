"""Composing and sending e-mail off the request thread.

Whether a message goes out must not show in the answer's timing: for a
password reset that would tell whether an account uses the address. So the
request only queues a job; the mail thread looks the accounts up, renders
and sends (an SMTP exchange takes from milliseconds to seconds, which no
request should wait for either). The thread closes its database connections
after each job. The pool's worker is joined at interpreter exit, so a
stopping process still sends what it queued.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor, wait

from django.core.mail import EmailMessage
from django.db import connections

log = logging.getLogger(__name__)

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_pending: set[Future] = set()
# A job starts this long after it was queued, when the request that queued it
# has answered: run at once, its work would compete with the request's last
# steps for the interpreter and lengthen the answer when there is mail to send.
_START_AFTER = 0.1


def send_later(compose: Callable[[], Iterable[EmailMessage]], what: str) -> None:
    """Run `compose` on the mail thread and send the messages it returns;
    `what` names the job in the log if it fails (no address, no content)."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")
        future = _executor.submit(_run, compose, what, time.monotonic() + _START_AFTER)
        _pending.add(future)
    future.add_done_callback(_pending.discard)


def _run(compose: Callable[[], Iterable[EmailMessage]], what: str, start: float) -> None:
    time.sleep(max(0.0, start - time.monotonic()))
    try:
        for message in compose():
            message.send()
    except Exception:
        log.exception("Could not send %s", what)
    finally:
        connections.close_all()  # this thread's own; idle between jobs, they would only age


def flush(timeout: float | None = None) -> None:
    """Wait until every job queued so far has run."""
    with _lock:
        pending = list(_pending)
    wait(pending, timeout=timeout)
