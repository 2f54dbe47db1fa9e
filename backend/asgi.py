import importlib
import logging
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs the app registry)

from backend.accounts.ws_auth import PlatformAuthStack  # noqa: E402
from backend.common import checks, collector  # noqa: E402
from backend.common.logging_asgi import WebSocketAccessLog  # noqa: E402
from backend.common.ws_origin import OriginCheck  # noqa: E402
from backend.matches.ws.wire import WireMiddleware  # noqa: E402

# Each app that speaks WebSocket exposes `<app>.ws.routing.websocket_urlpatterns`;
# an app without one (yet) is simply skipped.
WS_ROUTING_MODULES = ["backend.lobbies.ws.routing", "backend.matches.ws.routing"]


def _collect_websocket_urlpatterns() -> list:
    patterns: list = []
    for name in WS_ROUTING_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise  # a real import error inside the routing module must not hide
            continue
        patterns.extend(module.websocket_urlpatterns)
    return patterns


websocket_urlpatterns: list = _collect_websocket_urlpatterns()

# Everything loaded so far lives as long as the process: out of the collector's passes.
collector.tune()

# Under Daphne (Twisted's reactor), a worker told to stop drains its matches first.
if "twisted.internet.reactor" in sys.modules:
    from backend.matches.runtime import shutdown  # noqa: E402

    shutdown.install()
    # Only the worker knows where it listens: it says so at start when it faces the internet bare.
    for warning in checks.daphne_exposure():
        logging.getLogger("backend.asgi").warning("%s (%s) %s", warning.msg, warning.id, warning.hint)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": WireMiddleware(WebSocketAccessLog(OriginCheck(PlatformAuthStack(URLRouter(websocket_urlpatterns))))),
    }
)
