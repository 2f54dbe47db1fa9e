"""Phone first at the table (issue 10): on a 360 x 740 phone, when it is your turn, the hand and the pass button
(God's Playground: the decision's first control) are on screen without scrolling, the page never scrolls sideways,
no visible text on the table is smaller than 12 px (SVG text by its drawn size), the full log is one tap away in a
dialog that holds and gives back focus, and after a move keyboard focus stays on the table's controls."""

from __future__ import annotations

import pytest

from .support import (
    PHONE,
    Client,
    add_bot,
    create_lobby,
    horizontal_overflow,
    in_view,
    small_text,
    start_against_two_bots,
)

pytestmark = pytest.mark.browser

_VERSION_CHANGED = "v => document.querySelector('[data-testid=table]').dataset.version !== v"
_FOCUS_IN_DOCK = "() => !!(document.activeElement && document.activeElement.closest('[data-testid=dock]'))"
_FOCUS_ON_CONTROL = """() => { const a = document.activeElement;
  return !!(a && a.closest('[data-testid=dock]') && a.matches('button:not(:disabled), input:not(:disabled)')); }"""


def _condottiere_battle_turn(page) -> None:
    """Answer whatever the table asks (a region for the battle, keep or discard the hand) until this seat is to
    play in a battle; every answer is a control on screen."""
    for _ in range(100):
        page.wait_for_selector("[data-testid=table][data-my-turn=yes]", timeout=30000)
        table = page.locator("[data-testid=table]")
        if table.get_attribute("data-phase") == "battle":
            return
        version = table.get_attribute("data-version")
        for sel in ("[data-testid=region-choice]:enabled", "[data-testid=move-keep-hand]:enabled",
                    "[data-testid=keep-confirm]:enabled", "[data-testid=move-legate-off]:enabled"):
            if page.locator(sel).count():
                page.locator(sel).first.click()
                break
        page.wait_for_function(_VERSION_CHANGED, arg=version)
    pytest.fail("never reached a battle turn")


def _assert_phone_layout(client: Client, first: str, second: str | None) -> None:
    page = client.page
    assert page.evaluate("scrollY") == 0, "the check is about the page as it opens, unscrolled"
    assert in_view(page, first), f"{first} is not on screen without scrolling"
    if second:
        assert in_view(page, second), f"{second} is not on screen without scrolling"
    assert horizontal_overflow(page) == 0
    assert small_text(page) == []


def _log_sheet_holds_and_returns_focus(page) -> None:
    """The last event's line opens the whole log in a modal <dialog>; Tab stays inside it; Escape closes it and
    focus is back on the line."""
    page.locator("[data-testid=last-event]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog[data-testid=log-sheet][open] [data-testid=log-full]", state="attached")
    assert page.evaluate("!!document.activeElement.closest('dialog[open]')")
    for _ in range(4):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('dialog[open]')"), "focus left the open dialog"
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[data-testid=log-sheet]", state="detached")
    assert page.evaluate("document.activeElement.dataset.testid") == "last-event"


@pytest.mark.parametrize("seats, size", [(3, PHONE), (6, PHONE), (3, {"width": 390, "height": 844}),
                                         (3, {"width": 844, "height": 390})], ids=["360", "360-6", "390", "landscape"])
def test_condottiere_turn_fits_a_phone_and_focus_stays_on_the_controls(browser, live_server_url, seats, size,
                                                                        screenshots):
    client = Client(browser, live_server_url, size)
    try:
        client.signup("phone")
        create_lobby(client, seats)
        for _ in range(seats - 1):
            add_bot(client)
        page = client.page
        page.click("[data-testid=start]")
        page.wait_for_url("**/match/*")
        _condottiere_battle_turn(page)
        page.evaluate("scrollTo(0, 0)")
        _assert_phone_layout(client, "[data-testid=hand-card]", "[data-testid=move-pass]")
        page.screenshot(path=str(screenshots / f"condottiere-turn-{seats}-{size['width']}x{size['height']}.png"))
        assert page.locator("[data-testid=last-event]").inner_text().strip()
        _log_sheet_holds_and_returns_focus(page)

        # Keyboard: a card played with Enter; focus stays in the dock, and is on a live control when this seat
        # acts again (the battle goes on, or the next question).
        card = page.locator("[data-testid=hand-card]:enabled:not([data-card=scarecrow])").first
        card.focus()
        version = client.table_version()
        page.keyboard.press("Enter")
        page.wait_for_function(_VERSION_CHANGED, arg=str(version))
        page.wait_for_function(_FOCUS_IN_DOCK)
        page.wait_for_selector("[data-testid=table][data-my-turn=yes]", timeout=30000)
        page.wait_for_function(_FOCUS_ON_CONTROL)
        assert client.errors == []
    finally:
        client.close()


@pytest.mark.parametrize("locale", ["en-US", "hu-HU"])
def test_gods_playground_decision_fits_a_phone_and_focus_stays_on_the_controls(browser, live_server_url, locale):
    client = Client(browser, live_server_url, PHONE, locale=locale)
    try:
        client.signup("gphone")
        start_against_two_bots(client, "gods_playground")
        page = client.page
        page.wait_for_selector("[data-testid=table][data-my-turn=yes] [data-testid=dock] button:enabled:not([data-testid=dock-fold])", timeout=30000)
        page.evaluate("scrollTo(0, 0)")
        first = "[data-testid=dock] button:not([disabled]):not([data-testid=dock-fold])"
        _assert_phone_layout(client, first, None)
        # The decision and the board together: some of the map shows between the status and the dock.
        assert page.evaluate("""() => { const m = document.querySelector('[data-testid=board]').getBoundingClientRect();
          const d = document.querySelector('[data-testid=dock]').getBoundingClientRect();
          return Math.min(m.bottom, d.top) - Math.max(m.top, 0) > 120; }""")
        # The decision folds down to a bar (more board in sight) and back.
        dock_top = lambda: page.evaluate("document.querySelector('[data-testid=dock]').getBoundingClientRect().top")
        open_top = dock_top()
        page.click("[data-testid=dock-fold]")
        assert page.locator(first).count() == 0 or not page.locator(first).first.is_visible()
        assert dock_top() > open_top + 100
        page.click("[data-testid=dock-fold]")
        assert in_view(page, first)
        # Names are whole somewhere on the table: no "Bot 1 (heu…" anywhere.
        assert "…" not in page.locator("[data-testid=table]").inner_text()
        _log_sheet_holds_and_returns_focus(page)

        # The starting estates: a province chosen with Enter; focus stays in the dock.
        button = page.locator("[data-testid=dock] [data-testid=gp-move]:enabled").first
        button.focus()
        version = client.table_version()
        page.keyboard.press("Enter")
        page.wait_for_function(_VERSION_CHANGED, arg=str(version))
        page.wait_for_function(_FOCUS_IN_DOCK)
        page.wait_for_selector("[data-testid=table][data-my-turn=yes] [data-testid=dock] button:enabled:not([data-testid=dock-fold])", timeout=30000)
        page.wait_for_function(_FOCUS_ON_CONTROL)
        assert client.errors == []
    finally:
        client.close()
