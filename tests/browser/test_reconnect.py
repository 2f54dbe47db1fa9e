"""A player whose connection drops sees "reconnecting", and on return the current position, without a reload."""

from __future__ import annotations

import random

import pytest

from .support import DESKTOP, PHONE, Client, add_bot, create_lobby, take_turn

pytestmark = pytest.mark.browser

# Chromium reports each refused reconnection attempt while offline; those are the point of this test.
EXPECTED_OFFLINE = ("WebSocket connection to", "ERR_INTERNET_DISCONNECTED")


def _start_match_with_a_bot(alice: Client, bob: Client) -> None:
    page = alice.page
    lobby_id = create_lobby(alice, 3)
    add_bot(alice)
    bob.goto(f"/lobby/{lobby_id}")
    bob.page.click("[data-testid=join]")
    page.wait_for_function("() => !document.querySelector('[data-testid=start]').disabled")
    page.click("[data-testid=start]")
    for c in (alice, bob):
        c.page.wait_for_selector("[data-testid=table]")


def test_dropped_connection_shows_reconnecting_then_the_current_position(browser, live_server_url, screenshots):
    rng = random.Random(7)
    alice = Client(browser, live_server_url, PHONE)
    bob = Client(browser, live_server_url, DESKTOP)
    try:
        alice.signup()
        bob.signup()
        _start_match_with_a_bot(alice, bob)

        # Play until it is Bob's move and not Alice's, so the table will change while she is away.
        for _ in range(400):
            # In a battle one seat moves at a time, so nothing else changes the table until Bob acts.
            if (bob.page.get_attribute("[data-testid=table]", "data-my-turn") == "yes"
                    and bob.page.get_attribute("[data-testid=table]", "data-phase") == "battle"
                    and alice.page.get_attribute("[data-testid=table]", "data-my-turn") == "no"):
                break
            if not (take_turn(alice, rng, pass_bias=0.2) or take_turn(bob, rng, pass_bias=0.2)):
                alice.page.wait_for_timeout(50)
        else:
            pytest.fail("Bob never had the move alone")
        alice.context.set_offline(True)
        alice.page.evaluate("() => { for (const s of window.__sockets) s.ws.close(); }")
        before = alice.table_version()
        banner = alice.page.get_by_test_id("connection")
        banner.wait_for()
        assert "reconnecting" in banner.text_content().lower()
        alice.page.screenshot(path=str(screenshots / "reconnecting-phone.png"))

        assert take_turn(bob, rng, pass_bias=0.0)
        bob_version = bob.table_version()
        assert bob_version > before
        assert alice.table_version() == before, "an offline page cannot have heard about Bob's move"

        alice.context.set_offline(False)
        banner.wait_for(state="detached")
        alice.page.wait_for_function(
            "v => Number(document.querySelector('[data-testid=table]').dataset.version) >= v", arg=bob_version)
        # The right position: the same version as Bob, and Alice's own hand as the server sends it now.
        # (The table first: a bot's move may arrive between the two reads, never shown before it is received.)
        shown_version = alice.table_version()
        last = alice.states()[-1]
        assert last["version"] >= shown_version >= bob_version
        hand = last["view"]["hand"] or []
        shown = alice.page.locator("[data-testid=hand-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        assert shown == hand
        # And she hears what comes next: a bot may move on after Bob, and her table follows his.
        alice.page.wait_for_function(
            "v => Number(document.querySelector('[data-testid=table]').dataset.version) >= v", arg=bob.table_version())

        unexpected = [e for e in alice.errors if not any(s in e for s in EXPECTED_OFFLINE)]
        assert unexpected == [] and bob.errors == []
    finally:
        alice.close()
        bob.close()
