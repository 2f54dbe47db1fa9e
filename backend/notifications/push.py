"""Web Push with VAPID (RFC 8030, 8291, 8292) through pywebpush: the worker's only sender.

The message is encrypted for the device (aes128gcm) and signed for the push
service with the site's VAPID key (VAPID_PRIVATE_KEY, VAPID_SUBJECT; keys.py).
The Topic header lets the push service replace a notice of the same match
still waiting for the device.
"""

from __future__ import annotations

import logging

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from .models import Subscription
from .services import Notice

log = logging.getLogger(__name__)


class Sender:
    """Posts notices; one HTTP session (kept-alive connections) per worker."""

    def __init__(self):
        if not settings.VAPID_PRIVATE_KEY:
            log.warning("VAPID_PRIVATE_KEY is not set: push notices are not sent (deploy/README.md)")
        self.session = requests.Session()

    def __call__(self, device: Subscription, notice: Notice) -> int | None:
        """The push service's HTTP status, or None when it did not answer."""
        info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
        try:
            response = webpush(info, notice.payload().decode(), vapid_private_key=settings.VAPID_PRIVATE_KEY,
                               vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=settings.NOTIFY_PUSH_TTL_S,
                               headers={"Topic": notice.tag[:32], "Urgency": "normal"},
                               timeout=settings.NOTIFY_PUSH_TIMEOUT_S, requests_session=self.session)
            return response.status_code
        except WebPushException as exc:
            return exc.response.status_code if exc.response is not None else None
        except (requests.RequestException, OSError) as exc:
            log.info("push service %s did not answer: %s", device.endpoint.split("/")[2], exc)
            return None
