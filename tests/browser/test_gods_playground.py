"""A player opens a God's Playground lobby, adds two bots and plays the whole match through the UI.

Every move is one of the buttons the table shows (staged noble tiles, sealed
bids, grouped actions and their second questions, map tiles); the test never
builds an action itself. Screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .support import DESKTOP, PHONE, WAIT_MS, Client, start_against_two_bots

pytestmark = pytest.mark.browser

_SEEN_JS = """() => {
  const t = document.querySelector('[data-testid=table]');
  const q = (s) => [...document.querySelectorAll(s)].filter((b) => !b.disabled);
  return {
    version: t && t.dataset.version, mine: t && t.dataset.myTurn === 'yes', pending: t && t.dataset.pending,
    stager: !!document.querySelector('[data-testid=stage-submit]'),
    bid: !!document.querySelector('[data-testid=bid-submit]'),
    tiles: q('[data-testid=board] .gp-tile.choosable').length,
    moves: q('[data-testid=gp-move]').map((b) => b.dataset.type),
  };
}"""


def _wait_new_version(page, version: str, timeout: float = WAIT_MS) -> None:
    try:
        page.wait_for_function(
            "v => { const t = document.querySelector('[data-testid=table]'); return !t || t.dataset.version !== v; }",
            arg=version, timeout=timeout)
    except PlaywrightTimeout:  # say what the table showed, so a failure on CI can be read without a rerun
        raise AssertionError(("no new version after the move", version, page.evaluate(_SEEN_JS),
                              page.evaluate("() => document.querySelector('[data-testid=status]')?.textContent"),
                              page.evaluate("() => document.querySelector('[data-testid=dock]')?.textContent")))


def _stage_nobles(page, rng: random.Random) -> None:
    """Lay a tile from the hand on every slot (each goes to the target slot, which then moves on), take one
    back from its slot and lay another there, then send all six in one action. (Round 1's hand holds twelve
    tiles, so it is not empty when all six are laid.)"""
    while page.locator("[data-testid=stage-slot]:not(.set)").count():
        tiles = page.locator("[data-testid=hand-tile]:enabled")
        tiles.nth(rng.randrange(tiles.count())).click()
    assert page.locator("[data-testid=stage-slot].set").count() == 6
    # Taking a tile back: choose a slot, choose it again, and its tile is in hand again.
    slot = page.locator("[data-testid=stage-slot]").nth(rng.randrange(6))
    slot.click()
    assert slot.get_attribute("aria-pressed") == "true"
    slot.click()
    assert page.locator("[data-testid=stage-slot].set").count() == 5
    assert page.locator("[data-testid=stage-submit]").is_disabled()  # five of six laid out
    tiles = page.locator("[data-testid=hand-tile]:enabled")
    tiles.nth(rng.randrange(tiles.count())).click()
    page.click("[data-testid=stage-submit]")
    # One action: done when the table no longer asks this seat.
    page.wait_for_function("""() => { const t = document.querySelector('[data-testid=table]');
      return t.dataset.myTurn !== 'yes' || t.dataset.pending !== 'nobles'; }""", timeout=20000)


def _answer_chooser(page, rng: random.Random) -> None:
    if page.locator("[data-testid=set-item]").count():
        items = page.locator("[data-testid=set-item]")
        items.nth(rng.randrange(items.count())).check()
        page.click("[data-testid=set-confirm]")
    else:
        choices = page.locator("[data-testid=choice]")
        choices.nth(rng.randrange(choices.count())).click()


def take_turn(page, rng: random.Random, pass_bias: float = 0.3, on_choice=None) -> str | None:
    """Act once if the table says it is this player's move; returns what was done.

    `on_choice()` is called while a move's second question is open, before it is answered."""
    s = page.evaluate(_SEEN_JS)
    if not s["mine"] or page.locator("[data-testid=status] [data-testid=sending]").count():
        return None
    version = s["version"]
    if s["stager"]:
        _stage_nobles(page, rng)
        return "nobles"
    if s["bid"]:
        for _ in range(rng.randrange(3)):
            plus = page.locator("[data-testid=bid-more]")
            if plus.is_enabled():
                plus.click()
        page.click("[data-testid=bid-submit]")
        _wait_new_version(page, version)
        return "bid"
    if s["tiles"] and rng.random() < 0.5:
        tile = page.locator("[data-testid=board] .gp-tile.choosable").nth(rng.randrange(s["tiles"]))
        if rng.random() < 0.5:
            tile.click()
        else:  # keyboard: the choosable tiles are focusable buttons
            tile.focus()
            page.keyboard.press("Enter")
        _wait_new_version(page, version)
        return "map"
    moves = s["moves"]
    if not moves:
        return None
    others = [i for i, t in enumerate(moves) if t != "pass"]
    pick = rng.choice(others) if others and (len(others) == len(moves) or rng.random() > pass_bias) else moves.index("pass")
    page.locator("[data-testid=gp-move]:enabled").nth(pick).click()
    page.wait_for_function(
        """v => document.querySelector('.sheet') || document.querySelector('[data-testid=table]')?.dataset.version !== v""",
        arg=version, timeout=WAIT_MS)
    if page.locator(".sheet").count():
        if on_choice:
            on_choice()
        _answer_chooser(page, rng)
        _wait_new_version(page, version)
    return moves[pick]


