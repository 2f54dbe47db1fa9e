"""Every match finishes (issue 9), in real Chromium at phone size: time controls chosen in the lobby, clocks
counting down on the table, an absent player's countdown and the takeover, taking the seat back, resign and
abort from the match menu, and a rematch two players accept.

The absence test runs its own server with a short ABSENT_GRACE_S so the grace passes within the test.
"""

from __future__ import annotations

import re

import pytest

from tests.support.servers import Daphne, manage, server_env

from .support import DESKTOP, PHONE, Client, add_bot, join_lobby, new_lobby, start_match

pytestmark = pytest.mark.browser

SHOTS = "/work/shots/clocks"


def _shot(client: Client, name: str, full: bool = False) -> None:
    import os

    os.makedirs(SHOTS, exist_ok=True)
    client.page.screenshot(path=f"{SHOTS}/{name}.png", full_page=full)


def _new_lobby(client: Client, seats: int, tc: str = "none") -> str:
    return new_lobby(client, seats, tc=tc)


_join, _start = join_lobby, start_match


def _my_seat(client: Client) -> int:
    return next(s["seat"] for s in reversed(client.states()) if s.get("seat") is not None)


def _open_menu(client: Client) -> None:
    client.page.click("[data-testid=match-menu]")
    client.page.wait_for_selector("dialog[data-testid=menu][open]")


def test_lobby_time_control_is_chosen_checked_and_shown(browser, live_server_url):
    host = Client(browser, live_server_url, PHONE)
    other = Client(browser, live_server_url, DESKTOP)
    try:
        host.signup("host")
        other.signup("other")
        other.goto("/")
        page = host.page
        host.goto("/lobbies/new")
        # A custom bank out of bounds is refused with a sentence next to the field, and nothing is created.
        page.locator("label.tc-choice[data-tc=custom]").click()
        page.fill("[data-testid=tc-bank]", "500")
        page.click("button[type=submit]")
        error = page.locator("#tc-bank-err")
        error.wait_for()
        assert "180" in error.text_content()
        assert page.get_attribute("[data-testid=tc-bank]", "aria-invalid") == "true"
        assert "/lobbies/new" in page.url
        _shot(host, "new-lobby-custom-error-phone-en", full=True)
        # The 3 min + 10 s preset: the room and the open list say so.
        page.locator("label.tc-choice[data-tc=blitz]").click()
        page.click("button[type=submit]")
        page.wait_for_selector("[data-testid=lobby-room]")
        lobby_id = page.get_attribute("[data-testid=lobby-room]", "data-lobby")
        assert page.text_content("[data-testid=lobby-room] [data-testid=time-control]").strip().endswith("3 min + 10 s per move")
        _shot(host, "lobby-room-blitz-phone-en")
        row = other.page.locator(f"[data-testid=lobby-row][data-lobby='{lobby_id}'] [data-testid=time-control]")
        row.wait_for()
        assert "3 min + 10 s" in row.text_content()
        # The same in Hungarian.
        hu = Client(browser, live_server_url, PHONE, locale="hu-HU")
        try:
            hu.signup("magyar")
            hu.goto(f"/lobby/{lobby_id}")
            hu.page.wait_for_selector("[data-testid=lobby-room] [data-testid=time-control]")
            assert "3 perc + 10 mp lépésenként" in hu.page.text_content("[data-testid=lobby-room] [data-testid=time-control]")
            assert not hu.errors, hu.errors
        finally:
            hu.close()
        assert not host.errors and not other.errors, (host.errors, other.errors)
    finally:
        host.close()
        other.close()


def test_a_realtime_clock_counts_down_on_the_table(browser, live_server_url):
    me = Client(browser, live_server_url, PHONE)
    try:
        me.signup("clock")
        _new_lobby(me, 3, "blitz")
        add_bot(me)
        add_bot(me)
        _start(me)
        page = me.page
        # Every seat has a clock in the strip; mine runs when it is my move (bots' seats have no running clock).
        page.wait_for_function("() => document.querySelectorAll('[data-testid=strip-seat] [data-testid=clock]').length === 3")
        page.wait_for_selector("[data-testid=table][data-my-turn=yes]")
        seat = _my_seat(me)
        clock = page.locator(f"[data-testid=strip-seat][data-seat='{seat}'] [data-testid=clock]")
        assert "clock-on" in clock.get_attribute("class")
        first = clock.text_content()
        assert re.fullmatch(r"[23]:\d\d", first), first
        page.wait_for_function(
            "([sel, was]) => document.querySelector(sel).textContent !== was",
            arg=[f"[data-testid=strip-seat][data-seat='{seat}'] [data-testid=clock]", first])
        later = clock.text_content()
        as_s = [int(m) * 60 + int(s) for m, s in (x.split(":") for x in (first, later))]
        assert as_s[1] < as_s[0], (first, later)
        # The players panel shows the same clock beside the name.
        assert page.locator(f"[data-testid=player][data-seat='{seat}'] [data-testid=clock]").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        _shot(me, "table-clock-phone-en")
        for name, size in (("desktop", DESKTOP), ("390x844", {"width": 390, "height": 844}),
                           ("landscape", {"width": 740, "height": 360})):
            page.set_viewport_size(size)
            _shot(me, f"table-clock-{name}-en")
        page.set_viewport_size(PHONE)
        # A spectator's phone in Hungarian: the same clocks, the running one highlighted.
        match_id = page.url.rsplit("/", 1)[1]
        hu = Client(browser, live_server_url, PHONE, locale="hu-HU")
        try:
            hu.goto(f"/match/{match_id}")
            hu.page.wait_for_function("() => document.querySelectorAll('[data-testid=strip-seat] [data-testid=clock]').length === 3")
            hu.page.wait_for_selector("[data-testid=table]")
            _shot(hu, "table-clock-phone-hu")
            hu.page.set_viewport_size(DESKTOP)
            _shot(hu, "table-clock-desktop-hu")
            assert not hu.errors, hu.errors
        finally:
            hu.close()
        assert not me.errors, me.errors
    finally:
        me.close()


