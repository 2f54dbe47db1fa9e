"""The backend's modules import each other one way: no cycles, and layers
that only look down (transport -> runtime -> services -> store/domain -> engines).

Every import counts, those inside functions too: a lazy import hides a
cycle from the interpreter, not from the reader."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.graphs import cycles

ROOT = Path(__file__).resolve().parents[1]
BACKEND = ROOT / "backend"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in BACKEND.rglob("*.py") if "migrations" not in p.parts}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The backend modules `name` imports (an imported name that is a module counts as that module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    graph = {name: _imports(name, path, known) for name, path in modules.items()}
    # A package's __init__ is imported on the way to any of its modules, but
    # importing a module does not import its siblings: drop the edges from a
    # module to the packages that contain it.
    return {name: {t for t in targets if not name.startswith(t + ".")} for name, targets in graph.items()}


def test_no_import_cycles_in_the_backend():
    assert cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# Lower layers never import higher ones.  Each rule: (modules, prefixes they may not import).
RULES = [
    ("backend.engines", ["backend.matches", "backend.lobbies", "backend.accounts", "backend.games",
                         "backend.common", "backend.web", "django", "channels", "rest_framework"]),
    ("backend.matches.domain", ["backend.matches.store", "backend.matches.services", "backend.matches.runtime",
                                "backend.matches.ws", "backend.matches.api"]),
    ("backend.matches.store", ["backend.matches.services", "backend.matches.runtime", "backend.matches.ws",
                               "backend.matches.api"]),
    ("backend.matches.services", ["backend.matches.runtime", "backend.matches.ws", "backend.matches.api"]),
    ("backend.matches.replays", ["backend.matches.runtime", "backend.matches.ws", "backend.matches.api"]),
    ("backend.matches.runtime", ["backend.matches.ws", "backend.matches.api"]),
    ("backend.lobbies.services", ["backend.matches.runtime", "backend.matches.ws", "backend.lobbies.ws",
                                  "backend.lobbies.api"]),
    # Chat is a leaf: the match and the lobby reach it through backend/matches/chat.py and backend/lobbies/chat.py,
    # and it tells them of removals with a signal (backend/chat/signals.py); it sends nothing itself.
    ("backend.chat", ["backend.matches", "backend.lobbies", "backend.ratings", "backend.web", "channels"]),
    ("backend.chat.models", ["backend.chat.services", "backend.chat.admin"]),
    # The ratings hear of finishes through backend.matches.signals; the matches app never imports them.
    ("backend.ratings.services", ["backend.matches.runtime", "backend.matches.ws", "backend.matches.api",
                                  "backend.ratings.api", "backend.lobbies"]),
    ("backend.ratings.elo", ["backend", "django"]),
    ("backend.matches", ["backend.ratings", "backend.lobbies"]),
    # The outbox sits below the apps that write it (the match store writes a move's rows in its statement).
    ("backend.notifications.models", ["backend.matches", "backend.lobbies", "backend.chat", "backend.ratings",
                                      "backend.notifications.services"]),
    ("backend.notifications.services", ["backend.matches.runtime", "backend.matches.ws", "backend.matches.api",
                                        "backend.notifications.api", "backend.notifications.worker", "channels"]),
]


def _all_imports(name: str, path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out


@pytest.mark.parametrize("layer,forbidden", RULES)
def test_layers_only_look_down(layer, forbidden):
    graph, modules = _graph(), _modules()
    offences = []
    for name, path in modules.items():
        if name != layer and not name.startswith(layer + "."):
            continue
        targets = graph[name] | _all_imports(name, path)
        offences += [(name, t) for t in targets for f in forbidden if t == f or t.startswith(f + ".")]
    assert offences == []


# The apps, each importing only those after it: the direction the layers above keep within an app, between
# apps.  The project's own modules (backend.asgi, backend.urls, backend.settings) sit above them all.  The
# notifications' outbox (its models) is a unit of its own: matches, lobbies and chat write into it in their
# transactions, while the rest of that app reads matches to word and send what it holds.
APPS = ["web", "notifications", "ratings", "lobbies", "matches", "chat", "notifications.models", "accounts", "games",
        "common", "engines"]
PROJECT = {"asgi", "urls", "settings"}


def _unit(module: str) -> str | None:
    """The app (or the unit of APPS) a backend module belongs to; None for the project's own modules."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] in PROJECT:
        return None
    return ".".join(parts[1:3]) if ".".join(parts[1:3]) in APPS else parts[1]


def _app_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, targets in _graph().items():
        unit = _unit(name)
        if unit is not None:
            graph.setdefault(unit, set()).update(_unit(t) for t in targets if _unit(t) not in (None, unit))
    return graph


def test_every_app_has_its_place_in_the_order():
    assert set(_app_graph()) == set(APPS)


def test_apps_only_import_the_apps_after_them():
    graph = _app_graph()
    offences = sorted((a, b) for a, targets in graph.items() for b in targets
                      if b not in APPS or APPS.index(b) <= APPS.index(a))
    assert offences == [], "app -> app against APPS (an app imports one before it)"
    assert cycles(graph) == []


def test_only_the_match_and_the_lobby_chat_modules_call_chat():
    """The small interface: the sockets and everything else of those apps go through it."""
    callers = sorted(name for name, targets in _graph().items() if not name.startswith("backend.chat")
                     and any(t == "backend.chat" or t.startswith("backend.chat.") for t in targets))
    assert callers == ["backend.lobbies.apps", "backend.lobbies.chat", "backend.matches.apps", "backend.matches.chat"]
