"""Three people sign up, meet in a lobby and play Condottiere to the end in real Chromium, watched by a fourth.

Everything goes through the UI (forms, the live lobby list, the buttons the
table offers). Hidden information is checked on every WebSocket message each
browser received and in each page's DOM.
"""

from __future__ import annotations

import json
import random

import pytest

from .support import (DESKTOP, PHONE, Client, create_lobby, frames_seen, inconsistent_frames, play_to_the_end,
                      watch_frames)

pytestmark = pytest.mark.browser


def _check_messages_hide_others(client: Client, my_seat, other_hands: dict[int, set[str]]) -> int:
    """Every state message is for this viewer only: its own hand, counts for the others, no private events."""
    checked = 0
    for msg in client.states():
        checked += 1
        view = msg["view"]
        assert msg["seat"] == my_seat and view["seat"] == my_seat
        if my_seat is None:
            assert view["hand"] is None and msg["legal_actions"] == []
        for player in view["players"]:
            assert "hand" not in player and "cards" not in player, player
        for line in (view.get("battle") or {}).get("lines", []):
            if line["seat"] != my_seat:
                for card in line["cards"]:
                    assert not (card.get("hidden") and "card" in card), f"face-down card shown: {card}"
        for event in msg["events"]:
            assert event.get("to") is None or my_seat in event["to"], event
    # Another seat's hand, as the list the server would send it in, never appears in any frame, whole state or
    # patch (cards come in several copies, so a list this viewer once held itself proves nothing).
    for raw in client.frames:
        for seat, hands in other_hands.items():
            if seat != my_seat:
                for hand in hands - other_hands.get(my_seat, set()):
                    assert hand not in raw, f"seat {seat}'s hand leaked to seat {my_seat}"
    return checked


def _hands_seen(client: Client) -> set[str]:
    return {json.dumps(s["view"]["hand"], separators=(",", ":")) for s in client.states()
            if s["view"].get("hand") and len(s["view"]["hand"]) >= 3}


def test_three_players_play_a_whole_match_while_a_fourth_watches(browser, live_server_url, screenshots):
    rng = random.Random(20261129)
    alice = Client(browser, live_server_url, PHONE)
    bob = Client(browser, live_server_url, DESKTOP)
    carol = Client(browser, live_server_url, DESKTOP)
    watcher = Client(browser, live_server_url, PHONE)
    players = [alice, bob, carol]
    try:
        for c in players:
            c.signup()
        bob.goto("/")
        carol.goto("/")

        # Alice creates a 3-seat lobby with the Hidden Cards rule through the form.
        page = alice.page
        page.click("[data-testid=create-lobby]")
        lobby_id = create_lobby(alice, 3, check=("Hidden cards",))

        # Bob and Carol see it appear in the live list and join from there.
        for c in (bob, carol):
            row = c.page.locator(f"[data-testid=lobby-row][data-lobby='{lobby_id}']")
            row.wait_for()
            c.page.screenshot(path=str(screenshots / "lobby-list-desktop.png"))
            row.get_by_role("button").click()
            c.page.wait_for_selector("[data-testid=lobby-room]")
        start = page.locator("[data-testid=start]")
        page.wait_for_function("() => !document.querySelector('[data-testid=start]').disabled")
        assert page.locator("[data-testid=seat].taken").count() == 3
        page.screenshot(path=str(screenshots / "lobby-phone.png"), full_page=True)
        bob.page.screenshot(path=str(screenshots / "lobby-desktop.png"))
        start.click()

        for c in players:
            c.page.wait_for_url("**/match/*")
            c.page.wait_for_selector("[data-testid=table]")
        match_path = "/" + alice.page.url.split("/", 3)[3]
        assert all(c.page.url.endswith(match_path) for c in players)
        for c in players:  # whose move it is, painted frame by painted frame, to the end (issue 26)
            watch_frames(c.page)
        # The fourth person, not signed in, finds the match under "Watch live".
        watcher.goto("/")
        watcher.page.locator(f"a[href='{match_path}']").click()
        watcher.page.wait_for_selector("[data-testid=table]")
        assert watcher.page.locator("[data-testid=hand]").count() == 0

        def dom_shows_only_own_view():
            # Each page's cards are exactly what its own latest view holds: its hand, and backs for others' face-down cards.
            for c in players:
                # One atomic read of the page, compared with the message of the version it shows.
                dom = c.page.evaluate("""() => ({
                  version: Number(document.querySelector('[data-testid=table]').dataset.version),
                  hand: [...document.querySelectorAll('[data-testid=hand-card]')].map((e) => e.dataset.card),
                  backs: document.querySelectorAll('[data-testid=line] [data-card=back]').length })""")
                view = next(m["view"] for m in reversed(c.states()) if m["version"] == dom["version"])
                assert dom["hand"] == (view["hand"] or []), (c.name, dom, view["hand"])
                hidden = sum(1 for line in (view["battle"] or {}).get("lines", []) for card in line["cards"] if "card" not in card)
                assert dom["backs"] == hidden

        def mid_match(n):
            if n % 10 == 0:
                dom_shows_only_own_view()
            if n == 8:
                assert alice.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
                assert bob.page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
                alice.page.screenshot(path=str(screenshots / "table-phone.png"))
                alice.page.screenshot(path=str(screenshots / "table-phone-full.png"), full_page=True)
                bob.page.screenshot(path=str(screenshots / "table-desktop.png"))
                watcher.page.screenshot(path=str(screenshots / "table-spectator-phone.png"))

        actions = play_to_the_end(players, rng, timeout=240, after=mid_match)
        assert actions > 8
        watcher.page.wait_for_selector("[data-testid=result]")

        # Screens at the end, and a mid-size look at the table (the result sits above it).
        for c in (alice, bob):
            c.page.evaluate("window.scrollTo(0, 0)")
        alice.page.screenshot(path=str(screenshots / "result-phone.png"))
        bob.page.screenshot(path=str(screenshots / "result-desktop.png"))
        alice.page.locator("[data-testid=board]").scroll_into_view_if_needed()
        alice.page.screenshot(path=str(screenshots / "table-end-phone.png"))
        watcher.page.screenshot(path=str(screenshots / "spectator-result-phone.png"), full_page=True)

        # Every painted frame agreed about whose move it was: the tab title, the status line, the table, the
        # controls; and from the frame the match finished in, nobody was to move anywhere (no "to play" tag).
        for c in players:
            frames = frames_seen(c.page)
            assert any(f["myTurn"] == "yes" for f in frames) and frames[-1]["status"] == "finished"
            assert inconsistent_frames(frames) == [], c.name
        # Everyone ends on the same, final version; the winners agree.
        versions = {c.table_version() for c in players + [watcher]}
        assert len(versions) == 1, versions
        headline = {c.page.text_content("[data-testid=result] h2") for c in [watcher]}
        assert headline and all(h for h in headline)

        seats = {c: c.states()[-1]["seat"] for c in players}
        assert sorted(seats.values()) == [0, 1, 2]
        hands = {seats[c]: _hands_seen(c) for c in players}
        assert all(hands.values()), "each player saw their own hand"
        for c in players:
            assert _check_messages_hide_others(c, seats[c], hands) > 20
        assert _check_messages_hide_others(watcher, None, hands) > 20
        # The DOM shows the player's own cards only: as many as their hand holds.
        for c in players:
            last = c.states()[-1]["view"]
            assert c.page.locator("[data-testid=hand-card]").count() == len(last["hand"] or [])
        for c in players + [watcher]:
            assert c.errors == [], (c.name, c.errors)
    finally:
        for c in players + [watcher]:
            c.close()
