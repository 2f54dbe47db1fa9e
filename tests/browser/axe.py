"""axe-core in the browser tests: run it on the page as it stands and keep what it finds per screen.

axe-core is vendored for the tests only (`vendor/axe.min.js`, MPL-2.0, `vendor/LICENSE-axe-core`): nothing under
tests/ is served, so it never reaches a player. It runs with every rule of WCAG 2.0/2.1/2.2 A and AA, the best
practices and the experimental rules (label-content-name-mismatch is one).
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
REPORTS = ROOT / "test-artifacts" / "a11y"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice", "experimental"]
BLOCKING = ("critical", "serious")

_RUN = """async (tags) => {
  const r = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary.slice(0, 300) })) }));
}"""


class Audit:
    """The violations found on each named screen of one walk through the app."""

    def __init__(self, name: str):
        self.name = name
        self.screens: dict[str, list[dict]] = {}

    def check(self, page, screen: str, shot: Path | None = None) -> list[dict]:
        """Run axe on the page now; the screen's violations are kept (a later check of the same screen adds to
        them, so a screen seen in several states counts each rule once per state) and its counts printed. With
        `shot`, a screenshot of the page as axe saw it is saved there first."""
        if shot is not None:
            page.screenshot(path=str(shot))
        if not page.evaluate("typeof window.axe === 'object'"):
            page.evaluate(SOURCE)  # the DevTools protocol's evaluate: the page's Content-Security-Policy does not apply
        found = page.evaluate(_RUN, TAGS)
        self.screens.setdefault(screen, []).extend(found)
        impacts = [v["impact"] for v in found]
        print(f"axe {self.name} {screen}: {impacts.count('critical')} critical, {impacts.count('serious')} serious"
              + (f" ({shot.name})" if shot is not None else ""))
        return found

    def counts(self) -> dict[str, dict[str, list[int]]]:
        """screen -> impact -> [rules violated, elements violating them]."""
        out = {}
        for screen, found in self.screens.items():
            c = {"critical": [0, 0], "serious": [0, 0], "moderate": [0, 0], "minor": [0, 0]}
            for v in found:
                c[v["impact"] or "minor"][0] += 1
                c[v["impact"] or "minor"][1] += len(v["nodes"])
            out[screen] = c
        return out

    def blocking(self) -> dict[str, list[str]]:
        """screen -> 'rule-id: target' for every critical or serious violation."""
        return {s: [f"{v['id']} ({v['impact']}): {n['target']}" for v in found if v["impact"] in BLOCKING for n in v["nodes"]]
                for s, found in self.screens.items() if any(v["impact"] in BLOCKING for v in found)}

    def save(self) -> Path:
        REPORTS.mkdir(parents=True, exist_ok=True)
        path = REPORTS / f"{self.name}.json"
        path.write_text(json.dumps({"counts": self.counts(), "violations": self.screens}, indent=1, ensure_ascii=False))
        return path
