"""Which page of the God's Playground rulebook a phrase is on, and whether the
project's quotes cite the page they are really on.

    .venv/bin/python tools/gp_rulebook_pages.py where "phrase" ["phrase" ...]
    .venv/bin/python tools/gp_rulebook_pages.py check [files ...]
    .venv/bin/python tools/gp_rulebook_pages.py pages

A one-off development tool, not a test: it reads the shared rulebook text
(../shared/rulebooks/gods_playground.hu.txt, or --rulebook), which the project
never reads at run time.

Pages are the numbers at the start of each page in the text (one page per
line; the README of shared/ calls these the page numbers, and the player aid is
page 16).  The footer number printed at the end of pages 2-14 is one less;
the project cites the page-start number.

`check` finds every Hungarian quotation ("..." containing accented letters or
found in the rulebook) in the rules doc, the engine sources and the tests, and
the citation that governs it: a `p.N` written right before the quote (`p.N:
"..."`), else one right after it (`"..." (p.N)`), else the last `p.N` before it
in the same paragraph (docstring, comment block), else the page range of the
doc section's heading.  A quote passes when every fragment of
it (split at "...") occurs on one of the cited pages.  Whitespace and case are
ignored, and so are the rulebook's end-of-line hyphens ("legkeve- sebb").
"""

from __future__ import annotations

import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DEFAULT_BOOK = os.path.join(ROOT, "..", "shared", "rulebooks", "gods_playground.hu.txt")
DEFAULT_FILES = [
    "docs/rules/gods_playground.md",
    "backend/engines/gods_playground",
    "tests/engines/gods_playground",
]
ACCENTS = set("áéíóöőúüűÁÉÍÓÖŐÚÜŰ")
CITE = re.compile(r"\bp\.\s?(\d{1,2})(?:\s?[-–]\s?(\d{1,2}))?")
QUOTE = re.compile(r"[\"“„]([^\"“”„]{4,}?)[\"”]")


def norm(text: str) -> str:
    text = re.sub(r"(\w)- (\w)", r"\1\2", text)  # hyphenated line ends in the extraction
    return re.sub(r"\s+", " ", text).strip().lower()


def load_pages(path: str) -> dict[int, str]:
    """Page number -> normalised text.  Each page is one line starting with its number;
    other lines (the stray fragment of page 2 before the cover) are skipped."""
    pages: dict[int, str] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*(\d{1,2})(?:\s|$)", line)
            # Pages come in order 1, 2, 3...: a line opening with another number is not a page.
            if m and int(m.group(1)) == len(pages) + 1:
                pages[len(pages) + 1] = norm(line[m.end():])
    return pages


def fragments(quote: str) -> list[str]:
    parts = re.split(r"\.\.\.|…|\[\.\.\.\]", quote)
    return [norm(p).strip(" ,;:") for p in parts if len(norm(p).strip(" ,;:")) >= 3]


def where(pages: dict[int, str], quote: str) -> list[int]:
    frags = fragments(quote)
    return [n for n, text in pages.items() if frags and all(f in text for f in frags)]


def found_anywhere(pages: dict[int, str], quote: str) -> bool:
    return any(any(f in text for text in pages.values()) for f in fragments(quote))


# ---- finding quotes and their citations -------------------------------------------


def paragraphs(path: str, text: str) -> list[tuple[int, str, list[int] | None]]:
    """(first line number, text, heading pages) blocks a citation can govern."""
    out = []
    if path.endswith(".md"):
        heading_pages: list[int] | None = None
        block: list[str] = []
        start = 1
        for i, line in enumerate(text.split("\n") + [""], 1):
            is_heading = line.startswith("#")
            new_item = line.lstrip().startswith("* ")
            if not line.strip() or is_heading or new_item:
                if block:
                    out.append((start, "\n".join(block), heading_pages))
                block, start = ([], i + 1) if not new_item else ([line], i)
                if is_heading:
                    heading_pages = cited_pages(line) or None
                continue
            block.append(line)
        return out
    # Python: docstrings (triple-quoted strings) and runs of comment lines.
    for m in re.finditer(r'"""(.*?)"""', text, re.S):
        out.append((text.count("\n", 0, m.start()) + 1, m.group(1), None))
    run: list[str] = []
    start = 0
    for i, line in enumerate(text.split("\n") + [""], 1):
        if "#" in line and not line.strip().startswith(('"', "'")):
            # A comment governs with its code line: `(7, "p.10"),  # "7-es alaperő"`.
            comment = line.strip()
            if line.strip().startswith("#") and run:
                run.append(comment)
                continue
            if run:
                out.append((start, " ".join(run), None))
            run, start = [comment], i
        else:
            if run:
                out.append((start, " ".join(run), None))
            run = []
    return out


def cited_pages(text: str) -> list[int]:
    pages = []
    for m in CITE.finditer(text):
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        pages += list(range(a, b + 1))
    return pages


def governing(block: str, qstart: int, qend: int, heading: list[int] | None) -> list[int]:
    """`p.8: "quote"` and `p.8 "quote"` first, then `"quote" (p.8)` or `"quote", p.8`,
    then the last citation before the quote in its paragraph, then the heading."""
    m = re.search(CITE.pattern + r":?\s?$", block[:qstart])
    if m:
        return cited_pages(m.group(0))
    m = re.match(r"[\s,;)—–-]{0,4}\(?" + CITE.pattern, block[qend:])
    if m:
        return cited_pages(m.group(0))
    before = list(CITE.finditer(block[:qstart]))
    if before:
        return cited_pages(before[-1].group(0))
    return heading or []


def files_under(paths: list[str]) -> list[str]:
    out = []
    for p in paths:
        full = os.path.join(ROOT, p)
        if os.path.isdir(full):
            for d, _, names in os.walk(full):
                out += [os.path.join(d, n) for n in sorted(names) if n.endswith((".py", ".md"))]
        else:
            out.append(full)
    return out


def check(pages: dict[int, str], paths: list[str]) -> int:
    bad = checked = 0
    for path in files_under(paths):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        rel = os.path.relpath(path, ROOT)
        for line, block, heading in paragraphs(path, text):
            for m in QUOTE.finditer(block):
                quote = m.group(1)
                hungarian = any(ch in ACCENTS for ch in quote)
                if not hungarian and (len(quote.split()) < 3 or not found_anywhere(pages, quote)):
                    continue  # English wording in quotation marks
                checked += 1
                cited = governing(block, m.start(), m.end(), heading)
                actual = where(pages, quote)
                ok = bool(set(cited) & set(actual))
                if not ok:
                    bad += 1
                    print(f"{rel}:{line + block.count(chr(10), 0, m.start())}: cites p.{cited or '?'}, "
                          f"found on {actual or 'no page'}: \"{' '.join(quote.split())[:70]}\"")
    print(f"{checked} Hungarian quotes checked, {bad} not on the cited page")
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulebook", default=DEFAULT_BOOK)
    parser.add_argument("command", choices=("where", "check", "pages"))
    parser.add_argument("args", nargs="*")
    a = parser.parse_args()
    pages = load_pages(a.rulebook)
    if a.command == "where":
        for phrase in a.args:
            print(f"{where(pages, phrase) or 'not found'}: {phrase}")
    elif a.command == "pages":
        for n, text in sorted(pages.items()):
            print(f"p.{n}: {text[:110]}")
    else:
        sys.exit(1 if check(pages, a.args or DEFAULT_FILES) else 0)


if __name__ == "__main__":
    main()
