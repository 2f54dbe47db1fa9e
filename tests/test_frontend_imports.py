"""The frontend's modules import each other one way: no cycles.

Dynamic `import("...")` counts as much as a static import: a module loaded on
first use still depends on its importer, and a cycle through it is still a
knot for the reader (and an evaluation-order trap once both are loaded)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.graphs import cycles

JS = Path(__file__).resolve().parents[1] / "frontend" / "js"

# `import x from "./a.js"`, `import "./a.js"`, `export { x } from "./a.js"`, `import("./a.js")`.
_SPECIFIER = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}/[^"']+)\1""")
_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)


def _imports(path: Path, root: Path) -> set[str]:
    source = _COMMENT.sub("", path.read_text(encoding="utf-8"))
    found = set()
    for _, spec in _SPECIFIER.findall(source):
        target = (path.parent / spec).resolve()
        found.add(target.relative_to(root).as_posix())
    return found


def _graph(root: Path = JS) -> dict[str, set[str]]:
    return {p.relative_to(root).as_posix(): _imports(p, root) for p in sorted(root.rglob("*.js"))}


def test_every_relative_import_names_a_module_that_exists():
    graph = _graph()
    missing = sorted((m, t) for m, targets in graph.items() for t in targets if t not in graph)
    assert missing == []


def test_the_parser_sees_every_form_of_import(tmp_path):
    # Were one form missed, the cycle test below could pass over a real cycle.
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.js").write_text('import { x } from "./sub/b.js";\nimport "./c.js";\n'
                                   'export { y } from "./d.js";\nconst e = () => import("./e.js");\n'
                                   '// import("./not_f.js")\n/* import { z } from "./not_g.js"; */\n'
                                   'const url = "https://example.org/x.js";\n')
    (tmp_path / "sub" / "b.js").write_text("import {\n  x,\n  y,\n} from '../a.js';\n")
    graph = _graph(tmp_path)
    assert graph["a.js"] == {"sub/b.js", "c.js", "d.js", "e.js"}
    assert graph["sub/b.js"] == {"a.js"}
    assert cycles(graph) == [["a.js", "sub/b.js"]]


def test_no_import_cycles_in_the_frontend():
    assert cycles(_graph()) == []
