"""The app in Hungarian and English, in Chromium: a hu-HU browser gets every screen and both tables in
Hungarian with <html lang="hu">, the server's errors too; the switch in the header changes the language in
place and is remembered (a cookie for a visitor, the account for a signed-in player). Screenshots of both
tables in both languages, phone and desktop, go to test-artifacts/screenshots/.

A word the app asks for and a catalogue lacks logs a console error (frontend/js/i18n.js), which every
browser test counts as a failure; here the page is also searched for English left in Hungarian."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .support import DESKTOP, PASSWORD, PHONE, Client, add_bot, create_lobby, start_against_two_bots
from .test_catalogues import GAMES, catalogue

pytestmark = pytest.mark.browser

COOKIE = "django_language"

# Every visible text node, and the words only a screen reader or a tooltip shows, the match log's included.
_TEXTS_JS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, noscript, [data-testid=username]')) continue;
    const text = n.textContent.trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [title]')) {
    for (const a of ['aria-label', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a).trim());
  }
  for (const t of document.querySelectorAll('title')) out.push(t.textContent.trim());
  return out;
}"""


def _english_only() -> tuple[set[str], list[re.Pattern]]:
    """English words that Hungarian says differently: whole texts, and templates with enough fixed words to tell."""
    whole: set[str] = set()
    templates: list[re.Pattern] = []
    for part in ("site", *GAMES, "players"):
        en, hu = catalogue("en", part), catalogue("hu", part)
        for key, value in en.items():
            hu_texts = set(hu[key].values()) if isinstance(hu[key], dict) else {hu[key]}
            for text in value.values() if isinstance(value, dict) else [value]:
                if text in hu_texts:
                    continue
                if "{" not in text:
                    if len(text) > 2:  # "S" (the Sejm disc's mark) is also a family's initial
                        whole.add(text)
                elif len(re.sub(r"\{\w+\}|[^A-Za-z]", "", text)) >= 6:
                    templates.append(re.compile(r".+".join(re.escape(p) for p in re.split(r"\{\w+\}", text))))
    return whole, templates


def assert_hungarian(client: Client, what: str) -> None:
    page = client.page
    assert page.evaluate("document.documentElement.lang") == "hu", what
    whole, templates = _english_only()
    texts = page.evaluate(_TEXTS_JS)
    english = sorted({t for t in texts if t in whole or any(p.fullmatch(t) for p in templates)})
    assert not english, f"{what}: English on a Hungarian page: {english}"
    assert "God's Playground" not in page.title(), page.title()
    assert client.errors == [], client.errors


def _ready(client: Client, selector: str) -> None:
    client.page.wait_for_selector(selector)
    client.page.wait_for_function("() => !document.querySelector('.spinner')")


def test_a_hungarian_browser_gets_every_screen_in_hungarian(browser, live_server_url, screenshots):
    me = Client(browser, live_server_url, PHONE, locale="hu-HU")
    try:
        me.goto("/")
        _ready(me, "[data-testid=open-lobbies]")
        assert me.page.text_content("h1") == "Játék"
        assert_hungarian(me, "home, visitor")
        # The server's own refusals come in Hungarian as well (here Django's password validators).
        me.goto("/signup")
        _ready(me, "input[name=password]")
        assert_hungarian(me, "sign-up")
        me.page.fill("input[name=username]", "Erzsébet")
        me.page.fill("input[name=password]", "1234")
        me.page.click("button[type=submit]")
        assert "túl rövid" in me.page.text_content("[data-testid=field-error][data-field=password]")
        me.errors.clear()  # the refused sign-up is a 400 in the console
        me.signup("magyar")
        _ready(me, "[data-testid=open-lobbies]")
        assert_hungarian(me, "home, signed in")
        me.page.screenshot(path=str(screenshots / "i18n-home-hu-phone.png"))
        me.goto("/matches")
        _ready(me, "[role=tablist]")
        assert_hungarian(me, "matches")
        me.goto("/lobbies/new")
        _ready(me, "[data-testid=rules]")
        assert me.page.get_by_label("Rejtett kártyák", exact=True).count() == 1  # the option's label, from the server
        assert_hungarian(me, "new lobby")
        me.page.screenshot(path=str(screenshots / "i18n-new-lobby-hu-phone.png"), full_page=True)
        create_lobby(me, 3)
        add_bot(me)
        assert_hungarian(me, "lobby room")
        me.page.screenshot(path=str(screenshots / "i18n-lobby-hu-phone.png"), full_page=True)
    finally:
        me.close()


