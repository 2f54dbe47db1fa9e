"""Drive the web app like a person: pages with console checks, sign-up, and playing by the buttons on screen."""

from __future__ import annotations

import itertools
import json
import random
import time
from contextlib import contextmanager

from backend.matches import patches

from .axe import Audit

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "a-long-enough-passphrase-42"
_names = itertools.count(1)

# How long a browser test waits for the page: one figure for the whole suite, generous
# because a busy 2-core CI box can take seconds to run a bot turn and repaint.
WAIT_MS = 30_000


class Client:
    """One browser context: a page, its console errors and every WebSocket message it received."""

    def __init__(self, browser, base: str, viewport: dict, name: str | None = None, color_scheme: str = "light",
                 locale: str = "en-US", **context_options):
        self.base = base
        # The browser's language picks the site's on a first visit (tests/browser/test_i18n.py); English unless asked.
        self.context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE, color_scheme=color_scheme,
                                           locale=locale, **context_options)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.errors: list[str] = []
        self.frames: list[str] = []
        self._states: list[dict] = []
        self.name = name
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("websocket", self._watch)

    def _watch(self, ws) -> None:
        # The app opens match sockets with ?frames=patch (docs/api.md): each socket's `state` messages are rebuilt
        # here from its full states and the patches after them, as the app rebuilds them.
        held: list[dict | None] = [None]

        def received(payload) -> None:
            raw = payload if isinstance(payload, str) else payload.decode()
            self.frames.append(raw)
            msg = json.loads(raw)
            kind = msg.get("type") if isinstance(msg, dict) else None
            if kind == "state":
                held[0] = msg
            elif kind == "patch" and held[0] is not None and held[0]["version"] == msg["base"]:
                held[0] = patches.apply(held[0], msg["patch"])
            else:
                return
            self._states.append(held[0])

        ws.on("framereceived", received)

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def signup(self, prefix: str = "player") -> str:
        self.name = f"{prefix}{next(_names)}{int(time.time() * 1000) % 100000}"
        self.goto("/signup")
        self.page.fill("input[name=username]", self.name)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.fill("input[name=password2]", PASSWORD)
        self.page.click("button[type=submit]")
        self.page.wait_for_selector(f"[data-testid=username]:text-is('{self.name}')")
        return self.name

    def states(self) -> list[dict]:
        """Every `state` message this client's match sockets gave it, whether sent whole or as a patch."""
        return list(self._states)

    def table_version(self) -> int | None:
        v = self.page.get_attribute("[data-testid=table]", "data-version")
        return int(v) if v is not None else None

    def close(self) -> None:
        self.context.close()


def create_lobby(client: Client, seats: int, *, check: tuple[str, ...] = ()) -> str:
    """Fill in the new-lobby form (seat stepper, checkboxes by label) and return the new lobby's id."""
    page = client.page
    if "/lobbies/new" not in page.url:
        client.goto("/lobbies/new")
    page.wait_for_selector("[data-testid=seat-count]")
    while (n := int(page.text_content("[data-testid=seat-count]"))) != seats:
        page.click("[data-testid=seat-fewer]" if n > seats else "[data-testid=seat-more]")
    for label in check:
        page.get_by_label(label).check()
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=lobby-room]")
    return page.get_attribute("[data-testid=lobby-room]", "data-lobby")


def new_lobby(client: Client, seats: int, *, tc: str = "none", rated: bool = False) -> str:
    """The new-lobby form with a seat count, a time-control preset (data-tc of its tile) and, if asked, rated;
    the new lobby's id."""
    page = client.page
    client.goto("/lobbies/new")
    page.wait_for_selector("[data-testid=seat-count]")
    while (n := int(page.text_content("[data-testid=seat-count]"))) != seats:
        page.click("[data-testid=seat-fewer]" if n > seats else "[data-testid=seat-more]")
    page.locator(f"label.tc-choice[data-tc={tc}]").click()
    if rated:
        page.check("[data-testid=rated]")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=lobby-room]")
    return page.get_attribute("[data-testid=lobby-room]", "data-lobby")


def join_lobby(client: Client, lobby_id: str) -> None:
    client.goto(f"/lobby/{lobby_id}")
    client.page.click("[data-testid=join]")
    client.page.wait_for_selector("[data-testid=leave]")


