"""The web app's files as browsers get them: JavaScript and CSS without comments
or layout whitespace, the word catalogues as compact JSON.

The sources in FRONTEND_DIR stay commented and readable, and no build step
runs before `make run`: the bytes are made on first request and kept until the
file changes. Both routes that deliver the app use `lean_bytes`: Django's
`/app/` view, and collectstatic (collect.FrontendFinder), whose copy nginx serves in
production.

Worth its code: as written, a game page's JavaScript, CSS and words would be over the 150 KB target,
and gzip does not make comments free (the lean JavaScript is a quarter smaller gzipped). The maintained
Python minifiers (rjsmin, jsmin) break the app's nested template literals; docs/scaling.md ("Why the app's
own JavaScript stripper") has the figures.

JavaScript keeps its lines (no reliance on semicolon insertion rules) and its
template literals verbatim: the htm markup is text whose `<//>` and spaces matter.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from pathlib import Path

import rcssmin
from django.conf import settings

log = logging.getLogger(__name__)

_LEAN_SUFFIXES = (".js", ".css", ".json")


def lean(name: str, data: bytes) -> bytes:
    """`data`, the content of the file `name`, as shipped."""
    if name.endswith(".js"):
        try:
            return strip_js(data.decode()).encode()
        except ValueError as e:  # a construct strip_js misreads: ship the source rather than break the page
            log.warning("%s shipped as written: %s", name, e)
            return data
    if name.endswith(".css"):
        return rcssmin.cssmin(data, keep_bang_comments=True)
    if name.endswith(".json"):
        return json.dumps(json.loads(data), ensure_ascii=False, separators=(",", ":")).encode()
    return data


# After these a `/` starts a regular expression, after anything else it divides.
_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^")
_KEYWORDS_BEFORE_REGEX = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
                          "yield", "await", "instanceof"}


def strip_js(src: str) -> str:
    """`src` without comments (but `/*! ... */`), indentation, trailing spaces, runs of spaces and blank lines.

    Strings, regular expressions and the text of template literals are copied as they are; the code inside a
    template's `${...}` is stripped like any other."""
    out: list[str] = []
    templates: list[int] = []  # for each template literal we are inside: open braces in its current ${...}
    i, n = 0, len(src)
    last, word = "", ""  # the last character of code written, and the word it ended, if any

    def space(ch: str) -> None:
        if ch == "\n":
            while out and out[-1] == " ":
                out.pop()
            if out and out[-1] != "\n":
                out.append("\n")
        elif out and out[-1] not in (" ", "\n"):
            out.append(" ")

    def copy_quoted(start: int, quote: str) -> int:
        j = start + 1
        while j < n and src[j] != quote:
            j += 2 if src[j] == "\\" else 1
        out.append(src[start:j + 1])
        return j + 1

    def copy_template_text(start: int) -> int:
        """From `start` inside a template's text to its end (`) or its next ${; returns where code resumes."""
        j = start
        while j < n:
            if src[j] == "\\":
                j += 2
            elif src[j] == "`":
                out.append(src[start:j + 1])
                return j + 1
            elif src.startswith("${", j):
                out.append(src[start:j + 2])
                templates.append(0)
                return j + 2
            else:
                j += 1
        raise ValueError("unterminated template literal")

    def copy_regex(start: int) -> int:
        j, in_class = start + 1, False
        while j < n and (in_class or src[j] != "/"):
            if src[j] == "\n":
                raise ValueError("unterminated regular expression")
            in_class = (in_class and src[j] != "]") or (not in_class and src[j] == "[")
            j += 2 if src[j] == "\\" else 1
        out.append(src[start:j + 1])
        return j + 1

    while i < n:
        ch = src[i]
        if ch in " \t\r\n":
            space("\n" if ch == "\n" else " ")
            i += 1
            continue
        if src.startswith("//", i):
            i = src.find("\n", i)
            i = n if i < 0 else i
            continue
        if src.startswith("/*", i):
            end = src.find("*/", i + 2)
            end = n if end < 0 else end + 2
            if src.startswith("/*!", i):  # a licence: kept
                out.append(src[i:end])
            else:
                space(" ")
            i = end
            continue
        if ch in "'\"":
            i = copy_quoted(i, ch)
            last, word = ch, ""
            continue
        if ch == "`":
            out.append("`")
            i = copy_template_text(i + 1)
            last, word = "`", ""
            continue
        if ch == "/" and (last in _BEFORE_REGEX or last == "" or word in _KEYWORDS_BEFORE_REGEX):
            i = copy_regex(i)
            last, word = "/", ""
            continue
        if templates and ch == "{":
            templates[-1] += 1
        elif templates and ch == "}":
            if templates[-1] == 0:
                templates.pop()
                out.append("}")
                i = copy_template_text(i + 1)
                last, word = "`", ""
                continue
            templates[-1] -= 1
        if ch.isalnum() or ch in "_$":
            j = i
            while j < n and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            out.append(src[i:j])
            last, word = src[j - 1], src[i:j]
            i = j
            continue
        out.append(ch)
        last, word = ch, ""
        i += 1
    return "".join(out).strip() + "\n"


def ships_lean(name: str) -> bool:
    """Whether the file `name` goes out lean (settings.FRONTEND_LEAN; scripts, styles and words only)."""
    return settings.FRONTEND_LEAN and name.endswith(_LEAN_SUFFIXES)


def lean_bytes(path: Path) -> bytes:
    """The file at `path` as shipped; remade when its size or time of change differ."""
    st = path.stat()
    return _lean_file(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=1024)
def _lean_file(path: str, mtime_ns: int, size: int) -> bytes:
    return lean(path, Path(path).read_bytes())
