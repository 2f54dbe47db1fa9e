"""The replay screen on a phone (360 x 740): a finished Condottiere and a finished God's Playground match
stepped through with the buttons, the arrow keys and the slider, the log's current step marked, and the
player's own view beside the public one. The matches are played through the services by the engines'
bots for every seat (one of them the signed-in user's), so the screen replays what the server stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.servers import manage

from .support import DESKTOP, PHONE, Client, horizontal_overflow, small_text

pytestmark = pytest.mark.browser

SHOTS = Path("/work/shots/replay")

# Run by `manage.py shell` against the server's database: one finished match per game for the user, and one
# still under way. Prints {"condottiere": id, "gods_playground": id, "active": id}.
PLAY = """
import json, random
from django.contrib.auth import get_user_model
from backend.engines import get_engine
from backend.matches import services, store
from backend.matches.models import Match

user = get_user_model().objects.get(username=%r)
out = {}
for game, seed in (("condottiere", 4), ("gods_playground", 3)):
    engine, rng = get_engine(game), random.Random(seed)
    match = services.create_match(game, {}, [user, "heuristic", "random"], seed, True)
    version = 0
    while True:
        m = Match.objects.get(pk=match.pk)
        if m.status != "active":
            break
        state = store.read_state(m.pk)  # the row's state is that of a version every few (store.py)
        seat = engine.to_move(state)[0]
        action = engine.bots["heuristic"](engine.view(state, seat), engine.legal_actions(state, seat), rng)
        services.apply_action(match.pk, seat, version, action, f"t{version}")
        version += 1
    out[game] = match.pk