def test_resign_from_the_table_and_the_bot_plays_on(browser, live_server_url):
    me = Client(browser, live_server_url, PHONE)
    try:
        me.signup("resign")
        _new_lobby(me, 3)
        add_bot(me)
        add_bot(me)
        _start(me)
        page = me.page
        seat = _my_seat(me)
        _open_menu(me)
        _shot(me, "menu-phone-en")
        page.click("[data-testid=resign]")
        page.wait_for_selector("dialog[data-testid=resign-dialog][open]")
        # The confirmation holds the focus; "Keep playing" is the safe default.
        assert page.evaluate("document.activeElement.closest('dialog')?.dataset.testid") == "resign-dialog"
        _shot(me, "resign-confirm-phone-en")
        page.click("[data-testid=confirm-yes]")
        page.wait_for_selector("dialog[data-testid=resign-dialog]", state="detached")
        # Focus goes back to the menu button, and the seat now shows as resigned, played by the bot to the end.
        assert page.evaluate("document.activeElement.dataset.testid") == "match-menu"
        page.wait_for_selector(f"[data-testid=strip-seat][data-seat='{seat}'] [data-testid=seat-control][data-reason=resigned]")
        page.wait_for_selector("text=You resigned; the bot plays your seat to the end of the match.")
        # The match goes on without asking me: the table moves while it never offers me a move again.
        version = me.table_version()
        page.wait_for_function("v => Number(document.querySelector('[data-testid=table]').dataset.version) > v + 2", arg=version)
        assert page.locator("[data-testid=table][data-my-turn=yes]").count() == 0
        _open_menu(me)
        assert page.locator("[data-testid=resign]").count() == 0
        assert not me.errors, me.errors
    finally:
        me.close()


def test_abort_before_anyone_moved_and_the_refusal_after(browser, live_server_url):
    alice = Client(browser, live_server_url, PHONE)
    bob = Client(browser, live_server_url, PHONE)
    try:
        alice.signup("abort")
        bob.signup("abort")
        lobby = _new_lobby(alice, 2)
        _join(bob, lobby)
        _start(alice, (bob,))
        _open_menu(alice)
        alice.page.click("[data-testid=abort]")
        alice.page.click("[data-testid=confirm-yes]")
        for c in (alice, bob):
            c.page.wait_for_selector("text=This match was aborted")
        _open_menu(bob)
        # An aborted match can be neither aborted nor resigned again: the menu no longer offers either.
        assert bob.page.locator("[data-testid=abort], [data-testid=resign]").count() == 0
        assert not alice.errors and not bob.errors, (alice.errors, bob.errors)
    finally:
        alice.close()
        bob.close()


def test_resigning_ends_a_two_player_match_and_both_accept_the_rematch(browser, live_server_url):
    alice = Client(browser, live_server_url, PHONE)
    bob = Client(browser, live_server_url, PHONE, locale="hu-HU")
    try:
        alice.signup("rematch")
        bob.signup("rematch")
        lobby = _new_lobby(alice, 2, "rapid")
        _join(bob, lobby)
        match_id = _start(alice, (bob,))
        _open_menu(alice)
        alice.page.click("[data-testid=resign]")
        alice.page.click("[data-testid=confirm-yes]")
        # One seat left: the match ends at once, for both; each sees who resigned and a rematch button.
        for c in (alice, bob):
            c.page.wait_for_selector("[data-testid=result] [data-testid=rematch]")
        assert alice.name in bob.page.text_content("[data-testid=result]")
        alice.page.click("[data-testid=rematch]")
        alice.page.wait_for_url("**/lobby/*")
        new_lobby = alice.page.get_attribute("[data-testid=lobby-room]", "data-lobby")
        assert new_lobby != lobby
        # Bob hears of it live on the result screen, and joins with one tap.
        bob.page.wait_for_selector("[data-testid=rematch-offer]")
        _shot(bob, "rematch-offer-phone-hu")
        assert bob.page.url.endswith(f"/match/{match_id}")
        bob.page.click("[data-testid=rematch]")
        bob.page.wait_for_url(f"**/lobby/{new_lobby}")
        for c in (alice, bob):
            c.page.wait_for_function("() => document.querySelectorAll('[data-testid=seat].taken').length === 2")
        # The same time control as the old match.
        assert "10 min + 20 s" in alice.page.text_content("[data-testid=lobby-room] [data-testid=time-control]")
        assert not alice.errors and not bob.errors, (alice.errors, bob.errors)
    finally:
        alice.close()
        bob.close()


