"""The end of a match, seen from the seat whose move it was (issue 26): after an abort, or a finish, the status
line, the tab title, the dock's controls, the "to play" tags and the live region all change in the same painted
frame, and nothing offers a move any more; a rated match's result card shows each rating change ("+16").

Real Chromium, a phone in Hungarian and a desktop in English. Screenshots: /work/shots/table-conn/.
"""

from __future__ import annotations

import os
import random
import time

import pytest

from .support import (DESKTOP, PHONE, Client, frames_seen, inconsistent_frames, join_lobby, new_lobby, start_match,
                      take_turn, watch_frames)

pytestmark = pytest.mark.browser

SHOTS = "/work/shots/table-conn"
# The status line of an ended match, per language (frontend/i18n/<lang>/site.json: table.aborted, table.over).
ENDED = {"hu-HU": {"aborted": "Ezt a játszmát megszakították.", "finished": "A játszmának vége."},
         "en-US": {"aborted": "This match was aborted.", "finished": "The game is over."}}



@pytest.fixture(params=[(PHONE, "hu-HU", "phone-hu"), (DESKTOP, "en-US", "desktop-en")], ids=lambda p: p[2])
def pair(browser, live_server_url, request):
    """Two players on the same kind of screen in the same language (whichever seat moves first is the one
    watched), the language and a name for the screenshots; each page ends without a console error."""
    viewport, locale, tag = request.param
    clients = [Client(browser, live_server_url, viewport, locale=locale) for _ in range(2)]
    yield clients, locale, tag
    try:
        assert [c.errors for c in clients] == [[], []]
    finally:
        for c in clients:
            c.close()