def start_match(host: Client, others: tuple = ()) -> str:
    """The host starts the full lobby; every table opens; the match id."""
    page = host.page
    page.wait_for_function("() => !document.querySelector('[data-testid=start]').disabled")
    page.click("[data-testid=start]")
    for c in (host, *others):
        c.page.wait_for_url("**/match/*")
        c.page.wait_for_selector("[data-testid=table]")
    return page.url.rsplit("/", 1)[1]


def add_bot(client: Client) -> None:
    page = client.page
    n = page.locator("[data-testid=seat].taken").count()
    page.click("[data-testid=add-bot]")
    page.wait_for_function(f"() => document.querySelectorAll('[data-testid=seat].taken').length > {n}")


def start_against_two_bots(client: Client, game: str) -> None:
    """Open a lobby of `game` (its id; default seats), fill it with bots, start it, await the table."""
    page = client.page
    client.goto("/lobbies/new")
    page.locator(f"label.game-choice[data-game={game}]").click()
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=lobby-room]")
    add_bot(client)
    add_bot(client)
    page.wait_for_function("() => !document.querySelector('[data-testid=start]').disabled")
    page.click("[data-testid=start]")
    page.wait_for_url("**/match/*")
    page.wait_for_selector("[data-testid=table]")


@contextmanager
def gp_table(browser, url: str, locale: str, prefix: str, audit: str | None = None):
    """A phone's player (signed up as `prefix`...) at a new God's Playground table against two bots, and the axe
    audit of its screens (saved as `audit` or `prefix`, then the language); the page ends without a console error."""
    checks = Audit(f"{audit or prefix}-{locale[:2]}")
    client = Client(browser, url, PHONE, locale=locale)
    try:
        client.signup(prefix)
        start_against_two_bots(client, "gods_playground")
        yield client, checks
        assert client.errors == []
    finally:
        client.close()
        checks.save()


_CANDIDATES_JS = """() => {
  // A hand card that cannot be played is aria-disabled (a tap on it opens its help), not disabled.
  const q = (s) => [...document.querySelectorAll(s)].filter((b) => !b.disabled && b.getAttribute('aria-disabled') !== 'true');
  return {
    regions: q('[data-testid=region-choice]').length,
    hand: q('[data-testid=hand-card]').length,
    moves: q('[data-testid^=move-]').map((b) => b.dataset.testid),
    keep: !!document.querySelector('[data-testid=keep-confirm]'),
  };
}"""


def take_turn(client: Client, rng: random.Random, pass_bias: float = 0.35, on_choice=None) -> bool:
    """If it is this client's turn, press one of the buttons the table offers and wait for the new version.

    `on_choice()` is called while a card's second question (the Scarecrow's target) is open, before it is answered."""
    page = client.page
    table = page.locator("[data-testid=table]")
    if table.count() == 0 or table.get_attribute("data-my-turn") != "yes":
        return False
    if page.locator("[data-testid=table] [data-testid=status] [data-testid=sending]").count():
        return False
    version = table.get_attribute("data-version")
    c = page.evaluate(_CANDIDATES_JS)
    if c["regions"]:
        page.locator("[data-testid=region-choice]:enabled").nth(rng.randrange(c["regions"])).click()
    elif c["keep"]:
        if c["hand"] and rng.random() < 0.5:
            page.locator("[data-testid=hand-card]:enabled:not([aria-disabled=true])").nth(rng.randrange(c["hand"])).click()
        confirm = page.locator("[data-testid=keep-confirm]")
        if confirm.is_disabled():
            page.locator("[data-testid=hand-card][aria-pressed=true]").first.click()
        confirm.click()
    elif c["hand"] and not ("move-pass" in c["moves"] and rng.random() < pass_bias):
        page.locator("[data-testid=hand-card]:enabled:not([aria-disabled=true])").nth(rng.randrange(c["hand"])).click()
        # Either the move went out (new version) or the card asks a second question (the Scarecrow's target).
        page.wait_for_function(
            """v => document.querySelector('[data-testid=choice]')
                 || document.querySelector('[data-testid=table]')?.dataset.version !== v""", arg=version, timeout=WAIT_MS)
        choice = page.locator("[data-testid=choice]")
        if choice.count():
            if on_choice:
                on_choice()
            choice.nth(rng.randrange(choice.count())).click()
    elif c["moves"]:
        page.locator(f"[data-testid={rng.choice(c['moves'])}]").click()
    else:
        return False
    page.wait_for_function(
        "v => { const t = document.querySelector('[data-testid=table]'); return !t || t.dataset.version !== v; }",
        arg=version, timeout=WAIT_MS)
    return True


