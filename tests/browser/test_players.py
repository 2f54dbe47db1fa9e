"""Profiles, leaderboards, the rated choice and the finished-matches list in Chromium at phone size
(360 x 740), in English and Hungarian. A server of the module's own holds made-up finished matches
(recorded by the ratings service as the runtime would) and 55 more ratings, so that the leaderboard has
a second page. Screenshots go to /work/shots/rate/ when that folder's parent exists, else to
test-artifacts/screenshots/players/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.servers import Daphne, manage, server_env

from .support import PASSWORD, PHONE, Client, horizontal_overflow, small_text
from .test_i18n import assert_hungarian
from .test_screens import _SMALL_TARGETS_JS as SMALL_TARGETS_JS

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/work/shots/rate") if Path("/work/shots").is_dir() else ROOT / "test-artifacts" / "screenshots" / "players"
LOCALES = {"en": "en-US", "hu": "hu-HU"}

SEED = f"""
import random
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from backend.matches.models import ActionLog, Match
from backend.matches.services import create_match
from backend.ratings.models import Rating
from backend.ratings.services import record

User = get_user_model()
alice, bob, csilla = (User.objects.create_user(name, password={PASSWORD!r}) for name in ("alice", "bob", "Csilla"))
rng = random.Random(5)
now = timezone.now()
for i in range(14):
    players = [alice, bob, csilla][: 2 + i % 2]
    rng.shuffle(players)
    match = create_match("condottiere", {{}}, players, i, rated=i % 5 != 4)
    scores = [rng.randrange(0, 5) for _ in players]
    winner = rng.randrange(len(players))
    scores[winner] = 6
    Match.objects.filter(pk=match.pk).update(status="finished", finished_at=now - timedelta(days=14 - i),
        result={{"winners": [winner], "scores": scores, "reason": "regions", "shared": False}})
    # Two moves of each player's own, which a rated match needs to count (docs/ratings.md).
    ActionLog.objects.bulk_create([ActionLog(match=match, version=v + 1, seat=v % len(players), action={{"type": "pass"}},
                                             client_id=f"seed-{{v}}") for v in range(2 * len(players))])
    record(match.pk)
gp = create_match("gods_playground", {{}}, [bob, alice, "heuristic"], 99)
Match.objects.filter(pk=gp.pk).update(status="finished", finished_at=now,
    result={{"winners": [1], "scores": [31, 40, 28], "ranking": [1, 0, 2]}})
record(gp.pk)
for n in range(55):
    user = User.objects.create_user(f"filler{{n:02d}}", password={PASSWORD!r})
    Rating.objects.create(user=user, game="condottiere", value=1600 + 3 * n, matches=1 + n % 7, wins=n % 3)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("players-server")
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}", REDIS_URL="", BOT_DELAY="0.05", THROTTLE_LOGIN="1000/min",
                     THROTTLE_SIGNUP="1000/min", DJANGO_PRODUCTION="", DJANGO_DEBUG="0", LOG_LEVEL="WARNING")
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "shell", "-c", SEED)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with Daphne(env, log=tmp / "daphne.log") as server:
        yield f"http://127.0.0.1:{server.port}"


