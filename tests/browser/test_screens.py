"""One player against bots on a phone: layout (no sideways scroll, 44 px targets), keyboard play, dark scheme,
the finished match's result from "My matches"; and a private lobby's invite link, bots and kick."""

from __future__ import annotations

import json
import random

import pytest

from .support import DESKTOP, PHONE, Client, add_bot, create_lobby, play_to_the_end

pytestmark = pytest.mark.browser

_SMALL_TARGETS_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('button, a[href], input, select, [role=button]')) {
    // A checkbox or radio is tapped through its whole label.
    const box = el.matches('input[type=checkbox], input[type=radio]') && el.closest('label') ? el.closest('label') : el;
    const r = box.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.classList.contains('skip')) continue;   // the skip link is off-screen until focused
    if (r.width < 43.5 || r.height < 43.5) out.push(`${el.tagName} ${el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}"""


def _assert_fits_phone(client: Client, what: str) -> None:
    width = client.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{what}: the page is {width}px wide on a 360px phone"
    small = client.page.evaluate(_SMALL_TARGETS_JS)
    assert small == [], f"{what}: touch targets under 44px: {small}"


def _start_against_bots(client: Client, seats: int = 3) -> None:
    page = client.page
    create_lobby(client, seats)
    for _ in range(seats - 1):
        add_bot(client)
    _assert_fits_phone(client, "lobby room")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table]")


def _keyboard_move(client: Client) -> None:
    """Wait for the player's turn, then reach a legal control with Tab alone and press Enter."""
    page = client.page
    page.wait_for_selector("[data-testid=table][data-my-turn=yes]", timeout=20000)
    version = client.table_version()
    page.focus("body")
    for _ in range(120):
        page.keyboard.press("Tab")
        target = page.evaluate("""() => { const e = document.activeElement;
          return e && !e.disabled && e.getAttribute('aria-disabled') !== 'true' && (e.dataset.testid === 'hand-card' || e.dataset.testid === 'region-choice'
            || (e.dataset.testid || '').startsWith('move-') || e.matches('g.region.choosable')) ? (e.dataset.testid || 'region') : null; }""")
        if target:
            break
    else:
        pytest.fail("no legal control is reachable with the Tab key")
    page.keyboard.press("Enter")
    page.wait_for_function("""v => document.querySelector('[data-testid=choice]')
        || Number(document.querySelector('[data-testid=table]').dataset.version) > v""", arg=version)
    if page.locator("[data-testid=choice]").count():
        page.keyboard.press("Enter")  # the dialog focuses its first answer
    page.wait_for_function("v => Number(document.querySelector('[data-testid=table]').dataset.version) > v", arg=version)


def _rejected_action_shows_the_servers_reason(client: Client) -> None:
    """An action the engine refuses (a card that does not exist, sent on the page's own socket) comes back as the
    server's sentence, on screen."""
    page = client.page
    for attempt in range(10):
        page.wait_for_selector("[data-testid=table][data-my-turn=yes]", timeout=20000)
        before = len(client.frames)
        page.evaluate("""id => { const v = Number(document.querySelector('[data-testid=table]').dataset.version);
          for (const s of window.__sockets) s.send({type: 'action', version: v, id, action: {type: 'play', card: 'dragon'}}); }""",
                      f"bad-{attempt}")
        alert = page.get_by_role("alert")
        alert.wait_for()
        errors = [m for m in map(json.loads, client.frames[before:]) if m.get("type") == "error"]
        shown = alert.text_content()
        alert.get_by_role("button", name="Dismiss").click()
        # A bot answering at the same moment makes the version stale; then try again.
        if errors and errors[0]["code"] == "stale_version":
            continue
        assert errors and errors[0]["id"] == f"bad-{attempt}" and errors[0]["code"] == "bad_message", errors
        assert errors[0]["message"] in shown
        return
    pytest.fail("every attempt met a stale version")


def test_phone_player_against_bots_keyboard_dark_scheme_and_result(browser, live_server_url, screenshots):
    me = Client(browser, live_server_url, PHONE, color_scheme="dark")
    try:
        me.goto("/login")
        me.page.wait_for_selector("input[name=password]")
        _assert_fits_phone(me, "/login")
        me.signup("phone")
        for path, ready in (("/", "[data-testid=open-lobbies]"), ("/matches", "[role=tablist]"), ("/lobbies/new", "[data-testid=seat-count]")):
            me.goto(path)
            me.page.wait_for_selector(ready)
            _assert_fits_phone(me, path)
        # The form offers exactly the engine's player-facing options, each under its own label.
        games = me.page.request.get(f"{live_server_url}/api/games/").json()
        schema = next(g for g in games if g["id"] == "condottiere")["options_schema"]
        for name, spec in schema.items():
            control = me.page.get_by_label(spec["label"], exact=True)
            assert control.count() == 1, name
            assert control.get_attribute("type") == {"bool": "checkbox", "int": "number"}.get(spec["type"], control.get_attribute("type"))
        assert me.page.locator("[data-testid=rules] input, [data-testid=rules] select").count() == len(schema)
        _start_against_bots(me)
        _assert_fits_phone(me, "table")
        _keyboard_move(me)
        _assert_fits_phone(me, "table after a move")
        _rejected_action_shows_the_servers_reason(me)
        me.page.screenshot(path=str(screenshots / "table-phone-dark.png"), full_page=True)
        play_to_the_end([me], random.Random(3), timeout=150)
        me.page.evaluate("window.scrollTo(0, 0)")
        _assert_fits_phone(me, "result")
        me.page.screenshot(path=str(screenshots / "result-phone-dark.png"))

        # The finished match is listed under "My matches" and opens on its result.
        match_url = me.page.url
        me.goto("/matches")
        me.page.locator("[role=tab][data-tab=finished]").click()
        row = me.page.locator("[data-testid=match-row]").first
        row.wait_for()
        # A finished match's row offers its replay beside its result (tests/browser/test_replay.py).
        assert row.locator("[data-testid=replay-link]").get_attribute("href") == match_url.replace(me.base, "") + "/replay"
        row.locator("a.btn:not([data-testid=replay-link])").click()  # the row's own button (names link to players' pages)
        me.page.wait_for_selector("[data-testid=result]")
        assert me.page.url == match_url
        assert me.errors == []
    finally:
        me.close()


def test_private_lobby_invite_link_bots_and_kick(browser, live_server_url, screenshots):
    host = Client(browser, live_server_url, DESKTOP)
    guest = Client(browser, live_server_url, PHONE)
    stranger = Client(browser, live_server_url, DESKTOP)
    try:
        for c in (host, guest, stranger):
            c.signup()
        page = host.page
        lobby_id = create_lobby(host, 3, check=("Private",))
        invite = page.input_value("[data-testid=invite-link]")

        # Not listed for others; the invite link seats the guest.
        stranger.goto("/")
        stranger.page.wait_for_selector("[data-testid=open-lobbies]")
        stranger.page.wait_for_timeout(300)
        assert stranger.page.locator(f"[data-testid=lobby-row][data-lobby='{lobby_id}']").count() == 0
        guest.page.goto(invite)
        guest.page.click("[data-testid=join]")
        page.get_by_role("button", name=f"Kick {guest.name}").wait_for()  # live in the host's room
        _assert_fits_phone(guest, "lobby room (guest)")

        # A bot in, a bot out, then the guest is kicked; every change shows up live.
        add_bot(host)
        page.get_by_role("button", name="Remove the bot from seat 3").click()
        page.get_by_role("button", name=f"Kick {guest.name}").click()
        page.wait_for_function("() => document.querySelectorAll('[data-testid=seat].taken').length === 1")
        assert page.locator(f"text={guest.name}").count() == 0
        page.screenshot(path=str(screenshots / "lobby-private-desktop.png"))
        for c in (host, guest):
            assert c.errors == [], c.errors
        assert stranger.errors == []

        # Bots fill the private room; its match is closed to people outside it, who are told so.
        add_bot(host)
        add_bot(host)
        page.click("[data-testid=start]")
        page.wait_for_selector("[data-testid=table]")
        stranger.goto("/" + page.url.split("/", 3)[3])
        stranger.page.get_by_role("alert").filter(has_text="private").wait_for()
        assert stranger.page.locator("[data-testid=table]").count() == 0
        # Only the refused requests themselves may complain in the console.
        assert all("403" in e or "Forbidden" in e for e in stranger.errors), stranger.errors
    finally:
        for c in (host, guest, stranger):
            c.close()