out["active"] = services.create_match("condottiere", {}, [user, "heuristic", "random"], 9, True).pk
print(json.dumps(out))
"""


def _step(page) -> int:
    return int(page.get_attribute("[data-testid=replay]", "data-step") or -1)


def _await_step(page, step: int) -> None:
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay]')?.dataset.step === '{step}'"
                           " && !!document.querySelector('[data-testid=table]')")
    # The log marks the same step: its lines, or the start line at step 0.
    marked = page.locator("[data-testid=replay-log] li[aria-current=step]")
    assert marked.count() >= 1
    if step:
        assert {marked.nth(i).get_attribute("data-step") for i in range(marked.count())} == {str(step)}


def _phone_checks(page) -> None:
    assert horizontal_overflow(page) == 0
    assert small_text(page, "[data-testid=replay]") == []


def test_replays_step_through_finished_matches_on_a_phone(browser, managed_server):
    base, env = managed_server
    SHOTS.mkdir(parents=True, exist_ok=True)
    client = Client(browser, base, PHONE)
    try:
        name = client.signup("replayer")
        ids = json.loads(manage(env, "shell", "-c", PLAY % name, timeout=600).strip().splitlines()[-1])
        page = client.page

        # From the finished-matches list to the replay of the Condottiere match.
        client.goto("/matches")
        page.click("[data-tab=finished]")
        page.click(f"[data-testid=match-row] a[href='/match/{ids['condottiere']}/replay']")
        page.wait_for_url(f"**/match/{ids['condottiere']}/replay")
        _await_step(page, 0)
        assert page.locator("[data-testid=watching]").count() == 1  # the public view: no hand
        steps = int(page.get_attribute("[data-testid=replay-slider]", "max"))
        assert steps > 20
        page.screenshot(path=str(SHOTS / "condottiere-start.png"))
        page.click("[data-testid=replay-forward]")
        _await_step(page, 1)
        page.keyboard.press("ArrowRight")
        _await_step(page, 2)
        page.keyboard.press("ArrowLeft")
        _await_step(page, 1)
        page.locator("[data-testid=replay-slider]").fill(str(steps // 2))
        _await_step(page, steps // 2)
        page.screenshot(path=str(SHOTS / "condottiere-middle.png"))
        page.screenshot(path=str(SHOTS / "condottiere-middle-full.png"), full_page=True)
        _phone_checks(page)
        # The player's own view at the same step: their hand, read-only.
        page.click("[data-testid=replay-mine]")
        _await_step(page, steps // 2)
        assert page.get_attribute("[data-testid=replay]", "data-seat") == "0"
        assert page.locator("[data-testid=hand]").count() == 1 and page.locator("[data-testid=watching]").count() == 0
        assert page.locator("[data-testid=hand-card]:not([aria-disabled=true]):not([disabled])").count() == 0
        assert "seat=0" in page.url and f"step={steps // 2}" in page.url
        page.screenshot(path=str(SHOTS / "condottiere-own-view.png"))
        # A tap on a log line goes to its step; the last button to the end, where the result stands.
        line = page.locator("[data-testid=replay-log] li[data-step='3'] button").first
        line.click()
        _await_step(page, 3)
        page.click("[data-testid=replay-last]")
        _await_step(page, steps)
        assert page.locator("[data-testid=replay-forward]").is_disabled()
        page.screenshot(path=str(SHOTS / "condottiere-end.png"))
        page.click("[data-testid=replay-first]")
        _await_step(page, 0)
        assert page.locator("[data-testid=replay-back]").is_disabled()
        page.set_viewport_size(DESKTOP)
        page.locator("[data-testid=replay-slider]").fill(str(steps // 2))
        _await_step(page, steps // 2)
        page.screenshot(path=str(SHOTS / "condottiere-desktop.png"))
        page.set_viewport_size(PHONE)

        # From the finished match's result card to the God's Playground replay.
        client.goto(f"/match/{ids['gods_playground']}")
        page.click("[data-testid=result] [data-testid=replay-link]")
        page.wait_for_url(f"**/match/{ids['gods_playground']}/replay")
        _await_step(page, 0)
        steps = int(page.get_attribute("[data-testid=replay-slider]", "max"))
        assert steps > 100
        page.locator("[data-testid=replay-slider]").fill(str(steps // 3))
        _await_step(page, steps // 3)
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        _await_step(page, steps // 3 + 3)
        page.screenshot(path=str(SHOTS / "gods-playground-middle.png"))
        page.screenshot(path=str(SHOTS / "gods-playground-middle-full.png"), full_page=True)
        _phone_checks(page)
        page.click("[data-testid=replay-mine]")
        _await_step(page, steps // 3 + 3)
        page.screenshot(path=str(SHOTS / "gods-playground-own-view.png"))
        page.click("[data-testid=replay-last]")
        _await_step(page, steps)
        page.screenshot(path=str(SHOTS / "gods-playground-end.png"), full_page=True)
        # On a wide screen the log stands beside the board.
        page.set_viewport_size(DESKTOP)
        page.keyboard.press("Home")
        _await_step(page, 0)
        page.keyboard.press("End")
        _await_step(page, steps)
        side, table = (page.locator(s).bounding_box() for s in (".replay-side", ".replay-table"))
        assert side["x"] >= table["x"] + table["width"] - 1
        page.screenshot(path=str(SHOTS / "gods-playground-desktop.png"))
        page.set_viewport_size(PHONE)

        # A match still under way is not replayed: the screen sends the visitor to watch it live.
        client.goto(f"/match/{ids['active']}/replay")
        page.wait_for_selector("[data-testid=watch-live]")
        page.screenshot(path=str(SHOTS / "still-active.png"))

        # In Hungarian too.
        page.click("[data-testid=language]")
        page.wait_for_function("() => document.documentElement.lang === 'hu'")
        client.goto(f"/match/{ids['condottiere']}/replay?step=5")
        _await_step(page, 5)
        assert "lépés" in page.text_content("[data-testid=replay-count]")
        page.screenshot(path=str(SHOTS / "condottiere-hu.png"))
        assert client.errors == []
    finally:
        client.close()
