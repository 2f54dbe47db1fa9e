"""Attempt limits counted in Django's cache (Redis when REDIS_URL is set, so
every server process shares them).

Callers count an attempt only when it is a real one (a credential check, an
account created, a mail sent), after the input has been validated, so a
mistyped form never uses up anyone's allowance.

Each limit is a sliding window estimated from two fixed windows, the one in
progress and the previous one weighted by how much of it still overlaps:
atomic with the cache's add/incr, two keys per counter, and no burst of twice
the rate at a window's edge as with one fixed window.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import ngettext

from backend.common.errors import AppError

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    limit: int
    period: int  # seconds

    @classmethod
    def parse(cls, text: str) -> Rate:
        """DRF's notation: "10/min", "5/hour", "100/day", "3/s"."""
        count, _slash, unit = text.partition("/")
        try:
            limit, period = int(count), _PERIODS[unit.strip()[:1].lower()]
        except (ValueError, KeyError):
            raise ValueError(f"Not a rate: {text!r} (e.g. '10/min')") from None
        if limit < 1:
            raise ValueError(f"Not a rate: {text!r} (at least 1 per period)")
        return cls(limit, period)


def rate(scope: str) -> Rate:
    return Rate.parse(settings.THROTTLE_RATES[scope])


def _too_many_attempts(wait: int) -> str:
    return ngettext("Too many attempts. Try again in %(seconds)d second.",
                    "Too many attempts. Try again in %(seconds)d seconds.", wait) % {"seconds": wait}


def take(scope: str, *idents: str, code: str = "rate_limited", message=_too_many_attempts) -> None:
    """Count one attempt against each of `idents` in `scope`, or raise
    AppError(`code`, message(seconds to wait)) with `retry_after` and count nothing."""
    limit = rate(scope)
    taken = []
    for ident in idents:
        key, wait = _take_one(limit, _key(scope, ident))
        if wait is not None:
            for earlier in taken:
                _give_back(earlier)
            raise AppError(code, message(wait), retry_after=wait)
        taken.append(key)


def _key(scope: str, ident: str) -> str:
    # Hashed: idents are addresses, e-mail addresses and ids, which may hold
    # characters some cache backends refuse in keys.
    return f"ratelimit:{scope}:{hashlib.sha256(ident.encode('utf-8', 'surrogatepass')).hexdigest()[:32]}"


def _take_one(limit: Rate, base: str) -> tuple[str, int | None]:
    """Count one attempt: the key counted in, and None if allowed or the
    seconds until an attempt would be (then the count is taken back)."""
    now = time.time()
    index, elapsed = int(now // limit.period), (now % limit.period) / limit.period
    key = f"{base}:{index}"
    # A window's counter lives two periods: long enough to be weighed as the previous one.
    timeout = 2 * limit.period + 1
    cache.add(key, 0, timeout=timeout)
    try:
        current = cache.incr(key)
    except ValueError:  # evicted between add and incr (a full local-memory cache culls)
        cache.set(key, 1, timeout=timeout)
        current = 1
    previous = cache.get(f"{base}:{index - 1}", 0)
    if previous * (1 - elapsed) + current <= limit.limit:
        return key, None
    _give_back(key)
    return key, _wait(limit, previous, current - 1, elapsed)


def _give_back(key: str) -> None:
    with contextlib.suppress(ValueError):  # the counter is gone already: nothing to take back
        cache.decr(key)


def _wait(limit: Rate, previous: int, current: int, elapsed: float) -> int:
    """Seconds until previous * (1 - elapsed) + current + 1 is within the limit."""
    room = limit.limit - current - 1
    if previous and room >= 0:
        at = 1 - room / previous  # later in this window, as the previous one weighs less
    else:
        # In the next window, where this one's count becomes the weighed one.
        at = 1 + max(0.0, 1 - (limit.limit - 1) / current) if current else 1
    return max(1, math.ceil((at - elapsed) * limit.period))


class TokenBucket:
    """Per-connection rate limit: `rate` messages a second, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
