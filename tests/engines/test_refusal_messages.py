"""Refusal messages can be translated: every one is raised with a literal
template that gettext extracts (the class names are its keywords), its
parameters are exactly the template's fields, and each parameter name is
documented in docs/engines.md for the platform that fills them in."""

from __future__ import annotations

import ast
import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from backend.engines import IllegalAction, MalformedAction, NotLegal, NotYourTurn

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "backend" / "engines"
DOC = ROOT / "docs" / "engines.md"
KEYWORDS = ("IllegalAction", "MalformedAction", "NotYourTurn", "NotLegal")


def sources() -> list[Path]:
    return sorted(ENGINES.rglob("*.py"))


def refusal_calls():
    """(file, line, call) for every construction of a refusal in the engines."""
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS:
                yield path.relative_to(ROOT), node.lineno, node


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def documented_parameters() -> set[str]:
    """The names in the table under "Refusal parameters" in docs/engines.md."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Refusal parameters", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))


def test_the_codes_the_platform_maps():
    assert (MalformedAction.code, NotYourTurn.code, NotLegal.code) == ("bad_message", "not_your_turn", "illegal_action")
    assert all(issubclass(k, IllegalAction) for k in (MalformedAction, NotYourTurn, NotLegal))
    err = NotLegal("Choose {count} cards.", count=2)
    assert (str(err), err.template, err.params, err.code) == ("Choose 2 cards.", "Choose {count} cards.", {"count": 2},
                                                             "illegal_action")


def test_every_refusal_is_a_literal_template_with_matching_parameters():
    calls = list(refusal_calls())
    assert len(calls) > 60
    documented = documented_parameters()
    for path, line, call in calls:
        where = f"{path}:{line}"
        assert len(call.args) == 1 and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str), (
            f"{where}: the message must be one string literal (no f-string, no variable), parameters as keywords"
        )
        assert all(k.arg for k in call.keywords), f"{where}: no **params"
        names = {k.arg for k in call.keywords}
        assert names == fields(call.args[0].value), f"{where}: parameters {names} for {call.args[0].value!r}"
        assert names <= documented, f"{where}: document {names - documented} under Refusal parameters in docs/engines.md"


def test_the_engines_raise_only_the_three_kinds():
    bare = [f"{path}:{line}" for path, line, call in refusal_calls() if call.func.id == "IllegalAction"]
    assert bare == []


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext's xgettext is not installed")
def test_xgettext_extracts_every_template(tmp_path):
    """The real extractor, with the class names as keywords, finds every template."""
    pot = tmp_path / "engines.pot"
    subprocess.run(["xgettext", "--language=Python", "--from-code=UTF-8", "--no-wrap", "-o", str(pot),
                    *[f"--keyword={k}" for k in KEYWORDS], *map(str, sources())], check=True)
    extracted = {json.loads(m) for m in re.findall(r'^msgid (".*")$', pot.read_text(encoding="utf-8"), flags=re.M)}
    templates = {call.args[0].value for _, _, call in refusal_calls()}
    assert templates <= extracted, templates - extracted