@pytest.fixture(scope="module")
def short_grace_url(tmp_path_factory):
    """A server whose absent players may be handed over after 3 seconds."""
    tmp = tmp_path_factory.mktemp("grace-server")
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}", REDIS_URL="", BOT_DELAY="0.05", ABSENT_GRACE_S="3",
                     THROTTLE_SIGNUP="1000/min", THROTTLE_LOGIN="1000/min", DJANGO_PRODUCTION="", DJANGO_DEBUG="0",
                     LOG_LEVEL="WARNING")
    manage(env, "migrate", "--noinput", "-v0")
    with Daphne(env, log=tmp / "daphne.log") as server:
        yield f"http://127.0.0.1:{server.port}"


@pytest.mark.parametrize("viewport, locale", [pytest.param(PHONE, "en-US", id="phone-en"),
                                              pytest.param(DESKTOP, "hu-HU", id="desktop-hu")])
def test_an_absent_players_countdown_the_takeover_and_taking_the_seat_back(browser, short_grace_url, viewport, locale):
    alice = Client(browser, short_grace_url, viewport, locale=locale)
    bob = Client(browser, short_grace_url, viewport, locale=locale)
    tag = ("phone-" if viewport is PHONE else "desktop-") + locale[:2]
    try:
        alice.signup("stay")
        bob.signup("away")
        lobby = _new_lobby(alice, 2)
        _join(bob, lobby)
        match_id = _start(alice, (bob,))
        # The player whose move it is leaves: their seat is asked and nobody answers.
        mover = alice.states()[-1]["view"]["to_move"][0]
        away, stay = (alice, bob) if _my_seat(alice) == mover else (bob, alice)
        away.page.wait_for_selector("[data-testid=table][data-my-turn=yes]")
        away_seat = _my_seat(away)
        away.goto("/")  # the socket closes: the player is gone
        note = stay.page.locator(f"[data-testid=absent-note][data-seat='{away_seat}']")
        note.wait_for()
        stay.page.wait_for_selector(f"[data-testid=strip-seat][data-seat='{away_seat}'] [data-testid=away]")
        _shot(stay, f"absent-countdown-{tag}")
        # Once the grace is over the button appears, and asks once more before the seat goes (issue 26): "wait"
        # changes nothing.
        button = stay.page.locator(f"[data-testid=takeover][data-seat='{away_seat}']")
        button.wait_for()
        _shot(stay, f"absent-takeover-{tag}")
        control = f"[data-testid=strip-seat][data-seat='{away_seat}'] [data-testid=seat-control][data-reason=takeover]"
        dialog = stay.page.locator("dialog[data-testid=takeover-dialog][open]")
        button.click()
        dialog.wait_for()
        assert stay.name is not None and away.name in dialog.text_content()
        _shot(stay, f"takeover-confirm-{tag}")
        dialog.locator("[data-testid=confirm-no]").click()
        dialog.wait_for(state="detached")
        assert stay.page.locator(control).count() == 0 and button.is_visible()
        # The server may still want a moment (its stamp of the disconnection can be later than ours): its answer
        # is shown in the dialog, and a second "yes" goes through.
        button.click()
        for _ in range(10):
            dialog.locator("[data-testid=confirm-yes]").click()
            stay.page.wait_for_function(
                "(sel) => document.querySelector(sel) || document.querySelector('[data-testid=menu-error]')", arg=control)
            if stay.page.locator(control).count():
                break
            stay.page.wait_for_function("() => !document.querySelector('[data-testid=confirm-yes]')?.disabled")
        stay.page.wait_for_selector(control)
        dialog.wait_for(state="detached")
        # The player comes back and takes the seat back.
        away.goto(f"/match/{match_id}")
        away.page.click("[data-testid=reclaim]")
        away.page.wait_for_selector("[data-testid=reclaim]", state="detached")
        stay.page.wait_for_selector(control, state="detached")
        assert not stay.errors and not away.errors, (stay.errors, away.errors)
    finally:
        alice.close()
        bob.close()
