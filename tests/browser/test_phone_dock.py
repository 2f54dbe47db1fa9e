"""God's Playground's dock and the match strip on a 360 x 740 phone, in Hungarian and English (issue 26): the
nobles' layout fits the docked third of the screen with nothing scrolling inside it and its send in sight, is
laid out with the keyboard alone, and no label breaks inside a word; the seat strip cuts a long name with an
ellipsis and keeps it whole in reach; a seat that said "I recruit no more" sees a button that takes it back,
and no "your move"."""

from __future__ import annotations

import random
import time

import pytest

from .support import DESKTOP, PHONE, Client, add_bot, create_lobby, gp_table, join_lobby, start_match
from .test_gods_playground import take_turn as gp_take_turn
from .test_phone_fit import _MISFITS_JS, _PRIMARY, _PRIMARY_IN_VIEW_JS

pytestmark = pytest.mark.browser

# Everything in the dock: any box whose content runs past its bottom (a list that scrolls, or content cut by the
# dock's own height), and any control not wholly inside the dock and the screen.
_DOCK_JS = """() => {
  const dock = document.querySelector('[data-testid=dock]');
  const box = dock.getBoundingClientRect();
  const out = { height: Math.round(box.height), scrolls: [], outside: [] };
  for (const el of [dock, ...dock.querySelectorAll('*')]) {
    const s = getComputedStyle(el);
    if (s.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1)
      out.scrolls.push(`${el.tagName.toLowerCase()}.${el.className} ${el.scrollHeight} > ${el.clientHeight}`);
  }
  for (const el of dock.querySelectorAll('button')) {
    const r = el.getBoundingClientRect();
    if (!r.width || el.classList.contains('dock-fold')) continue;
    if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.bottom > innerHeight + 0.5)
      out.outside.push(`${el.dataset.testid || el.className} "${el.textContent.trim().slice(0, 30)}"`);
  }
  return out;
}"""

