"""The Hungarian words, as a whole (issue 26): one word per concept (the glossary in frontend/README.md, whose
last column lists what is not said), and the definite article chosen by the sound that follows: never "a(z)",
never a bare article before a placeholder (the catalogue writes `{az:name}` and js/i18n.js chooses), "a" never
before a vowel or a number said with one ("az 1.", "az 5.", "az 50."), "az" never before "a 2."."""

from __future__ import annotations

import json
import re
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "frontend" / "README.md"
PO = ROOT / "backend" / "locale" / "hu" / "LC_MESSAGES" / "django.po"
VOWELS = "aáeéiíoóöőuúüű"
WORD = r"[\wÀ-ž]"


def article(word: str) -> str:
    """The article Hungarian puts before `word` (the same rule as js/i18n.js's article())."""
    s = word.strip()
    if re.match(r"az?\s", s, re.I):
        return ""
    n = re.match(r"\d+(?:[ \u00a0\u202f]\d{3})*", s)
    if not n:
        return "az" if s[:1].lower() in VOWELS else "a"
    digits = re.sub(r"\D", "", n.group())
    g = int(digits[: len(digits) % 3 or 3])
    lead = g // 100 if g >= 100 else g // 10 if g >= 10 else g
    return "az" if lead == 5 or g == 1 else "a"


def _texts(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    else:
        yield value


def hungarian() -> list[tuple[str, str]]:
    """(where, text) for every Hungarian sentence: the web app's catalogues and the server's translations."""
    out = []
    for path in sorted((ROOT / "frontend" / "i18n" / "hu").glob("*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            out.extend((f"{path.name}: {key}", text) for text in _texts(value))
    po = PO.read_text(encoding="utf-8")
    for n, block in enumerate(po.split("\n\n")):
        strs = re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', block + "\n", re.M)
        for s in strs:
            text = "".join(re.findall(r'"(.*)"', s))
            if text and n:  # block 0 is the header
                out.append((f"django.po #{n}", text))
    return out


def glossary() -> list[tuple[str, list[str]]]:
    """(term, the words not said instead) from frontend/README.md's Hungarian glossary."""
    text = README.read_text(encoding="utf-8")
    table = text.split("### Hungarian glossary", 1)[1].split("\n\n")[2]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    return [(r[0], [w.strip() for w in r[3].split(",") if w.strip()]) for r in rows]


def test_the_rule_itself():
    said = {"1": "az", "2": "a", "5": "az", "10": "a", "11": "a", "15": "a", "50": "az", "51": "az", "100": "a",
            "105": "a", "500": "az", "1000": "az", "1 000": "az", "2000": "a", "5000": "az", "11000": "a",
            "Anna": "az", "Bologna": "a", "Ödön": "az", "Úrnapja": "az", "Az Isten játszótere": "", "a bot": ""}
    assert {w: article(w) for w in said} == said


def test_the_glossary_is_there_and_kept():
    rows = glossary()
    terms = [t for t, _ in rows]
    assert {"játszma", "lobbi", "bot", "kiválaszt"} <= set(terms), terms
    found = []
    for where, text in hungarian():
        for term, avoid in rows:
            for word in avoid:
                for m in re.finditer(rf"(?<!{WORD}){re.escape(word)}{WORD}*", text, re.I):
                    found.append(f"{where}: '{m.group()}' (say '{term}')")
    assert found == []


def article_errors(text: str) -> list[str]:
    out = []
    if re.search(r"\ba\(z\)|\baz\(a\)", text, re.I):
        out.append("a(z): choose the article ({az:name} before a placeholder)")
    for bare in re.finditer(r"(?<!\w)[Aa]z? \{\w+\}|(?<!\w)[Aa]z? %\(\w+\)", text):
        out.append(f"'{bare.group()}': the article depends on the value ({{az:name}}, or a sentence without one)")
    for m in re.finditer(rf"(?<!{WORD})([Aa]z?) ({WORD}+)", text):
        said, following = m.group(1).lower(), m.group(2)
        # "az" is also a pronoun ("az lesz"), so before a consonant it is checked only before a number.
        if (said == "a" and article(following) == "az") or (said == "az" and following[0].isdigit() and article(following) == "a"):
            out.append(f"'{m.group()}': the article is '{article(following)}'")
    return out


def test_the_check_finds_what_it_should():
    assert article_errors("Kezdődik a(z) {round}. forduló.") and article_errors("a {name} lapja")
    assert article_errors("a 1. forduló") and article_errors("az 2. hely") and article_errors("a ütközet")
    assert article_errors("Kezdődik {az:round}. forduló; az lesz a győztes, az 5. hely, a 10. lépés, az ütközet") == []


def test_articles():
    found = [f"{where}: {e}" for where, text in hungarian() for e in article_errors(text)]
    assert found == []
