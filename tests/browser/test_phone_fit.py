"""Every decision of both games fits a 360 x 740 phone (issue 26): nothing on the table runs past the screen's
edges or is cut off inside its box, no seat's clock hides behind another control, and the decision's primary
button is on screen without scrolling. On God's Playground the board keeps most of the screen while the player
decides (the dock takes at most 34% of the height), and axe finds nothing critical or serious on its phone
screens. Hungarian and English, as their words differ in length. A "Meanwhile" card tells what the phases
between the player's moves settled. Condottiere is walked with six seats through whole matches, and with two, four
and five seats through one match each that asks the player every decision type within its first round (the
token, a battle, the papal legate, keep or discard, the cards to keep: forced_condottiere.py). Each screen's axe
counts are printed and its screenshot saved under test-artifacts/screenshots/."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from tests.support.servers import manage

from .axe import Audit
from .support import PHONE, Client, add_bot, create_lobby, gp_table, in_view, take_turn
from .test_gods_playground import take_turn as gp_take_turn

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]

# What does not fit, as the page stands: an element of the match (seat strip, table, dock) whose box runs past
# the viewport's sides, text cut inside a box that hides its overflow, and a seat's clock or name covered at its
# centre by something else (the chat and menu buttons beside the strip).
_MISFITS_JS = """() => {
  const out = [];
  const root = document.querySelector('main') || document.body;
  const seen = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('dialog:not([open]), .visually-hidden'); };
  const name = (el) => `${el.tagName.toLowerCase()}.${(el.getAttribute('class') || '').split(' ')[0]}`
    + ` "${(el.textContent || '').trim().slice(0, 40)}"`;
  // A row that scrolls sideways on purpose (a hand of cards, the regions) holds what is past its edge in reach.
  const scrolls = (el) => { for (let a = el.parentElement; a; a = a.parentElement)
    if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return true; return false; };
  for (const el of root.querySelectorAll('button, a, input, label, h2, h3, p, li, span, .mseat, .clock')) {
    if (!seen(el) || el.closest('.log, .gp-scroll') || scrolls(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`past the edge: ${name(el)} (${Math.round(r.left)}..${Math.round(r.right)})`);
    const s = getComputedStyle(el);
    // The last event's one line is cut on purpose: it is the button that opens the whole log.
    const hides = (['hidden', 'clip'].includes(s.overflowX) || s.textOverflow === 'ellipsis') && !el.matches('.last-event-text, .mseat-label');
    if (hides && el.scrollWidth > el.clientWidth + 1 && el.textContent.trim())
      out.push(`cut: ${name(el)} (${el.scrollWidth} > ${el.clientWidth})`);
  }
  // The seat strip: every seat wholly inside the strip's box (no seat scrolled out of sight), its clock and name
  // the topmost thing at their centres.
  const strip = document.querySelector('.mbar-seats');
  if (strip) {
    const box = strip.getBoundingClientRect();
    for (const seat of strip.querySelectorAll('.mseat')) {
      const r = seat.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > innerWidth + 0.5)
        out.push(`seat out of sight: ${name(seat)}`);
      for (const part of seat.querySelectorAll('.mseat-name, .clock')) {
        const p = part.getBoundingClientRect();
        if (!p.width) continue;
        const x = p.left + p.width / 2, y = p.top + p.height / 2;
        const top = document.elementFromPoint(x, y);
        if (y > 0 && y < innerHeight && top && !part.contains(top) && !top.contains(part))
          out.push(`covered: ${name(part)} under ${name(top)}`);
      }
    }
  }
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth)
    out.push(`the page scrolls sideways by ${document.documentElement.scrollWidth - document.documentElement.clientWidth}px`);
  return out;
}"""

# The decision's primary control: the nobles' send, the sealed bid, the pass that ends the player's turn (below
# the dock's list of moves), else the first move (God's Playground); the keep-or-discard confirmation, the move
# buttons (the pass), else the first region (Condottiere: the hand scrolls sideways, a card may be out of sight).
_PRIMARY = ("[data-testid=stage-submit]", "[data-testid=bid-submit]", "[data-testid=dock] .gp-pass",
            "[data-testid=dock] [data-testid=gp-move]",
            "[data-testid=keep-confirm]", "[data-testid=dock] [data-testid^=move-]", "[data-testid=region-choice]")

_PRIMARY_IN_VIEW_JS = """(sels) => {
  for (const s of sels) {
    const el = document.querySelector(s);
    if (!el) continue;
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(Math.min(Math.max(x, 0), innerWidth - 1), Math.min(Math.max(y, 0), innerHeight - 1));
    return { sel: s, inView: r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
      && !!top && (el.contains(top) || top.contains(el)) };
  }
  return { sel: null, inView: false };
}"""

# God's Playground: how much of the screen the board has while deciding, the page scrolled to the map (the head
# stuck under the top bar): the map's height in sight between the head and the dock, and the dock's height.
_MAP_JS = """async () => {
  const map = () => document.querySelector('[data-testid=board]').getBoundingClientRect();
  const head = () => document.querySelector('.table-head').getBoundingClientRect();
  const el = document.querySelector('.table-head');
  const stuck = parseFloat(getComputedStyle(el).top) + el.offsetHeight;  // the head's bottom once stuck
  scrollTo(0, map().top + scrollY - stuck);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const dock = document.querySelector('[data-testid=dock]').getBoundingClientRect();
  const top = Math.max(head().bottom, 0), bottom = Math.min(dock.top, innerHeight);
  const out = { map: Math.round(Math.max(0, Math.min(map().bottom, bottom) - Math.max(map().top, top))), dock: Math.round(dock.height) };
  scrollTo(0, 0);
  return out;
}"""


def _fits(page, where: str) -> None:
    misfits = page.evaluate(_MISFITS_JS)
    assert misfits == [], f"{where}: {misfits}"
    primary = page.evaluate(_PRIMARY_IN_VIEW_JS, list(_PRIMARY))
    assert primary["sel"] and primary["inView"], f"{where}: the primary control is not on screen ({primary})"


def _walk(client: Client, step, key, check, timeout: float = 200) -> set[str]:
    """Play to the end with `step()`; `check(key)` the first time each decision `key()` shows as this seat's move."""
    page = client.page
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while not page.locator("[data-testid=result]").count():
        assert time.monotonic() < deadline, f"the match did not finish (seen {sorted(seen)})"
        table = page.locator("[data-testid=table]")
        if table.get_attribute("data-my-turn") == "yes" and not page.locator("[data-testid=sending]").count():
            k = key(page)
            if k not in seen:
                seen.add(k)
                page.evaluate("scrollTo(0, 0)")
                check(k)
        if not step():
            page.wait_for_timeout(40)
    return seen


