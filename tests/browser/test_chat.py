"""Chat at phone size (issue 12): two players and a spectator talk in the lobby room and at the table. The chat's
code loads only once a first line arrives or its button is pressed; markup stays text; a spectator's line never
reaches the players during the match (checked on the frames their pages received, not only on what they show).
Screenshots go to /work/shots/chat/ (CHAT_SHOTS overrides) and the test-artifacts folder."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from .support import PHONE, Client, add_bot, create_lobby

pytestmark = pytest.mark.browser

# The chat's code and style, under their plain or content-hashed names (backend/web/assets.py).
CHAT_CODE = re.compile(r"/(js/chat|chat)(\.[0-9a-f]+)?\.(js|css)$")

SHOTS = Path(os.environ.get("CHAT_SHOTS", "/work/shots/chat"))
MARKUP = '<b>bold?</b><img src=x onerror="window.__pwned=1"> hi'


def _shot(client: Client, screenshots: Path, name: str) -> None:
    for folder in (SHOTS, screenshots):
        folder.mkdir(parents=True, exist_ok=True)
        client.page.screenshot(path=str(folder / f"{name}.png"))


def _open_chat(client: Client) -> None:
    client.page.click("[data-testid=chat-open]")
    client.page.wait_for_selector("dialog[data-testid=chat-panel][open]")


def _close_chat(client: Client) -> None:
    client.page.keyboard.press("Escape")
    client.page.wait_for_selector("dialog[data-testid=chat-panel]", state="detached")


def _say(client: Client, text: str) -> None:
    """Type a line and send it with Enter (the keyboard's way), then see it arrive back."""
    page = client.page
    page.fill("[data-testid=chat-input]", text)
    page.press("[data-testid=chat-input]", "Enter")
    page.wait_for_function("t => [...document.querySelectorAll('[data-testid=chat-text]')].some(e => e.textContent === t)",
                           arg=text)


def _lines(client: Client) -> list[str]:
    return client.page.eval_on_selector_all("[data-testid=chat-text]", "els => els.map(e => e.textContent)")


def _wait_line(client: Client, text: str) -> None:
    client.page.wait_for_function(
        "t => [...document.querySelectorAll('[data-testid=chat-text]')].some(e => e.textContent === t)", arg=text)


def _chat_texts_received(client: Client) -> list[str]:
    out = []
    for raw in client.frames:
        msg = json.loads(raw)
        if msg.get("type") == "chat":
            out.append(msg["message"]["text"])
        elif msg.get("type") == "chat_history":
            out += [m["text"] for m in msg["messages"]]
    return out


def test_two_players_and_a_spectator_chat_on_a_phone(browser, live_server_url, screenshots):
    host = Client(browser, live_server_url, PHONE)
    guest = Client(browser, live_server_url, PHONE)
    watcher = Client(browser, live_server_url, PHONE, locale="hu-HU")
    try:
        host.signup("chathost")
        guest.signup("chatguest")
        watcher.signup("chatwatch")
        lobby = create_lobby(host, 3)
        guest.goto(f"/lobby/{lobby}")
        guest.page.click("[data-testid=join]")
        host.page.wait_for_function("() => document.querySelectorAll('[data-testid=seat].taken').length === 2")

        # The lobby room: the host writes, the guest's button counts the new line, opens and reads it.
        _open_chat(host)
        _say(host, "welcome, ready in a minute")
        guest.page.wait_for_selector("[data-testid=chat-unread]:text-is('1')")
        _open_chat(guest)
        _wait_line(guest, "welcome, ready in a minute")
        _shot(guest, screenshots, "lobby-guest-360")
        # The host may remove a line of the room: it leaves every panel.
        _shot(host, screenshots, "lobby-host-360")
        host.page.click("[data-testid=chat-remove]")
        guest.page.wait_for_function("() => !document.querySelector('[data-testid=chat-text]')")
        _close_chat(guest)
        _close_chat(host)

        add_bot(host)
        host.page.wait_for_function("() => !document.querySelector('[data-testid=start]').disabled")
        host.page.click("[data-testid=start]")
        for player in (host, guest):
            player.page.wait_for_url("**/match/*")
            player.page.wait_for_selector("[data-testid=table]")
        match_path = host.page.url[len(live_server_url):]

        # The spectator opens the match fresh: a silent chat downloads none of its code.
        requested = []
        watcher.page.on("request", lambda r: requested.append(r.url))
        watcher.goto(match_path)
        watcher.page.wait_for_selector("[data-testid=table]")
        watcher.page.wait_for_function("() => !!document.querySelector('[data-testid=chat-open]')")
        assert not [u for u in requested if CHAT_CODE.search(u)]

        # A player's line (markup and all) reaches the other player and the spectator, as text.
        _open_chat(host)
        _say(host, MARKUP)
        watcher.page.wait_for_selector("[data-testid=chat-unread]:text-is('1')")
        guest.page.wait_for_selector("[data-testid=chat-unread]:text-is('1')")
        assert [u for u in requested if CHAT_CODE.search(u) and u.endswith(".js")], "the first line loads the chat's code"
        _shot(guest, screenshots, "table-unread-badge-360")
        _open_chat(guest)
        _wait_line(guest, MARKUP)
        assert guest.page.eval_on_selector_all("[data-testid=chat-lines] b, [data-testid=chat-lines] img",
                                               "els => els.length") == 0
        assert guest.page.evaluate("window.__pwned") is None

        # The spectator (in Hungarian) writes to the spectators; players never receive it while the match runs.
        _open_chat(watcher)
        _wait_line(watcher, MARKUP)
        assert watcher.page.text_content("#chat-title") == "Csevegés"
        assert watcher.page.get_attribute("[data-testid=chat-input]", "placeholder") == "Üzenet a nézőknek"
        _say(watcher, "nézőtérről: szép lépés")
        _shot(watcher, screenshots, "table-spectator-hu-360")
        _say(guest, "thanks, good luck")
        _wait_line(host, "thanks, good luck")
        _wait_line(watcher, "thanks, good luck")
        _shot(host, screenshots, "table-host-360")
        for player in (host, guest):
            assert "nézőtérről: szép lépés" not in _lines(player)
            assert "nézőtérről: szép lépés" not in _chat_texts_received(player)
        assert _lines(watcher) == [MARKUP, "nézőtérről: szép lépés", "thanks, good luck"]

        # The spectator mutes the host: the host's lines leave that panel (only), and come back when unmuted.
        watcher.page.click(f"[data-testid=chat-mute][aria-label*='{host.name}']")
        watcher.page.wait_for_selector("[data-testid=chat-unmute]")
        assert _lines(watcher) == ["nézőtérről: szép lépés", "thanks, good luck"]
        _shot(watcher, screenshots, "table-spectator-muted-hu-360")
        assert MARKUP in _lines(guest)
        watcher.page.click("[data-testid=chat-unmute]")
        watcher.page.wait_for_selector("[data-testid=chat-unmute]", state="detached")
        assert _lines(watcher)[0] == MARKUP

        # The panel is a modal sheet: the board is back after Escape, and focus returns to the button.
        _close_chat(host)
        assert host.page.evaluate("document.activeElement.dataset.testid") == "chat-open"
        _shot(host, screenshots, "table-after-chat-360")
        # A visitor who is not signed in reads the history (spectators read both channels) and may not write.
        visitor = Client(browser, live_server_url, PHONE)
        try:
            visitor.goto(match_path)
            visitor.page.wait_for_selector("[data-testid=table]")
            _open_chat(visitor)
            _wait_line(visitor, "thanks, good luck")
            assert _lines(visitor) == [MARKUP, "nézőtérről: szép lépés", "thanks, good luck"]
            assert visitor.page.is_visible("[data-testid=chat-read-only]")
            assert visitor.page.locator("[data-testid=chat-input]").count() == 0
            _shot(visitor, screenshots, "table-visitor-read-only-360")
            assert visitor.errors == [], visitor.errors
        finally:
            visitor.close()
        for client in (host, guest, watcher):
            assert client.errors == [], client.errors
    finally:
        for client in (host, guest, watcher):
            client.close()