def _cookie(client: Client) -> str | None:
    return next((c["value"] for c in client.context.cookies() if c["name"] == COOKIE), None)


def _switch(client: Client, to: str) -> None:
    client.page.click("[data-testid=language]")
    client.page.wait_for_function("lang => document.documentElement.lang === lang", arg=to)


def _after_reload(client: Client, ready: str, lang: str, heading: str) -> None:
    """Reload: the page comes back in `lang`, with `heading` as its title."""
    client.page.reload()
    _ready(client, ready)
    assert client.page.evaluate("document.documentElement.lang") == lang
    assert client.page.text_content("h1") == heading


def test_a_visitor_switches_in_place_and_the_choice_survives_a_reload(browser, live_server_url):
    visitor = Client(browser, live_server_url, PHONE, locale="hu-HU")
    try:
        visitor.goto("/signup")
        _ready(visitor, "input[name=username]")
        assert visitor.page.text_content("h1") == "Hozd létre a fiókod"
        visitor.page.fill("input[name=username]", "félig kitöltve")
        _switch(visitor, "en")
        # The page re-rendered in English and kept what was typed.
        assert visitor.page.text_content("h1") == "Create your account"
        assert visitor.page.input_value("input[name=username]") == "félig kitöltve"
        assert visitor.page.title().startswith("Sign up · ")
        assert _cookie(visitor) == "en"
        _after_reload(visitor, "input[name=username]", "en", "Create your account")
        _switch(visitor, "hu")
        _after_reload(visitor, "input[name=username]", "hu", "Hozd létre a fiókod")
        assert_hungarian(visitor, "sign-up after switching back")
    finally:
        visitor.close()


def test_a_player_s_account_remembers_the_language_on_every_browser(browser, live_server_url):
    me = Client(browser, live_server_url, DESKTOP, locale="hu-HU")
    elsewhere = Client(browser, live_server_url, PHONE, locale="hu-HU")
    try:
        name = me.signup("fiok")
        me.goto("/lobbies/new")
        _ready(me, "[data-testid=rules]")
        me.page.click("[data-testid=seat-more]")
        assert me.page.get_by_label("Rejtett kártyák", exact=True).count() == 1
        _switch(me, "en")
        # Same form, same choices; the options' words came again from the server, in English.
        me.page.get_by_label("Hidden cards", exact=True).wait_for()
        assert me.page.text_content("[data-testid=seat-count]") == "4"
        assert me.page.text_content("h1") == "New lobby"
        _after_reload(me, "[data-testid=rules]", "en", "New lobby")
        assert me.page.request.get(f"{live_server_url}/api/auth/me/").json()["language"] == "en"

        # A browser that asks for Hungarian: the log-in brings the account's English.
        elsewhere.goto("/login")
        _ready(elsewhere, "input[name=password]")
        assert elsewhere.page.text_content("h1") == "Üdv újra!"
        elsewhere.page.fill("input[name=username]", name)
        elsewhere.page.fill("input[name=password]", PASSWORD)
        elsewhere.page.click("button[type=submit]")
        elsewhere.page.wait_for_selector(f"[data-testid=username]:text-is('{name}')")
        _after_reload(elsewhere, "[data-testid=open-lobbies]", "en", "Play")

        _switch(elsewhere, "hu")
        _after_reload(elsewhere, "[data-testid=open-lobbies]", "hu", "Játék")
        assert_hungarian(elsewhere, "home after switching back")
        assert elsewhere.page.request.get(f"{live_server_url}/api/auth/me/").json()["language"] == "hu"
        assert me.errors == [] and elsewhere.errors == []
    finally:
        me.close()
        elsewhere.close()


