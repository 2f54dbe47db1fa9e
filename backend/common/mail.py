"""Sending e-mail off the request thread.

An SMTP exchange takes from milliseconds to seconds; done inside the request,
the answer's delay would tell whoever asked whether a message went out (for a
password reset: whether an account has that address), and a slow mail server
would hold a server thread. Messages are built in the request (its language,
its host) and handed to one sending thread; the thread pool's workers are
joined at interpreter exit, so a stopping process still sends what it queued.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait

from django.core.mail import EmailMessage

log = logging.getLogger(__name__)

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_pending: set[Future] = set()


def send_later(message: EmailMessage, what: str) -> None:
    """Queue `message`; `what` names it in the log if sending fails (no address, no content)."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")
        future = _executor.submit(_send, message, what)
        _pending.add(future)
    future.add_done_callback(_pending.discard)


def _send(message: EmailMessage, what: str) -> None:
    try:
        message.send()
    except Exception:
        log.exception("Could not send %s", what)


def flush(timeout: float | None = None) -> None:
    """Wait until every message queued so far has been handed to the e-mail backend."""
    with _lock:
        pending = list(_pending)
    wait(pending, timeout=timeout)
