"""The God's Playground table draws the printed numbers from the match's board in
the view: a server whose GP_BOARD_FILE has other numbers than board.toml shows
those (strength tracks, VP, estate rows and their length, raid arrows)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.servers import Daphne, manage, server_env

from .support import DESKTOP, PHONE, Client, start_against_two_bots

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/work/shots/gpboard")

# A valid board unlike the default: 5 spaces in Prussia, another Russian track, 4 VP for the black box,
# the Russians raiding Prussia only.  The patterns match whatever board.toml's values are (calibrated
# or printed), so only the replacements matter here.
REPLACEMENTS = (
    (r'^name = "default"$', 'name = "browser test board"'),
    (r'^prussia = \{ value = \[[^\]]*\], source = "[^"]*" \}$', 'prussia = { value = [2, 3, 3, 6, 7], source = "printed" }'),
    (r'^green = \[\n(?:    .*\n)+?\]$', 'green = { value = [2, 5, 11, 13], source = "printed" }'),  # its strength track
    (r'^(\[enemy_vp\]\n(?:.*\n)*?)black = \{ value = \d+, source = "[^"]*" \}$', r'\1black = { value = 4, source = "printed" }'),
    (r'^green = \{ value = \["[a-z_]+", "[a-z_]+"\], source = "[^"]*" \}$', 'green = { value = ["prussia"], source = "printed" }'),
)
TEST_BOARD = (ROOT / "backend/engines/gods_playground/board.toml").read_text(encoding="utf-8")
for pattern, replacement in REPLACEMENTS:
    TEST_BOARD = re.sub(pattern, replacement, TEST_BOARD, count=1, flags=re.MULTILINE)


@pytest.fixture(scope="module")
def board_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gp-board-server")
    board = tmp / "board.toml"
    board.write_text(TEST_BOARD, encoding="utf-8")
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}", REDIS_URL="", BOT_DELAY="0.05", THROTTLE_SIGNUP="1000/min",
                     THROTTLE_LOGIN="1000/min", DJANGO_PRODUCTION="", DJANGO_DEBUG="0", LOG_LEVEL="WARNING",
                     GP_BOARD_FILE=str(board))
    manage(env, "migrate", "--noinput", "-v0", timeout=600)  # slow on a loaded box
    with Daphne(env, log=tmp / "daphne.log") as server:
        yield f"http://127.0.0.1:{server.port}"


def test_the_table_draws_the_boards_numbers_from_the_view(browser, board_server):
    for took in ("browser test board", "[2, 5, 11, 13]", "[2, 3, 3, 6, 7]", 'black = { value = 4, source = "printed"',
                 '["prussia"]'):
        assert took in TEST_BOARD, took  # every replacement took
    SHOTS.mkdir(parents=True, exist_ok=True)
    client = Client(browser, board_server, DESKTOP)
    try:
        client.signup("gpboard")
        start_against_two_bots(client, "gods_playground")
        page = client.page
        view = next(s["view"] for s in client.states() if s.get("view"))
        assert view["board"]["name"] == "browser test board"
        assert view["board"]["values"]["estate_vp"]["prussia"] == [2, 3, 3, 6, 7]

        prussia = page.locator("[data-testid=board] [data-province=prussia] .gp-estate-vp")
        assert prussia.all_text_contents() == ["2", "3", "3", "6", "7"]
        lithuania = page.locator("[data-testid=board] [data-province=lithuania] .gp-estate-vp")
        assert lithuania.all_text_contents() == ["1", "2", "3", "3", "4", "4", "4"]
        assert page.locator("[data-testid=track-green] .gp-track-steps span").all_text_contents() == ["2", "5", "11", "13"]
        assert page.locator("[data-testid=track-green] .gp-track-now").text_content() == "2"  # round 1
        black = page.locator(".gp-enemy[data-enemy=black]")
        assert "4 VP" in black.text_content()
        green = page.locator(".gp-enemy[data-enemy=green]")
        assert "Raids spread to Royal Prussia" in green.text_content()
        page.screenshot(path=str(SHOTS / "desktop.png"), full_page=True)
        for name, size in (("phone-360", PHONE), ("phone-390", {"width": 390, "height": 844}),
                           ("landscape", {"width": 844, "height": 390})):
            page.set_viewport_size(size)
            page.locator("[data-testid=board]").screenshot(path=str(SHOTS / f"{name}-map.png"))
            page.locator(".gp-enemies").screenshot(path=str(SHOTS / f"{name}-enemies.png"))
        assert client.errors == [], json.dumps(client.errors)
    finally:
        client.close()