@pytest.mark.parametrize("game", GAMES)
def test_both_tables_in_both_languages_on_phones_and_desktops(browser, live_server_url, screenshots, game):
    """A match against bots, then the same seat's table in Hungarian and English, phone and desktop."""
    player = Client(browser, live_server_url, DESKTOP)
    try:
        player.signup("tabla")
        start_against_two_bots(player, game)
        path = "/" + player.page.url.split("/", 3)[3]
        state = player.context.storage_state()
    finally:
        player.close()
    for lang in ("hu", "en"):
        for device, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            seat = Client(browser, live_server_url, viewport, locale="hu-HU" if lang == "hu" else "en-US")
            try:
                seat.context.add_cookies(state["cookies"])
                seat.context.add_cookies([{"name": COOKIE, "value": lang, "url": live_server_url}])
                seat.goto(path)
                _ready(seat, "[data-testid=table] [data-testid=status]")
                if lang == "hu":
                    assert_hungarian(seat, f"{game} table, {device}")
                else:
                    assert seat.page.evaluate("document.documentElement.lang") == "en"
                    assert seat.errors == [], seat.errors
                seat.page.screenshot(path=str(screenshots / f"i18n-{game}-{lang}-{device}.png"), full_page=device == "phone")
            finally:
                seat.close()


def test_the_catalogue_for_the_page_language_is_all_that_loads(browser, live_server_url):
    """One language's words per page: a Hungarian page never downloads the English catalogues."""
    me = Client(browser, live_server_url, DESKTOP, locale="hu-HU")
    fetched: list[str] = []
    me.page.on("request", lambda r: fetched.append(r.url) if "/app/i18n/" in r.url else None)
    try:
        me.signup("egynyelv")
        start_against_two_bots(me, "gods_playground")
        _ready(me, "[data-testid=table]")
        # (Under their hashed names, backend/web/assets.py.)
        words = sorted({Path(u).parent.name + "/" + re.sub(r"\.[0-9a-f]{10}\.json$", ".json", Path(u).name)
                        for u in fetched})
        # The parts this visit showed (frontend/README.md, Loading): the site, the sign-up and lobby screens,
        # the table, and what it loads as it needs it (the decision panels, the log's sentences).
        assert {"hu/site.json", "hu/screens.json", "hu/gods_playground.json"} <= set(words), words
        assert all(w.startswith("hu/") for w in words), words
        assert json.loads(me.page.evaluate("JSON.stringify(document.documentElement.lang)")) == "hu"
    finally:
        me.close()


def test_hungarian_articles_follow_the_value(browser, live_server_url):
    """`{az:name}` in the catalogue: the page's t() puts "a" or "az" before the value by its first sound, numbers
    by how they are said; the same rule as tests/test_hungarian.py's, on the same cases."""
    from tests.test_hungarian import article

    client = Client(browser, live_server_url, PHONE, locale="hu-HU")
    try:
        client.goto("/rules/condottiere")
        client.page.wait_for_selector("main h1")
        values = ["1", "2", "5", "10", "15", "50", "105", "500", "1000", "1 000", "2000", "11000", "Anna", "Bologna",
                  "Ödön", "Az Isten játszótere"]
        said = client.page.evaluate("""async (values) => {
          const i18n = await import('/app/js/i18n.js');
          await i18n.loadWords('gods_playground_events');
          return { articles: values.map(i18n.article),
                   rounds: [1, 2, 5].map((n) => i18n.t('ev.gods_playground.round', { round: n })) };
        }""", values)
        assert said["articles"] == [article(v) for v in values]
        assert said["rounds"] == ["Kezdődik az 1. forduló.", "Kezdődik a 2. forduló.", "Kezdődik az 5. forduló."]
        assert client.errors == []
    finally:
        client.close()