# A word whose letters stand on more than one line: a Range over each word gives one line box per line it
# touches. A break after a hyphen ("Nagy-" / "Lengyelország") is a break between words, not inside one.
_BROKEN_WORDS_JS = """(sel) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/[^\\s\\-]+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""
LABELS = ".gp-slot-name, .gp-table th, .gp-player-name"


def _reach_nobles(client: Client, rng: random.Random) -> None:
    page = client.page
    deadline = time.monotonic() + 120
    while not page.locator("[data-testid=stage-submit]").count():
        assert time.monotonic() < deadline, "the noble placement never came"
        if not gp_take_turn(page, rng):
            page.wait_for_timeout(40)


@pytest.mark.parametrize("locale", ["hu-HU", "en-US"])
def test_the_noble_placement_fits_the_phone_dock_and_works_by_keyboard(browser, live_server_url, locale, screenshots):
    lang = locale[:2]
    with gp_table(browser, live_server_url, locale, "gpdock") as (client, audit):
        page = client.page
        _reach_nobles(client, random.Random(26))
        page.wait_for_selector("[data-testid=hand-tile]:enabled")
        page.evaluate("scrollTo(0, 0)")
        page.screenshot(path=str(screenshots / f"gp-dock-nobles-{lang}-start.png"))

        def fits(where: str) -> None:
            dock = page.evaluate(_DOCK_JS)
            assert dock["scrolls"] == [] and dock["outside"] == [], (where, dock)
            assert dock["height"] <= round(0.34 * PHONE["height"]), (where, dock)
            primary = page.evaluate(_PRIMARY_IN_VIEW_JS, list(_PRIMARY))
            assert primary == {"sel": "[data-testid=stage-submit]", "inView": True}, (where, primary)
            assert page.evaluate(_MISFITS_JS) == [], where
            assert page.evaluate(_BROKEN_WORDS_JS, LABELS) == [], where
            found = audit.check(page, f"nobles {where}")
            assert not [v for v in found if v["impact"] in ("critical", "serious")], (where, found)

        fits("start")
        page.set_viewport_size(DESKTOP)  # the same layout in the desktop's side column, the cubes under each slot
        page.locator("[data-testid=noble-stager]").screenshot(path=str(screenshots / f"gp-dock-nobles-{lang}-desktop.png"))
        page.set_viewport_size(PHONE)
        assert page.locator("[data-testid=stage-slot]").count() == 6
        # The keyboard alone: from the first tile in hand, Enter lays it on the target slot and the focus goes on
        # to the next tile in hand, then to the send.
        page.locator("[data-testid=hand-tile]").first.focus()
        focused = "(id) => document.activeElement && document.activeElement.dataset.testid === id"
        for n in range(6):
            page.wait_for_function(focused, arg="hand-tile", timeout=3000)
            page.keyboard.press("Enter")
            page.wait_for_function("(n) => document.querySelectorAll('[data-testid=stage-slot].set').length === n", arg=n + 1)
        page.wait_for_function(focused, arg="stage-submit", timeout=3000)
        # Taking one back by keyboard: Shift+Tab to the last slot, Space chooses it, Space again returns its tile.
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.dataset.slot") == "royal"
        page.keyboard.press("Space")
        page.keyboard.press("Space")
        assert page.locator("[data-testid=stage-slot].set").count() == 5
        assert page.locator("[data-testid=stage-submit]").is_disabled()
        page.locator("[data-testid=hand-tile]:enabled").last.focus()
        page.keyboard.press("Enter")
        fits("ready")
        page.screenshot(path=str(screenshots / f"gp-dock-nobles-{lang}-ready.png"))
        page.keyboard.press("Enter")  # the focus is on the send
        page.wait_for_function("""() => { const t = document.querySelector('[data-testid=table]');
          return t.dataset.myTurn !== 'yes' || t.dataset.pending !== 'nobles'; }""", timeout=20000)


def test_the_word_check_sees_a_word_broken_across_lines(browser, live_server_url):
    """The check above can fail: a name squeezed into a narrow box that may break anywhere is caught."""
    client = Client(browser, live_server_url, PHONE)
    try:
        client.goto("/")
        client.page.wait_for_selector("main")
        client.page.evaluate("""() => { const d = document.createElement('div'); d.className = 'gp-slot-name';
          d.style.cssText = 'width: 40px; overflow-wrap: anywhere; font-size: 16px'; d.textContent = 'Poroszország Nagy-Lengyelország';
          document.body.append(d); }""")
        broken = client.page.evaluate(_BROKEN_WORDS_JS, ".gp-slot-name")
        assert {"Poroszország", "Lengyelország"} <= set(broken), broken
    finally:
        client.close()


_STRIP_JS = """() => [...document.querySelectorAll('[data-testid=strip-seat] .mseat-label')].map((el) => {
  const s = getComputedStyle(el);
  return { text: el.textContent, title: el.closest('[title]') && el.closest('[title]').title,
    cut: el.scrollWidth > el.clientWidth + 1, ellipsis: s.textOverflow === 'ellipsis' && s.overflowX === 'hidden'
      && s.whiteSpace === 'nowrap' };
})"""


def _long_signup(client: Client) -> str:
    name = client.signup("longseatname_")
    assert len(name) >= 18, name
    return name


@pytest.mark.parametrize("locale", ["hu-HU", "en-US"])
def test_long_seat_names_end_in_an_ellipsis_and_stay_whole_in_reach(browser, live_server_url, locale, screenshots):
    """Three seats of long-named players, then six seats (three of them bots): a name cut in the strip ends in
    an ellipsis, and the whole name is the seat's title (and its text, which a screen reader reads whole)."""
    lang = locale[:2]
    clients = [Client(browser, live_server_url, PHONE, locale=locale) for _ in range(3)]
    try:
        names = [_long_signup(c) for c in clients]
        host, *others = clients
        for seats, bots in ((3, 0), (6, 3)):
            lobby = create_lobby(host, seats)
            for c in others:
                join_lobby(c, lobby)
            for _ in range(bots):
                add_bot(host)
            start_match(host, tuple(others))
            page = host.page
            page.wait_for_selector("[data-testid=strip-seat]")
            page.wait_for_function(f"() => document.querySelectorAll('[data-testid=strip-seat]').length === {seats}")
            page.screenshot(path=str(screenshots / f"strip-{seats}-seats-{lang}.png"))
            labels = page.evaluate(_STRIP_JS)
            humans = [x for x in labels if x["text"] in names]
            assert len(humans) == 3, labels
            assert any(x["cut"] for x in humans), labels  # 18+ characters do not fit a third of 360 px
            for x in labels:
                assert x["ellipsis"], x  # a cut name ends in "…"
                assert x["title"] == x["text"] or not x["text"] in names, x
            assert page.evaluate(_MISFITS_JS) == [], seats
            for c in clients:
                assert c.errors == [], c.errors
    finally:
        for c in clients:
            c.close()


