"""Deploy checks of our own (`manage.py check --deploy`, and each Daphne
worker when it starts, since only the worker knows where it listens).

Bare Daphne never times out an incomplete request (deploy/README.md, the
nginx paragraph): a few hundred half-open connections starve it.  The shipped
nginx holds those instead, so a worker answering any address but loopback
is a site one slowloris away from silence, and behind nginx it would also
let clients skip the proxy and write their own X-Forwarded-For.
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks

from . import daphne_tls


def exposure_warnings(endpoints, trusted_proxy_count: int) -> list[checks.Warning]:
    exposed = [e for e in endpoints if e.kind in ("tcp", "ssl", "tcp6") and not daphne_tls.is_loopback(e.interface)]
    if not exposed:
        return []
    where = ", ".join(f"{e.kind}:{e.interface or '*'}:{e.port}" for e in exposed)
    if trusted_proxy_count == 0:
        return [checks.Warning(
            f"Daphne answers clients directly ({where}) without a proxy in front (TRUSTED_PROXY_COUNT=0).",
            hint="Bind Daphne to 127.0.0.1 behind the shipped nginx (deploy/README.md): bare Daphne never "
                 "times out a slow client, and a few hundred half-open connections stop the site.",
            id="games.W001")]
    return [checks.Warning(
        f"Daphne listens beyond loopback ({where}) while TRUSTED_PROXY_COUNT={trusted_proxy_count} trusts "
        "X-Forwarded-For: a client reaching it directly chooses the address the rate limits count.",
        hint="Bind Daphne to 127.0.0.1 and let only nginx reach it.",
        id="games.W002")]


@checks.register(checks.Tags.security, deploy=True)
def daphne_exposure(app_configs=None, **kwargs) -> list[checks.Warning]:
    return exposure_warnings(daphne_tls.own_endpoints(), settings.TRUSTED_PROXY_COUNT)
