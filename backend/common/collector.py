"""How the server process runs CPython's garbage collector.

What a live match allocates (states, views, JSON, frames) is acyclic and
freed by reference counting, so young passes can be rare (first threshold).
What a socket holds (Twisted's protocol, the ASGI coroutines, its user row)
lives for minutes and survives the young pass, so a middle-generation pass
walks everything connected since the previous one: its threshold stays small,
so each such pass stays short, and the last threshold keeps full passes as
rare as before. tests/test_collector.py checks what a middle pass walks.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 5, 10_000)


def tune() -> None:
    """Freeze what is loaded so far (it lives as long as the process) and set the thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
