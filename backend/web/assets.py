"""The web app's files under content-hashed names, and what each page tells the browser about them.

A phone on a slow network spends a cold load in round trips: without help the browser learns of a module
only once it has parsed the one that imports it. So the shell names, in one go:

* an import map from every module's address to its hashed name (`js/lib.js` -> `js/lib.0123456789.js`),
  and the stylesheets' and words' too, which the app resolves with `import.meta.resolve` (js/lazy.js);
  the sources keep importing each other by plain relative names and need no build step;
* a `<link rel=modulepreload>` for every module of the page's graph, read from the real imports: the
  shell's (js/main.js and what it imports), the screen the address shows, and on a match page its game's
  table (what its manifest's `[table]` names, backend/games/registry.py, with its stylesheets and words).

A hashed name never changes its bytes, so browsers keep it for a year without asking (`immutable`); the
plain names stay served, revalidated, for anything that asks for them. The hash is of the bytes as shipped
(lean.py), so Django and collectstatic's copy for nginx (collect.py) name each file alike.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from backend.games import registry

from . import lean

HASH_LENGTH = 10
_HASHED_SUFFIXES = (".js", ".css", ".json", ".svg")
_HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<ext>\.[a-z]+)$")
IMMUTABLE = "public, max-age=31536000, immutable"

# The vendored libraries' bare names, as the app and the libraries themselves import them.
BARE = {"preact": "vendor/preact.module.js", "preact/hooks": "vendor/hooks.module.js", "htm": "vendor/htm.module.js"}
ENTRY = "js/main.js"
EARLY = "early.js"  # inline in the shell (views.py): never fetched, so not in the import map
TABLES = "js/games/tables.js"

# Static imports and re-exports (`import x from "./a.js"`, `import "./a.js"`, `export {y} from "./b.js"`, also
# minified: `import{a}from"preact"`), and import() of a literal address; read from the lean text, without comments.
_STATIC = re.compile(r"""(?:^|[;\n}])\s*(?:import\s*(?:[\w*{$][^;"'`]*?\bfrom\s*)?|export\s*[*{][^;"'`]*?\bfrom\s*)(["'])(?P<spec>[^"']+)\1""")
_DYNAMIC = re.compile(r"""\bimport\(\s*(["'])(?P<spec>[^"']+)\1\s*\)""")


@dataclass(frozen=True)
class Manifest:
    names: dict[str, str]  # shipped name -> hashed name, for every file that has one
    static: dict[str, frozenset[str]]  # module -> modules it imports statically
    dynamic: dict[str, frozenset[str]]  # module -> modules it loads with import() of a literal address
    tables: dict[str, tuple[frozenset[str], tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    # game -> (its table's modules, stylesheets, word parts), from its manifest (backend/games/registry.py)

    def closure(self, roots) -> set[str]:
        """`roots` and every module they import statically, however deep."""
        seen, todo = set(), [r for r in roots if r in self.static]
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo += self.static[m]
        return seen

    def url(self, name: str) -> str:
        return f"/app/{self.names.get(name, name)}"


def _files() -> tuple[tuple[str, int, int], ...]:
    root = Path(settings.FRONTEND_DIR)
    found = []
    for folder, _dirs, files in os.walk(root):
        for f in files:
            if f.endswith(_HASHED_SUFFIXES):
                st = os.stat(os.path.join(folder, f))
                found.append((Path(folder, f).relative_to(root).as_posix(), st.st_mtime_ns, st.st_size))
    return tuple(sorted(found))


def manifest() -> Manifest:
    """The current files' hashed names and import graph; remade when a file changes (a stat of each per call)."""
    tables = tuple((g.id, (g.table.module, *g.table.modules), g.table.styles, g.table.words)
                   for g in registry.games().values() if g.table)
    return _manifest(str(settings.FRONTEND_DIR), settings.FRONTEND_LEAN, _files(), tables)


def _resolve(module: str, spec: str) -> str | None:
    if spec in BARE:
        return BARE[spec]
    if spec.startswith("."):
        return posixpath.normpath(posixpath.join(posixpath.dirname(module), spec))
    return None  # an absolute address: not a module of the app's graph


@lru_cache(maxsize=4)
def _manifest(root: str, lean_on: bool, files: tuple[tuple[str, int, int], ...], tables: tuple) -> Manifest:
    names, static, dynamic = {}, {}, {}
    for name, _mtime, _size in files:
        data = lean.lean_bytes(Path(root, name)) if lean.ships_lean(name) else Path(root, name).read_bytes()
        stem, ext = posixpath.splitext(name)
        names[name] = f"{stem}.{hashlib.sha256(data).hexdigest()[:HASH_LENGTH]}{ext}"
        if name.endswith(".js"):
            text = data.decode()
            if not lean_on:  # the reading is of code, never of comments
                text = lean.strip_js(text)
            static[name] = frozenset(filter(None, (_resolve(name, m["spec"]) for m in _STATIC.finditer(text))))
            dynamic[name] = frozenset(filter(None, (_resolve(name, m["spec"]) for m in _DYNAMIC.finditer(text))))
    return Manifest(names, static, dynamic, {game: (frozenset(modules), styles, words)
                                             for game, modules, styles, words in tables})


def unhash(path: str) -> str | None:
    """The shipped name a hashed one stands for, if `path` is the current hashed name of a file; else None."""
    m = _HASHED.match(path)
    if not m:
        return None
    name = m["stem"] + m["ext"]
    return name if manifest().names.get(name) == path else None


@dataclass
class Page:
    """What a shell names for one page: its modules, stylesheets and words (shipped names)."""
    modules: list[str]
    styles: list[str]
    words: list[str]


def page(screen_modules: tuple[str, ...] = (), game: str | None = None) -> Page:
    """The page's graph: the shell's modules, the screen's `screen_modules` (paths under frontend/) and, for a
    match of `game`, its table's, with its look and words."""
    m = manifest()
    # What any game's table imports from outside its folder comes with every page, so that a table, once its
    # game is known (a match opened from the lobby, or whose game the shell could not tell), takes one round.
    in_tables = {name for name in m.static if re.fullmatch(r"js/games/[^/]+/[^/]+\.js", name)}
    shared = {i for name in in_tables for i in m.static[name]} - in_tables
    roots = [ENTRY, *sorted(shared), *screen_modules]
    styles: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    if game in m.tables:
        modules, styles, words = m.tables[game]
        roots += sorted(modules)
    return Page(sorted(m.closure(roots)), list(styles), list(words))


def import_map(language: str) -> dict:
    """Every module, stylesheet, picture and the words of `language` by its address, to its hashed name."""
    m = manifest()
    other = tuple(f"i18n/{code}/" for code, _ in settings.LANGUAGES if code != language)
    imports = {bare: m.url(name) for bare, name in BARE.items()}
    imports.update({f"/app/{name}": m.url(name) for name in m.names if not name.startswith(other) and name != EARLY})
    return {"imports": imports}