def _log_in(client: Client, name: str, lang: str = "en") -> None:
    """Log in; then speak `lang` (an account keeps the language of its first log-in, another test's)."""
    page = client.page
    client.goto("/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector(f"[data-testid=username]:text-is('{name}')")
    client.goto("/")  # as the server now speaks to this account
    page.wait_for_selector("[data-testid=open-lobbies]")
    if page.get_attribute("html", "lang") != lang:
        page.click("[data-testid=language]")
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def _fits_the_phone(client: Client, text: bool = True) -> None:
    assert horizontal_overflow(client.page) == 0
    assert client.page.evaluate(SMALL_TARGETS_JS) == []  # 44 px to tap, as every screen
    if text:  # the pages of this screen; the older lists keep the site's small tags
        assert small_text(client.page, "main") == []
    assert client.errors == []


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_profile_on_a_phone(browser, site, lang):
    client = Client(browser, site, PHONE, locale=LOCALES[lang])
    try:
        page = client.page
        client.goto("/u/alice")
        page.wait_for_selector("[data-testid=standing][data-game=condottiere]")
        standing = page.locator("[data-testid=standing][data-game=condottiere]")
        played = int(standing.locator("[data-testid=played]").text_content())
        assert played == 14 and int(standing.locator("[data-testid=won]").text_content()) <= played
        rating = standing.locator("[data-testid=rating]").text_content()
        assert rating.isdigit()  # as chess sites write them: no thousands separator
        # The chart: a line through the start and every rated match (12 of the 14 were rated).
        points = standing.locator("[data-testid=rating-chart] polyline").get_attribute("points").split()
        assert len(points) == 13
        assert standing.locator("[data-testid=rating-chart]").get_attribute("aria-label")
        # God's Playground with a bot: counted, never rated.
        gp = page.locator("[data-testid=standing][data-game=gods_playground]")
        assert gp.locator("[data-testid=played]").text_content() == "1"
        assert gp.locator("[data-testid=rating-chart]").count() == 0
        assert page.locator("[data-testid=recent-match]").count() == 15
        _fits_the_phone(client)
        if lang == "hu":
            assert_hungarian(client, "profile")
        page.screenshot(path=str(SHOTS / f"profile-phone-{lang}.png"))
        page.screenshot(path=str(SHOTS / f"profile-phone-{lang}-full.png"), full_page=True)
        # A name links to that player's page; the match link opens the match.
        page.locator("[data-testid=recent-match] .player-link", has_text="Csilla").first.click()
        page.wait_for_url("**/u/Csilla")
        page.wait_for_selector("[data-testid=standing]")
        assert page.locator("h1").text_content() == "Csilla"
        page.locator("[data-testid=recent-match] a.btn").first.click()
        page.wait_for_url("**/match/*")
        page.wait_for_selector("[data-testid=table]")
        assert client.errors == []
    finally:
        client.close()


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_leaderboard_on_a_phone_pages_and_marks_me(browser, site, lang):
    client = Client(browser, site, PHONE, locale=LOCALES[lang])
    try:
        page = client.page
        _log_in(client, "filler54", lang)
        client.goto("/leaderboard/condottiere")
        page.wait_for_selector("[data-testid=board-row]")
        rows = page.locator("[data-testid=board-row]")
        assert rows.count() == 50
        first = rows.first
        assert first.locator("td").first.text_content() == "1"
        assert first.locator(".player-link").text_content() == "filler54"  # 1600 + 3 * 54 = 1762: above any seeded player
        assert "me" in (first.get_attribute("class") or "")
        ratings = [int(r) for r in page.locator("[data-testid=board-row] td.num:nth-child(3)").all_text_contents()]
        assert ratings == sorted(ratings, reverse=True)
        _fits_the_phone(client)
        if lang == "hu":
            assert_hungarian(client, "leaderboard")
        page.screenshot(path=str(SHOTS / f"leaderboard-phone-{lang}.png"))
        page.locator(".pager a.btn").last.click()
        page.wait_for_url("**/leaderboard/condottiere?page=2")
        page.wait_for_function("() => document.querySelector('[data-testid=board-row] td')?.textContent === '51'")
        assert page.locator("[data-testid=board-row]").count() == 58 - 50  # 55 fillers and the 3 players
        page.screenshot(path=str(SHOTS / f"leaderboard-phone-{lang}-page2.png"), full_page=True)
        # The other game's board, reached by its tab: only people with a rated match, so none yet.
        page.locator("nav.tabs a.tab").nth(1).click()
        page.wait_for_url("**/leaderboard/gods_playground")
        page.wait_for_selector("p.empty")
        assert client.errors == []
    finally:
        client.close()


def test_an_unknown_player_gets_the_not_found_page(browser, site):
    client = Client(browser, site, PHONE)
    try:
        client.goto("/u/nobody-at-all")
        client.page.wait_for_selector("[data-testid=not-found]")
        # The 404 the screen asked for is the one console line the browser adds by itself.
        assert [e for e in client.errors if "404" not in e] == []
    finally:
        client.close()


def test_rated_lobby_refuses_a_bot_and_finished_matches_show_winners(browser, site):
    client = Client(browser, site, PHONE)
    try:
        page = client.page
        _log_in(client, "bob")
        client.goto("/lobbies/new")
        page.wait_for_selector("[data-testid=seat-count]")
        page.check("[data-testid=rated]")
        page.click("button[type=submit]")
        page.wait_for_selector("[data-testid=lobby-room]")
        assert page.is_checked("[data-testid=rated]")
        page.click("[data-testid=add-bot]")
        alert = page.wait_for_selector("[role=alert]")
        assert "rated" in alert.text_content()
        assert page.locator("[data-testid=seat].taken").count() == 1
        assert client.errors == ["Failed to load resource: the server responded with a status of 409 (Conflict)"]
        client.errors.clear()  # the refusal above, logged by the browser itself
        page.screenshot(path=str(SHOTS / "lobby-rated-phone.png"), full_page=True)
        # The open list says so too.
        client.goto("/")
        page.wait_for_selector("[data-testid=rated-tag]")
        # Unrated, the bot may sit.
        page.go_back()
        page.wait_for_selector("[data-testid=lobby-room]")
        page.uncheck("[data-testid=rated]")
        page.wait_for_function("() => !document.querySelector('[data-testid=rated]').checked")
        page.click("[data-testid=add-bot]")
        page.wait_for_function("() => document.querySelectorAll('[data-testid=seat].taken').length === 2")
        # Finished matches: each player's score and the winner.
        client.goto("/matches")
        page.click("[data-tab=finished]")
        page.wait_for_selector("[data-testid=won-by]")
        row = page.locator("[data-testid=match-row]").first
        assert row.locator(".score").count() >= 2 and row.locator(".player-link").count() >= 2
        _fits_the_phone(client, text=False)
        page.screenshot(path=str(SHOTS / "matches-finished-phone.png"))
    finally:
        client.close()