def _check_hidden_tiles(client: Client) -> bool:
    """During the secret placement the DOM shows others' tiles only as backs, as many as the view counts."""
    dom = client.page.evaluate("""() => ({ version: Number(document.querySelector('[data-testid=table]').dataset.version),
      backs: document.querySelectorAll('.gp-nobles .gp-tile-chip.back').length })""")
    view = next((m["view"] for m in reversed(client.states()) if m["version"] == dom["version"]), None)
    if view is None or (view["pending"] or {}).get("kind") != "nobles":
        return False
    me = view["you"]
    assert dom["backs"] == sum(n for s, n in enumerate(view["nobles_placed"]) if s != me), (dom, view["nobles_placed"])
    for msg in client.states():  # no other seat's placements reach this browser
        assert all(e.get("to") in (None, [me]) for e in msg["events"])
        assert set(msg["view"]) >= {"your_nobles"} and "secret" not in msg["view"]
    return True


def final_seat(client: Client) -> int:
    return client.states()[-1]["seat"]


def _seat_label(seat: dict) -> str:
    return seat["user"]["username"] if seat.get("user") else f"Bot {seat['seat'] + 1} ({seat['bot']})"


def test_one_player_and_two_bots_play_gods_playground_to_the_end(browser, live_server_url, screenshots):
    rng = random.Random(5)
    player = Client(browser, live_server_url, PHONE)
    page = player.page
    records = []  # the match record as this page fetched it
    page.on("response", lambda r: records.append(r) if re.search(r"/api/matches/\d+/$", r.url) else None)
    try:
        player.signup("gp")
        start_against_two_bots(player, "gods_playground")
        page.wait_for_selector("[data-testid=table][data-game=gods_playground]")

        done: dict[str, int] = {}
        shots = set()
        hidden_checked = False
        deadline = time.monotonic() + 150
        while not page.locator("[data-testid=result]").count():
            assert time.monotonic() < deadline, f"the match did not finish ({done})"
            s = page.evaluate(_SEEN_JS)
            if s["stager"] and not hidden_checked:
                hidden_checked = _check_hidden_tiles(player)
            if s["stager"] and "nobles" not in shots:
                shots.add("nobles")
                # The decision is docked at the bottom of the screen: its top and first tile in hand are in sight
                # wherever the player has scrolled the page, here halfway down the table.
                page.evaluate("scrollTo(0, document.documentElement.scrollHeight / 2)")
                page.wait_for_function("""() => { const r = document.querySelector('[data-testid=noble-stager]').getBoundingClientRect();
                  const c = document.querySelector('[data-testid=hand-tile]').getBoundingClientRect();
                  return scrollY > 0 && r.top >= 0 && r.top < innerHeight && c.top >= r.top && c.bottom <= innerHeight; }""",
                                       timeout=5000)
                page.screenshot(path=str(screenshots / "gp-nobles-phone.png"))
                page.screenshot(path=str(screenshots / "gp-nobles-phone-full.png"), full_page=True)
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            if s["pending"] == "special" and s["mine"] and "special" not in shots:
                shots.add("special")
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
                page.screenshot(path=str(screenshots / "gp-table-phone.png"))
                page.screenshot(path=str(screenshots / "gp-table-phone-full.png"), full_page=True)
                page.set_viewport_size(DESKTOP)
                page.wait_for_timeout(100)
                assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
                page.screenshot(path=str(screenshots / "gp-table-desktop.png"))
                page.set_viewport_size(PHONE)
                # The same seat in a second, dark-scheme tab (a fresh context: the scheme applies from the first paint).
                dark = browser.new_context(viewport=DESKTOP, color_scheme="dark", storage_state=player.context.storage_state())
                tab = dark.new_page()
                tab.on("pageerror", lambda e: player.errors.append(f"dark tab: {e}"))
                tab.on("console", lambda m: player.errors.append(f"dark tab: {m.text}") if m.type == "error" else None)
                tab.goto(page.url)
                tab.wait_for_selector("[data-testid=table][data-game=gods_playground]")
                tab.screenshot(path=str(screenshots / "gp-table-desktop-dark.png"))
                dark.close()
                # Someone not signed in watches: the same table, no controls, no secrets of its own.
                watcher = Client(browser, live_server_url, PHONE)
                watcher.goto("/" + page.url.split("/", 3)[3])
                watcher.page.wait_for_selector("[data-testid=table][data-game=gods_playground]")
                assert watcher.page.locator("[data-testid=status] [data-testid=watching]").count() == 1
                assert watcher.page.locator("[data-testid=gp-move], [data-testid=noble-stager]").count() == 0
                assert watcher.states() and all(m["legal_actions"] == [] and m["view"]["you"] is None and "your_nobles" not in m["view"]
                           for m in watcher.states())
                assert not watcher.errors, watcher.errors
                watcher.close()
            what = take_turn(page, rng)
            if what:
                done[what] = done.get(what, 0) + 1
            else:
                page.wait_for_timeout(40)

        assert hidden_checked
        # One secret layout a round (six tiles in one action), each confirmed to this seat alone.
        mine = [e for m in player.states() for e in m["events"] if e["kind"] == "noble_secret"]
        assert len(mine) == 4 and all(e["to"] == [final_seat(player)] for e in mine), (len(mine), done)
        assert all(len(e["params"]["tiles"]) == 6 for e in mine)
        # The socket's status "finished" made the page fetch the record again (the result's source for every game).
        for _ in range(50):
            if records and records[-1].json()["status"] == "finished":
                break
            page.wait_for_timeout(100)
        assert records and records[-1].json()["status"] == "finished", [r.json()["status"] for r in records]
        # The headline names the engine's winner (its tie-breaks), as the match record has it.
        match_id = page.url.rstrip("/").rsplit("/", 1)[1]
        record = page.request.get(f"{live_server_url}/api/matches/{match_id}/").json()
        winner = next(x for x in record["seats"] if x["seat"] == record["result"]["winners"][0])
        headline = page.locator("[data-testid=result] h2").inner_text()
        assert headline == ("You win!" if winner.get("user") and winner["user"]["username"] == player.name
                            else f"{_seat_label(winner)} wins"), (headline, record["result"])
        shown = [int(t.split()[0]) for t in page.locator("[data-testid=final-vp]").all_inner_texts()]
        assert sorted(shown) == sorted(record["result"]["scores"])
        page.screenshot(path=str(screenshots / "gp-result-phone.png"), full_page=False)
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=str(screenshots / "gp-result-desktop.png"))
        final = player.states()[-1]
        assert final["view"]["over"] and final["legal_actions"] == []
        assert "Game over" in page.locator("[data-testid=log]").inner_text()
        assert not player.errors, player.errors
        print("actions through the UI:", json.dumps(done, sort_keys=True))
    finally:
        player.close()