GP_KINDS = {"setup_estate", "nobles", "estate_purchase", "special", "recruitment", "campaigns", "counterattack"}


@pytest.mark.parametrize("locale", ["hu-HU", "en-US"])
def test_every_gods_playground_decision_fits_a_phone_and_the_board_has_most_of_it(browser, live_server_url, locale,
                                                                                  screenshots):
    lang = locale[:2]
    words = json.loads((ROOT / "frontend" / "i18n" / lang / "gods_playground.json").read_text())
    rng = random.Random(26)
    figures = {}
    with gp_table(browser, live_server_url, locale, "gpfit", audit="gp-phone") as (client, audit):
        page = client.page

        def check(kind: str) -> None:
            page.wait_for_selector("[data-testid=dock] button:enabled")
            page.wait_for_load_state("networkidle")
            found = audit.check(page, kind, screenshots / f"gp-phone-{lang}-{kind}.png")
            figures[kind] = page.evaluate(_MAP_JS)
            _fits(page, kind)
            assert not [v for v in found if v["impact"] in ("critical", "serious")], (kind, found)
            assert figures[kind]["dock"] <= round(0.34 * PHONE["height"]), (kind, figures[kind])
            assert figures[kind]["map"] >= 300, (kind, figures[kind])
            if kind == "estate_purchase":
                # Since this player's nobles the king was elected (and maybe Sejm deputies): a "Meanwhile" card
                # says so above the map, in this language, until the player puts it away.
                digest = page.locator("[data-testid=digest]")
                assert digest.count() == 1
                assert words["gp.digest.title"] in digest.inner_text()
                kinds = digest.locator("li").evaluate_all("els => els.map((e) => e.dataset.kind)")
                assert {"king", "king_kept"} & set(kinds), kinds
                page.click("[data-testid=digest-close]")
                page.wait_for_selector("[data-testid=digest]", state="detached")

        seen = _walk(client, lambda: gp_take_turn(page, rng), lambda p: p.locator("[data-testid=table]").get_attribute("data-pending"),
                     check)
        print("map figures", lang, figures)
        assert GP_KINDS <= seen, seen


@pytest.mark.parametrize("locale", ["hu-HU", "en-US"])
def test_every_condottiere_decision_fits_a_phone_with_six_seats(browser, live_server_url, locale, screenshots):
    """Six seats: the strip wraps rather than hiding a seat (and its clock) behind the chat and menu buttons."""
    lang = locale[:2]
    audit = Audit(f"cd-phone-6-{lang}")
    rng = random.Random(26)
    client = Client(browser, live_server_url, PHONE, locale=locale)
    page = client.page
    try:
        client.signup("cdfit")

        def check(kind: str) -> None:
            page.wait_for_load_state("networkidle")
            found = audit.check(page, kind, screenshots / f"cd-phone-6-{lang}-{kind}.png")
            _fits(page, kind)
            assert not [v for v in found if v["impact"] in ("critical", "serious")], (kind, found)

        # The seat order and the deal are the server's draw: the one human of six may never be the condottiere
        # in a match, so it plays another (at most four) until it has placed the token too.
        seen: set[str] = set()
        for _ in range(4):
            create_lobby(client, 6)
            for _ in range(5):
                add_bot(client)
            page.click("[data-testid=start]")
            page.wait_for_url("**/match/*")
            page.wait_for_selector("[data-testid=table]")
            seen |= _walk(client, lambda: take_turn(client, rng),
                          lambda p: p.locator("[data-testid=table]").get_attribute("data-phase"), check, timeout=240)
            if {"place_token", "battle"} <= seen:
                break
        assert {"place_token", "battle"} <= seen, seen
        assert client.errors == []
    finally:
        client.close()
        audit.save()


