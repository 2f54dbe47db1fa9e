"""Keyboard play (issue 26): from the top of a table page a keyboard player reaches their hand (God's Playground:
the decision) in at most three Tabs (the first Tab offers "skip to your moves"), moves within the hand with the
arrow keys (one Tab stop for the whole hand), and Condottiere's keep-or-discard question, which settles by itself
after 6 s, waits while their focus is on its controls (the socket's `hold`, docs/api.md). In Hungarian and in
English: the skip link, the question's note and its answers in the page's language, and no word of tapping."""

from __future__ import annotations

import re
import time

import pytest

from .support import DESKTOP, PHONE, Client, add_bot, create_lobby, start_against_two_bots
from .test_catalogues import catalogue

pytestmark = pytest.mark.browser

_VERSION_CHANGED = "v => document.querySelector('[data-testid=table]').dataset.version !== v"
_IN_HAND = "() => !!document.activeElement.closest('[data-testid=hand]')"
_FOCUSED_CARD = """() => { const cards = [...document.querySelectorAll('[data-testid=hand] [data-testid=hand-card]')];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return i;
  // The focused card is wholly in sight in the hand, which scrolls sideways on a phone.
  const row = document.querySelector('[data-testid=hand] .hand').getBoundingClientRect();
  const r = cards[i].getBoundingClientRect();
  return r.left >= row.left - 0.5 && r.right <= row.right + 0.5 ? i : `card ${i} is half hidden`; }"""


LANGS = ["hu", "en"]
LOCALES = {"hu": "hu-HU", "en": "en-US"}
# What a label would say to a keyboard player that only fits a finger, in each language.
TAPPING = {"hu": re.compile(r"koppint", re.I), "en": re.compile(r"\btap(s|ped|ping)?\b", re.I)}


def _words(lang: str, *keys: str) -> list[str]:
    """The catalogue's texts for `keys` ("part:key") in `lang`."""
    return [catalogue(lang, k.split(":")[0])[k.split(":")[1]] for k in keys]


@pytest.fixture(params=LANGS)
def lang(request) -> str:
    return request.param


@pytest.fixture
def player(browser, live_server_url, lang):
    """A player on a desktop whose browser speaks `lang`, seated with two bots in a Condottiere match that has begun."""
    client = Client(browser, live_server_url, DESKTOP, locale=LOCALES[lang])
    try:
        _start(client)
        yield client
        assert client.errors == []
    finally:
        client.close()


def _start(client: Client, seats: int = 3) -> None:
    client.signup("keys")
    create_lobby(client, seats)
    for _ in range(seats - 1):
        add_bot(client)
    client.page.click("[data-testid=start]")
    client.page.wait_for_url("**/match/*")


def _until(page, phase: str) -> None:
    """Answer the table's questions with the mouse (the first region, pass, keep) until this seat is asked in
    `phase`; focus is parked outside the table after each answer, as if the player had looked elsewhere."""
    for _ in range(200):
        page.wait_for_selector("[data-testid=table][data-my-turn=yes]", timeout=30000)
        table = page.locator("[data-testid=table]")
        if table.get_attribute("data-phase") == phase:
            return
        version = table.get_attribute("data-version")
        for sel in ("[data-testid=region-choice]:enabled", "[data-testid=move-pass]:enabled", "[data-testid=move-keep-hand]:enabled",
                    "[data-testid=keep-confirm]:enabled", "[data-testid=move-legate-off]:enabled", "[data-testid=move-continue]:enabled"):
            if page.locator(sel).count():
                page.locator(sel).first.click()
                break
        page.focus(".brand")
        page.wait_for_function(_VERSION_CHANGED, arg=version)
    pytest.fail(f"never asked in {phase}")