def _shot(client: Client, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    client.page.screenshot(path=f"{SHOTS}/{name}.png")


def _two_player_match(host: Client, guest: Client, rated: bool = False) -> str:
    """A two-seat Condottiere lobby made through the form (rated if asked), joined and started; the match id."""
    lobby = new_lobby(host, 2, rated=rated)
    join_lobby(guest, lobby)
    return start_match(host, (guest,))


def _mover_and_other(a: Client, b: Client) -> tuple[Client, Client]:
    """(the client whose move it is, the other): the first move (the condottiere's battle) is one seat's."""
    for c in (a, b):
        c.page.wait_for_function("() => !!document.querySelector('[data-testid=table]')?.dataset.myTurn")
    mover = a if a.states()[-1]["legal_actions"] else b
    assert mover.states()[-1]["legal_actions"], "neither player has the move"
    return (a, b) if mover is a else (b, a)


def _watched_mover(alice: Client, bob: Client, rated: bool) -> tuple[Client, Client]:
    """Both sign up and sit at a new two-seat match; the mover's page records every painted frame from a frame
    in which the move is theirs. (the mover, the other)"""
    for c in (alice, bob):
        c.signup("rated" if rated else "abort")
    _two_player_match(alice, bob, rated=rated)
    mover, other = _mover_and_other(alice, bob)
    watch_frames(mover.page)
    mover.page.wait_for_function("() => (window.__frames || []).some((f) => f.myTurn === 'yes')")
    return mover, other


def _each_moves(mover: Client, other: Client, moves: int) -> None:
    """Both play (no passes) until each made `moves` moves of their own and the move is the mover's again."""
    rng = random.Random(5)
    made = {mover: 0, other: 0}
    deadline = time.monotonic() + 60
    while min(made.values()) < moves or mover.page.get_attribute("[data-testid=table]", "data-my-turn") != "yes":
        assert time.monotonic() < deadline, f"the players did not get to {moves} moves each ({made})"
        moved = False
        for client in (mover, other):
            if take_turn(client, rng, pass_bias=0):
                made[client] += 1
                moved = True
        if not moved:
            mover.page.wait_for_timeout(40)  # the next state is on its way
    mover.page.wait_for_function("() => (window.__frames || []).some((f) => f.myTurn === 'yes')")


def _from_the_menu(client: Client, what: str) -> None:
    """Resign or abort through the ⋯ menu and its confirmation."""
    page = client.page
    page.click("[data-testid=match-menu]")
    page.wait_for_selector("dialog[data-testid=menu][open]")
    page.click(f"[data-testid={what}]")
    page.click(f"dialog[data-testid={what}-dialog][open] [data-testid=confirm-yes]")


def _ended_in_one_frame(mover: Client, status: str, locale: str) -> dict:
    """The mover's table reached `status`; every painted frame agreed with itself, and the first ended one
    already said so everywhere. Returns that frame."""
    page = mover.page
    page.wait_for_selector(f"[data-testid=table][data-status={status}]")
    page.wait_for_function("() => requestAnimationFrame(() => {}) || true")  # at least one frame after it
    frames = frames_seen(page)
    assert any(f["myTurn"] == "yes" and f["status"] == "active" for f in frames), "the move was the mover's"
    assert inconsistent_frames(frames) == []
    first = next(f for f in frames if f["status"] == status)
    assert first["line"] == ENDED[locale][status]
    assert (first["myTurn"], first["tags"], first["acting"], first["mine"]) == ("no", 0, 0, False)
    assert not first["title"].startswith("●")
    return first


def test_an_abort_seen_from_the_seat_to_move(pair):
    (alice, bob), locale, tag = pair
    mover, other = _watched_mover(alice, bob, rated=False)
    _from_the_menu(other, "abort")
    _ended_in_one_frame(mover, "aborted", locale)
    # The notice says so, and nothing on the table offers a move: no state after the abort lists one.
    mover.page.wait_for_selector(".notice-info")
    assert mover.page.locator("[data-testid=region-choice]:enabled, .choosable").count() == 0
    assert mover.page.locator("[role=alert]").count() == 0
    ended = [m for m in mover.states() if m["status"] == "aborted"]
    assert ended and all(m["legal_actions"] == [] for m in ended)
    _shot(mover, f"aborted-seat-to-move-{tag}")
    _shot(other, f"aborted-other-{tag}")


def test_a_rated_finish_changes_every_signal_at_once_and_shows_the_rating_change(pair):
    (alice, bob), locale, tag = pair
    mover, other = _watched_mover(alice, bob, rated=True)
    # Ratings move only once each player made RATING_MIN_MOVES (2) moves of their own (docs/ratings.md).
    _each_moves(mover, other, 2)
    # The other player resigns: with two seats the match is decided at once (docs/api.md, Seats).
    _from_the_menu(other, "resign")
    _ended_in_one_frame(mover, "finished", locale)
    # Both result cards: the winner +16, the loser −16 (two new players at 1500, K = 32: docs/ratings.md).
    heading = {"hu-HU": "Értékszámok", "en-US": "Ratings"}[locale]
    for client, change, shown, name in ((mover, 16, "+16", "winner"), (other, -16, "−16", "loser")):
        page = client.page
        page.wait_for_selector("[data-testid=result]")
        rows = page.locator("[data-testid=rating-change]")
        rows.first.wait_for()
        mine = page.locator("[data-testid=rating-change].mine")
        assert mine.get_attribute("data-change") == str(change)
        assert shown in mine.text_content() and str(1500 + change) in mine.text_content()
        assert rows.count() == 2 and heading in page.text_content("[data-testid=rating-changes]")
        page.locator("[data-testid=rating-changes]").scroll_into_view_if_needed()
        _shot(client, f"rating-change-{name}-{tag}")


def test_a_tap_on_the_menu_before_the_match_record_arrives_is_not_lost(browser, live_server_url):
    """The strip draws its seats once the match record is in, which may be after the first state; the ⋯ button
    keeps its place in the page meanwhile, so a menu opened before then stays open (found under load)."""
    alice = Client(browser, live_server_url, PHONE)
    bob = Client(browser, live_server_url, PHONE)
    try:
        alice.signup("early")
        bob.signup("early")
        match_id = _two_player_match(alice, bob)
        held = []
        # Bob's next load of the match record is held back until the menu is open.
        bob.page.route(f"**/api/matches/{match_id}/", lambda route: held.append(route))
        bob.goto(f"/match/{match_id}")
        bob.page.click("[data-testid=match-menu]")
        bob.page.wait_for_selector("dialog[data-testid=menu][open]")
        assert held and bob.page.locator("[data-testid=strip-seat]").count() == 0
        for route in held:
            route.continue_()
        bob.page.unroute(f"**/api/matches/{match_id}/")
        bob.page.wait_for_selector("[data-testid=strip-seat]")
        assert bob.page.locator("dialog[data-testid=menu][open]").count() == 1
        assert alice.errors == [] and bob.errors == []
    finally:
        alice.close()
        bob.close()