# The two cards kept at the end of the round, of each hand of forced_condottiere.py: the longest names.
KEEP_TWO = {"mercenaries": ("m10", "m10"), "plain": ("scarecrow", "courtesan")}


# The person's planned actions (forced_condottiere.py) as taps on the table.
def _press(page, action: dict | None) -> None:
    kind = action["type"]
    if kind == "place_token":
        page.click(f"[data-testid=region-choice][data-region={action['region']}]")
    elif kind == "play":
        page.locator(f"[data-testid=hand-card][data-card={action['card']}]").first.click()
    elif kind == "place_legate":
        assert action["region"] is None
        page.click("[data-testid=move-legate-off]")
    elif kind == "pass":
        page.click("[data-testid=move-pass]")
    elif kind == "keep_hand":
        page.click("[data-testid=move-keep-hand]")
    else:
        raise AssertionError(action)


@pytest.mark.parametrize("seats, locale, hand", [(2, "hu-HU", "mercenaries"), (4, "en-US", "plain"), (5, "hu-HU", "plain")])
def test_condottiere_forced_decisions_fit_a_phone(browser, live_site, seats, locale, hand, screenshots):
    """Two, four and five seats, each one match that asks the person the token, a battle, the papal legate, the
    keep-or-discard question and which cards to keep (forced_condottiere.py: a seed and a stacked deck): every one
    of these screens fits 360 px, its primary control in sight, and axe finds nothing critical or serious. Holding
    mercenaries, the keep-or-discard question offers only to go on and the kept mercenaries' names make the longest
    keep button; without, it offers both answers."""
    base, env = live_site
    lang = locale[:2]
    audit = Audit(f"cd-phone-{seats}-{lang}")
    client = Client(browser, base, PHONE, locale=locale)
    page = client.page
    seen: list[str] = []
    try:
        name = client.signup("cdforce")
        made = json.loads(manage(env, "shell", "-c", f"from tests.browser.forced_condottiere import create; "
                                 f"create({name!r}, {seats}, {hand!r})").strip().splitlines()[-1])
        client.goto(f"/match/{made['match']}")

        def check(screen: str) -> None:
            page.wait_for_load_state("networkidle")
            page.evaluate("scrollTo(0, 0)")
            found = audit.check(page, screen, screenshots / f"cd-phone-{seats}-{lang}-{screen}.png")
            _fits(page, screen)
            assert not [v for v in found if v["impact"] in ("critical", "serious")], (screen, found)
            seen.append(screen)

        for phase, action, version in made["plan"]:
            page.wait_for_selector(f"[data-testid=table][data-my-turn=yes][data-phase={phase}]")
            page.wait_for_selector("[data-testid=sending]", state="detached")
            if version is not None:  # the bots played as the plan did (up to the keep-or-discard question)
                assert client.table_version() == version, (phase, client.table_version(), version)
            if phase not in seen:
                check(phase)
            if phase == "discard_hand":
                answers = {"move-keep-hand"} | ({"move-discard"} if hand == "plain" else set())
                assert {b.get_attribute("data-testid") for b in page.locator("[data-testid^=move-]").all()} == answers
                assert all(in_view(page, f"[data-testid={a}]") for a in answers)
            if action is None:
                break
            before = page.get_attribute("[data-testid=table]", "data-version")
            _press(page, action)
            page.wait_for_function("v => document.querySelector('[data-testid=table]').dataset.version !== v", arg=before)
        # Which two cards to keep: the button names them, the longest label of the question.
        for code in KEEP_TWO[hand]:
            page.locator(f"[data-testid=hand-card][data-card={code}]:not([aria-pressed=true])").first.click()
        page.wait_for_selector("[data-testid=hand-card][aria-pressed=true] >> nth=1")
        check("keep-two")
        # A phone on its side: the hand's title gives way to the cards, the keep button stays.
        page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
        page.wait_for_function("() => !document.querySelector('[data-testid=hand] h2').getClientRects().length")
        assert in_view(page, "[data-testid=keep-confirm]")
        page.set_viewport_size(PHONE)
        before = page.get_attribute("[data-testid=table]", "data-version")
        page.click("[data-testid=keep-confirm]")
        page.wait_for_function("v => document.querySelector('[data-testid=table]').dataset.version !== v", arg=before)
        assert seen == ["place_token", "battle", "legate", "discard_hand", "keep", "keep-two"], seen
        assert client.errors == []
    finally:
        client.close()
        audit.save()
