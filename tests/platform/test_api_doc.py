"""docs/api.md against the server: the REST endpoints and their methods, the
error codes and their HTTP statuses, the sockets' close codes, and the
WebSocket message types each way.

The server's side is read from the code itself (the URL patterns,
backend.common.errors.STATUS, the codes every AppError is raised with, the `type` of every message the
sockets build and the types they take), so a code or message added without
its documentation, or documentation left behind by a removal, fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.urls import URLResolver, get_resolver

from backend.common.errors import STATUS
from backend.lobbies.ws import consumers as lobby_sockets
from backend.matches.ws import socket as match_socket

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "api.md").read_text()
BACKEND = ROOT / "backend"
# The modules that build what a socket sends (chat frames are built by chat's services) and take what it receives.
SOCKET_MODULES = ["matches/ws/socket.py", "lobbies/ws/consumers.py", "chat/services.py", "common/errors.py",
                  "common/ws_origin.py"]


def _section(title_start: str) -> str:
    start = DOC.index(f"\n## {title_start}")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end != -1 else None]


def _tree(relative: str) -> ast.Module:
    path = BACKEND / relative
    return ast.parse(path.read_text(), str(path))


def test_the_error_table_is_the_servers():
    table = dict(re.findall(r"^\| `(\w+)` \| (\d{3}) \|", _section("Errors"), re.M))
    assert {code: int(status) for code, status in table.items()} == STATUS


def test_every_code_the_server_raises_is_documented():
    """AppError checks its code at run time; this finds a code on a path no other test takes."""
    raised = set()
    for path in BACKEND.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("AppError", "MatchError", "ws_error") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                raised.add(node.args[0].value)
    assert raised and raised <= set(STATUS), raised - set(STATUS)


def test_the_match_sockets_close_codes_are_documented():
    refusals = _section("Match WebSocket").split("**Refusals**", 1)[1].split("\n\n", 1)[0]
    documented = {code: int(n) for code, n in re.findall(r"`(\w+)` (\d{4})", refusals)}
    assert documented == match_socket.CLOSE_CODES


def test_the_lobby_sockets_close_codes_are_documented():
    lobbies = _section("Lobbies")
    assert re.findall(r'"not_found", \.\.\.}` and close code (\d{4})', lobbies) == [str(lobby_sockets.CLOSE_NOT_FOUND)]
    assert re.findall(r"`forbidden`\s+and (\d{4})", lobbies) == [str(lobby_sockets.CLOSE_FORBIDDEN)]


def _sent_types() -> set[str]:
    """`type` of every message the sockets build: dict literals, and JSON written by hand ('{"type":"pong"}')."""
    found = set()
    for relative in SOCKET_MODULES:
        for node in ast.walk(_tree(relative)):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if (isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant)
                            and isinstance(value.value, str)):
                        found.add(value.value)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.update(re.findall(r'^\{"type":"(\w+)"', node.value))
    # Channel-layer events ("chat.frame", "lobbies.changed") and ASGI's own ("websocket.send") never reach a client.
    return {t for t in found if "." not in t}


def _taken_types() -> set[str]:
    """The types the sockets' receive paths compare `kind` (the message's type) with."""
    found = set()
    for relative in ("matches/ws/socket.py", "lobbies/ws/consumers.py"):
        tree = _tree(relative)
        tuples = {target.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                  for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "kind":
                for value in node.comparators:
                    value = tuples.get(value.id, value) if isinstance(value, ast.Name) else value
                    items = value.elts if isinstance(value, ast.Tuple) else [value]
                    found.update(i.value for i in items if isinstance(i, ast.Constant))
    return found


def _documented_types() -> set[str]:
    """Messages as docs/api.md writes them: `{"type": "x", ...}` opening a line of an example or inline code."""
    return set(re.findall(r'(?:^|`)\{"type": "(\w+)"', DOC, re.M))


def test_the_websocket_message_types_are_the_servers():
    sent, taken = _sent_types(), _taken_types()
    assert {"state", "presence", "notice", "error", "pong", "lobbies", "lobby", "chat_history"} <= sent
    assert {"action", "hold", "sync", "ping", "chat", "chat_mute", "chat_remove"} <= taken
    assert _documented_types() == sent | taken


def test_the_opening_promises_only_what_the_sockets_accept():
    """Issue 25: it said the sockets take `?token=`; they refuse a token in the URL."""
    opening = DOC.split("\n## ", 1)[0]
    assert "?token=" not in opening and "?ticket=" in opening


METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
UNDOCUMENTED = {"/api/schema/", "/api/docs/"}  # the OpenAPI schema and its browser, named in the opening


def _shape(path: str) -> str:
    """/api/lobbies/<int:lobby_id>/ and /api/lobbies/<id>/?code=... alike: /api/lobbies/<>/."""
    return re.sub(r"<[^>]*>", "<>", path.split("?", 1)[0])


def _served() -> set[tuple[str, str]]:
    def walk(patterns, prefix):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            else:
                yield prefix + str(p.pattern), getattr(p.callback, "view_class", None)

    return {(m, _shape(path)) for path, view in walk(get_resolver().url_patterns, "/")
            if path.startswith("/api/") and path not in UNDOCUMENTED
            for m in METHODS if hasattr(view, m.lower())}


def _documented_endpoints() -> set[tuple[str, str]]:
    found = {(m, _shape(p)) for m, p in re.findall(rf"`({'|'.join(METHODS)}) (/api/[^`\s]*)`", DOC)}
    # The accounts table names its paths relative to /api/auth/.
    accounts = _section("Accounts")
    found |= {(m, _shape("/api/auth/" + p)) for m, p in re.findall(rf"^\| `({'|'.join(METHODS)}) ([a-z][^`\s]*)`",
                                                                   accounts, re.M)}
    return found


def test_the_rest_endpoints_are_the_servers():
    served, documented = _served(), _documented_endpoints()
    assert ("POST", "/api/lobbies/") in served and ("POST", "/api/auth/login/") in documented
    assert sorted(served - documented) == [] and sorted(documented - served) == []