def test_the_hand_is_three_tabs_away_and_the_arrows_move_in_it(player, lang):
    page = player.page
    skip, hand = _words(lang, "site:nav.skip_moves", "condottiere:cd.hand_label")
    _until(page, "battle")
    page.reload()
    page.wait_for_selector("[data-testid=table][data-my-turn=yes] [data-testid=hand-card]")
    tabs = 0
    while not page.evaluate(_IN_HAND):
        assert tabs < 3, f"the hand is more than 3 Tabs away (focus on {page.evaluate('document.activeElement.outerHTML.slice(0, 120)')})"
        page.keyboard.press("Tab")
        tabs += 1
        if page.evaluate("document.activeElement.dataset.testid") == "skip-moves":
            assert page.evaluate("document.activeElement.textContent").strip() == skip  # shown when focused
            page.keyboard.press("Enter")
    assert isinstance(page.evaluate(_FOCUSED_CARD), int)
    assert page.get_attribute("[data-testid=hand] .hand", "aria-label") == hand
    page.set_viewport_size(PHONE)  # a hand wider than the screen: the arrows keep the focused card in sight
    cards = page.locator("[data-testid=hand] [data-testid=hand-card]").count()
    assert cards >= 2
    # One Tab stop: only the focused card is in the Tab order; the arrows walk the hand, and wrap.
    assert page.eval_on_selector_all("[data-testid=hand-card]", "els => els.filter((e) => e.tabIndex === 0).length") == 1
    start = page.evaluate(_FOCUSED_CARD)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(_FOCUSED_CARD) == (start + 1) % cards
    page.keyboard.press("End")
    assert page.evaluate(_FOCUSED_CARD) == cards - 1
    page.keyboard.press("ArrowRight")
    assert page.evaluate(_FOCUSED_CARD) == 0
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(_FOCUSED_CARD) == cards - 1
    page.keyboard.press("Home")
    assert page.evaluate(_FOCUSED_CARD) == 0
    for i in range(1, cards):  # card by card: each wholly in sight, the half-shown ones too
        page.keyboard.press("ArrowRight")
        assert page.evaluate(_FOCUSED_CARD) == i
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(_FOCUSED_CARD) == 1
    # Tab leaves the hand at once (to the moves), Shift+Tab comes back to the same card.
    page.keyboard.press("Tab")
    assert not page.evaluate(_IN_HAND)
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(_FOCUSED_CARD) == 1
    # Nothing on the table tells a keyboard player to tap.
    words = page.evaluate("""() => [...document.querySelectorAll('[data-testid=table] *')].map((e) =>
      (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '')).join(' ') + document.body.innerText""")
    assert not TAPPING[lang].findall(words), TAPPING[lang].findall(words)


def _defaults_in(client: Client) -> list[int | None]:
    return [m.get("defaults_in_ms") for m in client.states()]


def test_the_keep_or_discard_question_waits_while_focus_is_on_it(player, lang):
    page = player.page
    note, keep, discard, go_on = _words(lang, "match_menu:match.seat.defaults_in", "condottiere:cd.mv.keep_hand",
                                        "condottiere:cd.mv.discard", "condottiere:cd.mv.continue")
    left = re.compile("^" + re.escape(note).replace(re.escape("{n}"), r"(\d+)") + "$")
    _until(page, "discard_hand")
    asked = time.monotonic()
    assert 0 < _defaults_in(player)[-1] <= 6000
    # Focus comes to the question's controls by the keyboard: the step is held for this seat.
    page.focus("[data-testid=skip-moves]")
    page.keyboard.press("Enter")
    assert page.evaluate("!!document.activeElement.closest('[data-testid=dock]')")
    # The held window reaches the page (a hold sent just as another seat answered is stale and sent again).
    page.wait_for_function("""() => { const n = document.querySelector('[data-testid=defaults-in]');
      return !!n && Number(n.textContent.match(/\\d+/)[0]) > 10; }""", timeout=5000)
    assert left.match(page.text_content("[data-testid=defaults-in]").strip()), page.text_content("[data-testid=defaults-in]")
    assert max(ms or 0 for ms in _defaults_in(player)) > 10000, _defaults_in(player)
    # The 6 seconds pass and the question is still there; its note says how long is left.
    page.wait_for_timeout(max(0, 7000 - (time.monotonic() - asked) * 1000))
    table = page.locator("[data-testid=table]")
    assert table.get_attribute("data-phase") == "discard_hand" and table.get_attribute("data-my-turn") == "yes"
    # Answered by the keyboard: focus is on a control that acts (keep or discard), not on a card that cannot.
    version = table.get_attribute("data-version")
    assert page.evaluate("document.activeElement.dataset.testid") in ("move-keep-hand", "move-discard")
    assert page.evaluate("document.activeElement.textContent").strip() in (keep, discard, go_on)
    page.keyboard.press("Enter")
    page.wait_for_function(_VERSION_CHANGED, arg=version, timeout=3000)


def test_god_s_playground_decision_is_three_tabs_away(browser, live_server_url, lang):
    """The same first Tab on the other table: the decision's first control (here a starting estate)."""
    client = Client(browser, live_server_url, PHONE, locale=LOCALES[lang])
    page = client.page
    try:
        client.signup("keysgp")
        start_against_two_bots(client, "gods_playground")
        page.wait_for_selector("[data-testid=table][data-my-turn=yes] [data-testid=dock] [data-testid=gp-move]:enabled",
                               timeout=30000)
        page.reload()
        page.wait_for_selector("[data-testid=table][data-my-turn=yes] [data-testid=dock] [data-testid=gp-move]:enabled")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.testid") == "skip-moves"
        assert page.evaluate("document.activeElement.textContent").strip() == _words(lang, "site:nav.skip_moves")[0]
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.dataset.testid") == "gp-move"
        version = page.get_attribute("[data-testid=table]", "data-version")
        page.keyboard.press("Enter")  # and it acts
        page.wait_for_function(_VERSION_CHANGED, arg=version)
        assert client.errors == []
    finally:
        client.close()
