"""Learning to play inside the app: each game's rules page in both languages, the references listing what the
engines know, the help sheet a tap or a long press opens on a live table, and lobby options in plain words.

Screenshots (rules pages on phone and desktop in both languages, the help sheet on both tables) go to
test-artifacts/screenshots/ and, when SHOTS_DIR is set, there too."""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path

import pytest

from backend.engines.condottiere.cards import DECK_COUNTS
from backend.engines.gods_playground import board as gp_board
from backend.engines.gods_playground import flow as gp_flow
from backend.engines.gods_playground.engine import ACTIONS as GP_ACTIONS

from .support import DESKTOP, PHONE, Client, start_against_two_bots
from .test_catalogues import catalogue
from .test_i18n import assert_hungarian

pytestmark = pytest.mark.browser

GAMES = ("condottiere", "gods_playground")
LOCALES = {"en": "en-US", "hu": "hu-HU"}
TITLE = {"condottiere": "rc.title", "gods_playground": "rg.title"}


def _shot(page, screenshots: Path, name: str, full_page: bool = False) -> None:
    for folder in filter(None, [screenshots, os.environ.get("SHOTS_DIR")]):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)


def _open_rules(client: Client, game: str) -> None:
    client.goto(f"/rules/{game}")
    client.page.wait_for_selector(f"[data-testid=rules][data-game={game}]")


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("game", GAMES)
def test_each_rules_page_exists_in_both_languages(browser, live_server_url, screenshots, game, lang):
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        client = Client(browser, live_server_url, viewport, locale=LOCALES[lang])
        try:
            _open_rules(client, game)
            page = client.page
            assert page.evaluate("document.documentElement.lang") == lang
            words = catalogue(lang, f"rules_{game}")
            assert page.text_content("h1") == words[TITLE[game]]
            # Every section the contents list is on the page, each with its heading and some text.
            targets = page.eval_on_selector_all(".rules-toc a", "els => els.map((a) => a.getAttribute('href').slice(1))")
            assert len(targets) >= 8
            for target in targets:
                assert page.locator(f"section#{target} h2").count() == 1, target
                assert len(page.text_content(f"section#{target}").strip()) > 80, target
            assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), "no sideways scroll"
            if lang == "hu":
                assert_hungarian(client, f"{game} rules")
            assert client.errors == [], client.errors  # a missing word logs an error (js/i18n.js)
            _shot(page, screenshots, f"rules-{game}-{lang}-{size}", full_page=True)
        finally:
            client.close()


def test_the_card_reference_lists_every_card_the_engine_deals(browser, live_server_url):
    client = Client(browser, live_server_url, DESKTOP)
    try:
        client.goto("/rules/condottiere#cards")
        page = client.page
        page.wait_for_selector("[data-testid=card-reference] [data-card]")
        shown = dict(page.eval_on_selector_all("[data-testid=card-reference] li[data-card]",
                                               "els => els.map((e) => [e.dataset.card, Number(e.dataset.count)])"))
        assert shown == DECK_COUNTS
        en = catalogue("en", "condottiere")
        for code in DECK_COUNTS:
            entry = page.text_content(f"[data-testid=card-reference] li[data-card={code}]")
            assert en[f"cd.card.{code}"] in entry
        # The address's #cards lands on the reference, not the top of the page.
        assert page.evaluate("Math.abs(document.getElementById('cards').getBoundingClientRect().top) < 120")
        assert client.errors == [], client.errors
    finally:
        client.close()


def test_the_gods_playground_reference_lists_every_action_enemy_province_unit_and_phase(browser, live_server_url):
    client = Client(browser, live_server_url, DESKTOP)
    try:
        _open_rules(client, "gods_playground")
        page = client.page

        def listed(attr: str) -> set[str]:
            return set(page.eval_on_selector_all(f"[data-{attr}]", f"els => els.map((e) => e.dataset.{attr})"))

        assert listed("action") == set(GP_ACTIONS.types)
        assert listed("enemy") == set(gp_board.ENEMIES)
        assert listed("province") >= set(gp_board.PROVINCES)
        assert listed("unit") == {*gp_board.UNITS, "cossack"}
        assert listed("phase") == set(gp_flow.PHASES)
        assert client.errors == [], client.errors
    finally:
        client.close()


@contextmanager
def _table(browser, base: str, viewport: dict, lang: str, game: str):
    """A new player's page at a fresh `game` table against two bots; no console error may happen there."""
    client = Client(browser, base, viewport, locale=LOCALES[lang])
    try:
        client.signup("learner")
        start_against_two_bots(client, game)
        yield client
        assert client.errors == [], client.errors
    finally:
        client.close()


# Resolves once the element and the page have kept still for ten frames: a decision that arrives scrolls the
# page smoothly to its first choice, and a press that the page scrolls away from is (rightly) no long press.
_STILL = """(sel) => {
  const el = document.querySelector(sel);
  if (!el || el.disabled) return false;
  const r = el.getBoundingClientRect();
  const now = [r.x, r.y, r.width, r.height, scrollX, scrollY].join();
  const w = window.__still && window.__still.sel === sel ? window.__still : (window.__still = { sel, now: "", frames: 0 });
  w.frames = w.now === now ? w.frames + 1 : 0;
  w.now = now;
  return w.frames >= 10;
}"""


def _long_press(page, selector: str) -> None:
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    page.wait_for_function(_STILL, arg=selector, polling="raf")
    target.hover()  # Playwright's own checks too: visible, stable, receives the pointer
    page.mouse.down()
    page.wait_for_selector("dialog[data-testid=help][open]")
    page.mouse.up()