def play_to_the_end(players: list[Client], rng: random.Random, timeout: float = 240, after=None) -> int:
    """Let each player act whenever their table says it is their turn; returns the number of actions.

    `after(n)` is called after the n-th action (for screenshots mid-match)."""
    deadline = time.monotonic() + timeout
    actions = 0
    while time.monotonic() < deadline:
        if all(p.page.locator("[data-testid=result]").count() for p in players):
            return actions
        moved = False
        for p in players:
            if take_turn(p, rng):
                actions += 1
                moved = True
                if after:
                    after(actions)
        if not moved:
            players[0].page.wait_for_timeout(50)
    raise AssertionError(f"the match did not finish within {timeout}s ({actions} actions)")


# Every visible piece of text inside `root` smaller than `least` CSS pixels as drawn: HTML by its computed font
# size, SVG text by its font size times the scale its SVG is drawn at (getScreenCTM). Text nobody sees (an SVG
# <title>, a visually hidden label, a collapsed element) has no client rects and is skipped.
SMALL_TEXT_JS = """([root, least]) => {
  const scope = document.querySelector(root);
  const out = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest('.visually-hidden')) continue;
    range.selectNodeContents(node);
    if (![...range.getClientRects()].some((r) => r.width > 0 && r.height > 0)) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    let size = parseFloat(style.fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    if (size < least - 0.01) out.push({ text: node.textContent.trim().slice(0, 40), size: Math.round(size * 10) / 10,
      where: el.tagName.toLowerCase() + (el.getAttribute('class') ? '.' + el.getAttribute('class').split(' ')[0] : '') });
  }
  return out;
}"""

# Whether an element is wholly inside the viewport as the page stands (no scrolling).
IN_VIEW_JS = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}"""


def small_text(page, root: str = "[data-testid=table]", least: float = 12) -> list[dict]:
    return page.evaluate(SMALL_TEXT_JS, [root, least])


def horizontal_overflow(page) -> int:
    """How many CSS pixels the page scrolls sideways (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def in_view(page, selector: str) -> bool | None:
    return page.evaluate(IN_VIEW_JS, selector)


# What a player reads about whose move it is, sampled once per painted frame (requestAnimationFrame runs just
# before each paint), kept only when it changes: the match's status (the table's data-status), the status line,
# the tab title, the table's "my turn", the status line's "mine" colour, the "to play" tags, and the controls
# in the dock that would act. `frames_seen(page)` reads them back.
WATCH_FRAMES_JS = """() => {
  if (window.__frames) return;
  window.__frames = [];
  let last = '';
  const sample = () => {
    const t = document.querySelector('[data-testid=table]');
    if (t) {
      // Controls that would act: the dock's buttons (not a card's help, not the fold) and the choices on the map.
      const acting = [...document.querySelectorAll('[data-testid=dock] button, .choosable')]
        .filter((b) => !b.disabled && b.getAttribute('aria-disabled') !== 'true' && !b.classList.contains('dock-fold')
          && b.getAttribute('aria-haspopup') !== 'dialog');
      const f = { status: t.dataset.status, version: Number(t.dataset.version), myTurn: t.dataset.myTurn,
        title: document.title, mine: !!t.querySelector('.status-mine'),
        line: (t.querySelector('[data-testid=status] .status-text') || {}).textContent || '',
        tags: document.querySelectorAll('.tag-turn').length, acting: acting.length,
        result: !!document.querySelector('[data-testid=result]') };
      const key = JSON.stringify(f);
      if (key !== last) { last = key; window.__frames.push(f); }
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}"""


def watch_frames(page) -> None:
    page.evaluate(WATCH_FRAMES_JS)


def frames_seen(page) -> list[dict]:
    return page.evaluate("() => window.__frames || []")


def inconsistent_frames(frames: list[dict], your_move_mark: str = "●") -> list[dict]:
    """The painted frames in which whose-move signals disagree: the tab title, the table's "my turn" and the
    status line's colour say the same; nothing acts unless it is my turn; an ended match (finished, aborted)
    names nobody to move (no tag, no title mark, no control)."""
    bad = []
    for f in frames:
        mine = f["myTurn"] == "yes"
        agree = f["title"].startswith(your_move_mark) == mine == f["mine"] and (f["acting"] == 0 or mine)
        ended = f["status"] != "active"
        quiet = not mine and f["tags"] == 0 and f["acting"] == 0 and not f["title"].startswith(your_move_mark)
        if not agree or (ended and not quiet):
            bad.append(f)
    return bad