# The table as a seat that said "I recruit no more" sees it while another seat recruits: the one move it has is to
# take that back, which is no "your move". The view is a real one of this match, put into recruitment.
_RESUME_JS = """async ([view, other]) => {
  const { html, render } = await import('/app/js/lib.js');
  const { GodsPlaygroundTable } = await import('/app/js/games/gods_playground/table.js');
  const { asksMe } = await import('/app/js/match/seats.js');
  const me = view.you;
  const v = { ...view, phase: 'recruitment', to_move: [other],
    pending: { kind: 'recruitment', active: [other, 3 - me - other], turn: other, passes: 0, opened: [[], [], []], done: [me] } };
  const legal = [{ type: 'recruit_resume' }];
  window.__sent = [];
  document.querySelector('main').style.display = 'none';
  const box = document.createElement('main');
  box.id = 'resume-test';
  document.body.append(box);
  render(html`<${GodsPlaygroundTable} match=${{ id: 1, game: 'gods_playground', seats: [] }} view=${v} legal=${legal}
    status="active" seat=${me} version=${999} send=${(a) => window.__sent.push(a)} pending=${false} rejection=""
    clearRejection=${() => {}} log=${[]} presence=${null} connected=${true} />`, box);
  return { asked: asksMe({ legal, view: v, seat: me }), askedOther: asksMe({ legal: [{ type: 'pass' }], view: v, seat: other }) };
}"""


@pytest.mark.parametrize("locale", ["hu-HU", "en-US"])
def test_a_seat_out_of_the_recruitment_sees_a_button_to_take_it_back(browser, live_server_url, locale, screenshots):
    lang = locale[:2]
    with gp_table(browser, live_server_url, locale, "gpresume") as (client, audit):
        page = client.page
        view = next(s["view"] for s in reversed(client.states()) if s.get("view"))
        shown = page.evaluate(_RESUME_JS, [view, (view["you"] + 1) % 3])
        assert shown == {"asked": False, "askedOther": True}  # the shell's "your move" (title, cues) agrees
        table = page.locator("#resume-test [data-testid=table]")
        table.wait_for()
        button = page.locator("#resume-test [data-testid=dock] [data-type=recruit_resume]")
        button.wait_for()
        assert table.get_attribute("data-my-turn") == "no"
        assert "status-mine" not in (page.locator("#resume-test [data-testid=status]").get_attribute("class") or "")
        expected = {"hu": "Mégis toborzok", "en": "I want to recruit again"}[lang]
        assert button.inner_text().strip() == expected
        help_text = page.locator("#resume-test [data-testid=decision] .gp-help").inner_text()
        assert {"hu": "visszavonhatod", "en": "take it back"}[lang] in help_text
        page.screenshot(path=str(screenshots / f"gp-dock-resume-{lang}.png"))
        primary = page.evaluate(_PRIMARY_IN_VIEW_JS, ["#resume-test [data-testid=dock] .gp-pass"])
        assert primary["inView"], primary
        found = audit.check(page, "recruit_resume")
        assert not [v for v in found if v["impact"] in ("critical", "serious")], found
        button.focus()
        page.keyboard.press("Enter")
        assert page.evaluate("window.__sent") == [{"type": "recruit_resume"}]