def _help_text(page) -> str:
    page.wait_for_selector("dialog[data-testid=help][open] [data-testid=help-text]")
    return page.text_content("dialog[data-testid=help]")


def _close_help(page) -> None:
    page.click("[data-testid=help-close]")
    page.wait_for_selector("dialog[data-testid=help]:not([open])", state="attached")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_tap_on_a_card_on_a_live_table_says_what_it_does(browser, live_server_url, screenshots, lang):
    with _table(browser, live_server_url, PHONE, lang, "condottiere") as client:
        page = client.page
        # The table waits on this player from here on (bots moving would enable or disable cards under the finger).
        page.wait_for_selector("[data-testid=table][data-my-turn=yes] [data-testid=hand-card]")
        words = catalogue(lang, "condottiere") | catalogue(lang, "rules_condottiere")  # what it does: the rules' words
        # A card that cannot be played now opens its help with a tap; one that can, with a long press (a tap plays it).
        card = page.locator("[data-testid=hand-card][aria-disabled=true]").first
        version = client.table_version()
        if card.count():
            code = card.get_attribute("data-card")
            card.scroll_into_view_if_needed()  # the hand may scroll sideways
            card.tap(force=True)  # Playwright waits for aria-disabled controls to enable; a finger does not
        else:
            code = page.get_attribute("[data-testid=hand-card]", "data-card")
            _long_press(page, f"[data-testid=hand-card][data-card={code}]")
        text = _help_text(page)
        assert words[f"cd.card.{code}"] in text
        assert words["cd.help.merc" if code.startswith("m") else f"cd.help.{code}"] in text
        assert client.table_version() == version, "asking what a card does never plays it"
        _shot(page, screenshots, f"help-condottiere-{lang}-phone")
        _close_help(page)
        # A region of the map explains itself too: a tap on one that is no choice now (near the middle, clear of the
        # edges), a long press on one that is (while you choose the next battle every free region is). Escape closes it.
        page.locator("[data-testid=board]").scroll_into_view_if_needed()
        region, choosable = page.evaluate("""() => {
          const board = document.querySelector('[data-testid=board]').getBoundingClientRect();
          const mid = (g) => { const r = g.getBoundingClientRect();
            return Math.hypot(r.x + r.width / 2 - board.x - board.width / 2, r.y + r.height / 2 - board.y - board.height / 2); };
          const all = [...document.querySelectorAll('[data-testid=board] g.region:not(.battle)')].sort((a, b) => mid(a) - mid(b));
          const g = all.find((x) => !x.classList.contains('choosable')) || all[0];
          return [g.dataset.region, g.classList.contains('choosable')]; }""")
        version = client.table_version()
        if choosable:
            _long_press(page, f"[data-testid=board] g.region[data-region={region}]")
        else:
            page.locator(f"[data-testid=board] g.region[data-region={region}]").tap()
        assert catalogue(lang, "rules_condottiere")["rc.help.region"] in _help_text(page)
        assert client.table_version() == version
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog[data-testid=help]:not([open])", state="attached")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_tap_on_a_gods_playground_box_and_a_long_press_on_a_move_explain_them(browser, live_server_url, screenshots,
                                                                                  lang):
    with _table(browser, live_server_url, DESKTOP, lang, "gods_playground") as client:
        page = client.page
        rules = catalogue(lang, "rules_gods_playground")
        # The enemy boxes beside the board (on the map a province may be a choice now: a tap there chooses it).
        # On a phone the docked decision covers the bottom of the screen: bring the box to the top first.
        page.evaluate("document.querySelector('li.gp-enemy[data-enemy=orange]').scrollIntoView({block: 'center'})")
        page.locator("li.gp-enemy[data-enemy=orange]").click()
        assert rules["rg.help.box"].split("{vp}")[0] in _help_text(page)
        _shot(page, screenshots, f"help-gods_playground-{lang}-desktop")
        _close_help(page)
        # The first decision is every player's starting estate: a long press on a move explains it, and sends nothing.
        page.wait_for_selector("[data-testid=table][data-my-turn=yes] [data-testid=gp-move]:enabled")
        version = client.table_version()
        kind = page.get_attribute("[data-testid=gp-move]", "data-type")
        _long_press(page, "[data-testid=gp-move]")
        assert rules[f"rg.action.{kind}"] in _help_text(page)
        assert client.table_version() == version
        _close_help(page)


def test_the_help_sheet_on_a_phone_gods_playground_table(browser, live_server_url, screenshots):
    with _table(browser, live_server_url, PHONE, "hu", "gods_playground") as client:
        page = client.page
        page.locator("li.gp-enemy[data-enemy=yellow]").tap()
        rules = catalogue("hu", "rules_gods_playground")
        assert rules["rg.enemy.yellow"].split("{p}")[0] in _help_text(page)
        _shot(page, screenshots, "help-gods_playground-hu-phone")


PAGE_REFERENCE = re.compile(r"\bpp?\.\s*\d|\d+\.\s*o\.|\boldal", re.IGNORECASE)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", list(LOCALES))
def test_lobby_options_explain_themselves_without_page_numbers(client, lang):
    games = client.get("/api/games/", HTTP_ACCEPT_LANGUAGE=LOCALES[lang]).json()
    words = [spec.get(k) or "" for g in games for spec in g["options_schema"].values() for k in ("label", "help")]
    assert any(words), "the games have options to describe"
    assert not [w for w in words if PAGE_REFERENCE.search(w)]
    condottiere = next(g for g in games if g["id"] == "condottiere")
    assert all(spec["help"] for spec in condottiere["options_schema"].values())
