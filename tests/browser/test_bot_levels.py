"""The lobby's bot levels in a real Chromium: kezdő / haladó / mester, each with its
line, haladó chosen unless the host picks another; the seat shows the level chosen."""

from __future__ import annotations

import pytest

from .support import DESKTOP, PHONE, Client, create_lobby

WORDS = {
    "en-US": (["beginner", "advanced", "master"], "Thinks about a second a move"),
    "hu-HU": (["kezdő", "haladó", "mester"], "Lépésenként egy másodpercig gondolkodik"),
}


@pytest.mark.parametrize("locale,viewport", [("en-US", DESKTOP), ("hu-HU", PHONE)])
def test_the_host_seats_a_bot_at_the_level_chosen(browser, live_server_url, screenshots, locale, viewport):
    names, master_line = WORDS[locale]
    host = Client(browser, live_server_url, viewport, locale=locale)
    try:
        host.signup()
        page = host.page
        create_lobby(host, 3)
        tiles = page.locator("[data-testid=bot-level]")
        assert [tiles.nth(i).get_attribute("data-level") for i in range(tiles.count())] == \
            ["beginner", "advanced", "master"]
        assert [tiles.nth(i).locator(".tc-name").text_content() for i in range(3)] == names
        assert all(tiles.nth(i).locator(".muted").text_content().strip() for i in range(3))
        assert master_line in tiles.nth(2).text_content()
        checked = page.locator("[data-testid=bot-level] input:checked")
        assert checked.get_attribute("value") == "advanced"  # the default

        page.locator("[data-testid=bot-level][data-level=master]").click()
        assert checked.get_attribute("value") == "master"
        page.screenshot(path=str(screenshots / f"lobby-bot-levels-{locale}.png"), full_page=True)
        page.click("[data-testid=add-bot]")
        page.wait_for_function("() => document.querySelectorAll('[data-testid=seat].taken').length === 2")
        assert page.locator("[data-testid=seat].taken .tag").filter(has_text=names[2]).count() == 1
        page.locator("[data-testid=bot-level][data-level=beginner]").click()
        page.click("[data-testid=add-bot]")
        page.wait_for_function("() => document.querySelectorAll('[data-testid=seat].taken').length === 3")
        assert page.locator("[data-testid=seat].taken .tag").filter(has_text=names[0]).count() == 1
        assert host.errors == [], host.errors
    finally:
        host.close()
