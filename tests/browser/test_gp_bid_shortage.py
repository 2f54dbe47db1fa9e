"""God's Playground's two rarest decisions on a 360 x 740 phone, in Hungarian and English (issue 26): too few
cubes for the tiles laid ("shortage") and the sealed bid of a tied king election ("bid"). The match is put into
them through the services, as a player would get there: the user lays 5, 5, 4, 4 and 3 nobles on the provinces
(21 cubes, its supply holds 20) and a 3 on the royal box; one bot ties that 3, the other lays a 2. The user's
page then shows the shortage, and after its one cube fewer the sealed bid. Each screen fits (nothing past the
edges or cut, the dock at most a third of the screen with nothing scrolling in it, its send in sight), and
axe-core finds nothing critical or serious on it. The "Meanwhile" card then tells the revealed bids, the crown
and the Sejm elections the phases settled, in the player's language."""

from __future__ import annotations

import json

import pytest

from tests.support.servers import manage

from .axe import Audit
from .support import PHONE, Client
from .test_catalogues import catalogue
from .test_phone_dock import _DOCK_JS
from .test_phone_fit import _MISFITS_JS, _PRIMARY, _PRIMARY_IN_VIEW_JS

pytestmark = pytest.mark.browser

# Run by `manage.py shell` against the server's database: a match of the user (seat 0) and two bots, played
# through the services up to the user's shortage. Prints the match id.
TO_SHORTAGE = """
import json, random
from django.contrib.auth import get_user_model
from backend.engines import get_engine
from backend.engines.gods_playground.board import PROVINCES
from backend.matches import services, store
from backend.matches.models import Match

user = get_user_model().objects.get(username=%r)
engine, rng = get_engine("gods_playground"), random.Random(26)
match = services.create_match("gods_playground", {}, [user, "heuristic", "heuristic"], 26, True)
# The user: its five highest tiles on the provinces (5+5+4+4+3 = 21 cubes, the supply is 20), a 3 on the royal
# box; seat 1 ties that 3, seat 2 lays 2 there.
LOW = [0, 0, 1, 1, 2]
LAYOUT = {0: (lambda hand: sorted(hand, reverse=True)[:5], 3), 1: (lambda hand: LOW, 3), 2: (lambda hand: LOW, 2)}
version = 0
while True:
    state = store.read_state(match.pk)
    pend = state["pending"]
    if pend and pend["kind"] == "shortage":
        assert pend["seats"] == [0], pend
        break
    assert state["phase"] in ("setup", "income", "nobles"), (state["phase"], pend)
    seat = engine.to_move(state)[0]
    if pend and pend["kind"] == "nobles":
        provinces, royal = LAYOUT[seat]
        action = {"type": "place_nobles", **dict(zip(PROVINCES, provinces(state["hand"][seat]))), "royal": royal}
    else:
        action = engine.bots["heuristic"](engine.view(state, seat), engine.legal_actions(state, seat), rng)
    services.apply_action(match.pk, seat, version, action, f"t{version}")
    version += 1
print(json.dumps(match.pk))
"""


def _screen(page, audit: Audit, screen: str, primary: str, shot) -> dict:
    """The phone checks of one decision screen, its screenshot first (so a failure can be looked at)."""
    page.evaluate("scrollTo(0, 0)")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(shot))
    assert page.evaluate(_MISFITS_JS) == [], screen
    dock = page.evaluate(_DOCK_JS)
    assert dock["scrolls"] == [] and dock["outside"] == [], (screen, dock)
    assert dock["height"] <= round(0.34 * PHONE["height"]), (screen, dock)
    assert page.evaluate(_PRIMARY_IN_VIEW_JS, list(_PRIMARY)) == {"sel": primary, "inView": True}, screen
    found = audit.check(page, screen)
    assert not [v for v in found if v["impact"] in ("critical", "serious")], (screen, found)
    return dock


@pytest.mark.parametrize("locale", ["hu-HU", "en-US"])
def test_the_shortage_and_the_sealed_bid_fit_a_phone_and_pass_axe(browser, managed_server, locale, screenshots):
    base, env = managed_server
    lang = locale[:2]
    words, decide, bid_words = (catalogue(lang, part) for part in ("gods_playground", "gods_playground_decide",
                                                                   "gods_playground_bid"))
    audit = Audit(f"gp-forced-{lang}")
    client = Client(browser, base, PHONE, locale=locale)
    page = client.page
    try:
        name = client.signup("gpshort")
        match_id = json.loads(manage(env, "shell", "-c", TO_SHORTAGE % name, timeout=300).strip().splitlines()[-1])
        client.goto(f"/match/{match_id}")

        # The shortage: one button a province the user wanted cubes in, all five in sight.
        page.wait_for_selector("[data-testid=table][data-pending=shortage][data-my-turn=yes]")
        page.wait_for_selector("[data-testid=dock] [data-testid=gp-move][data-type=reduce_nobles]:enabled")
        assert page.locator("[data-testid=status] .status-text").inner_text() == words["gp.st.shortage_mine"]
        moves = page.locator("[data-testid=dock] [data-testid=gp-move]")
        assert moves.count() == 5
        # Each names its province and how many cubes arrive there instead of how many: Prussia wanted 5.
        prussia = moves.filter(has_text=words["gp.prov.prussia"])
        note = decide["gp.a.reduce_nobles"]
        note = note["other"] if isinstance(note, dict) else note
        assert prussia.locator(".gp-move-note").inner_text() == note.format(n=5, m=4)
        help_line = decide["gp.h.shortage"].format(want=21, have=20)
        assert page.locator("[data-testid=decision] .gp-help").inner_text() == help_line
        dock = _screen(page, audit, "shortage", "[data-testid=dock] [data-testid=gp-move]",
                       screenshots / f"gp-forced-{lang}-shortage.png")
        print("shortage dock", lang, dock)
        # A long press (here the context menu) tells what the move does, under the button's words.
        prussia.click(button="right")
        page.wait_for_selector("dialog[data-testid=help][open] [data-testid=help-text]")
        sheet = page.text_content("dialog[data-testid=help]")
        assert f"{words['gp.prov.prussia']}: {note.format(n=5, m=4)}" in sheet, sheet
        assert catalogue(lang, "rules_gods_playground")["rg.action.reduce_nobles"] in sheet, sheet
        page.screenshot(path=str(screenshots / f"gp-forced-{lang}-shortage-help.png"))
        page.click("[data-testid=help-close]")
        page.wait_for_selector("dialog[data-testid=help]:not([open])", state="attached")
        prussia.click()

        # The sealed bid: the user and seat 1 tied at 3 on the royal box.
        page.wait_for_selector("[data-testid=table][data-pending=bid][data-my-turn=yes]")
        page.wait_for_selector("[data-testid=bid-submit]:enabled")
        assert page.locator("[data-testid=bid-panel] h2").inner_text() == bid_words["gp.b.title"]
        assert page.locator("[data-testid=bid-panel] .gp-bidders li").count() == 2
        dock = _screen(page, audit, "bid", "[data-testid=bid-submit]", screenshots / f"gp-forced-{lang}-bid.png")
        print("bid dock", lang, dock)
        page.click("[data-testid=bid-more]")
        page.click("[data-testid=bid-more]")
        assert page.locator("[data-testid=bid-panel] output").inner_text() == "2"
        page.screenshot(path=str(screenshots / f"gp-forced-{lang}-bid-2.png"))
        # A tie of bids is bid again (p.5): the user bids as long as it is asked.
        for _ in range(5):
            version = page.get_attribute("[data-testid=table]", "data-version")
            page.click("[data-testid=bid-submit]")
            page.wait_for_function("v => document.querySelector('[data-testid=table]').dataset.version !== v", arg=version)
            page.wait_for_function("""() => document.querySelector('[data-testid=digest] li[data-kind=election]')
              || document.querySelector('[data-testid=bid-submit]:enabled')""")
            if not page.locator("[data-testid=bid-submit]").count():
                break

        # Once the bot has bid too: the bids are shown, a king is crowned and the user, the only one with nobles
        # to spare in every province, wins Sejm elections; the "Meanwhile" card tells it all in this language
        # when the user is next asked (or, if the bot won the crown and moves first, while waiting for it).
        digest = page.locator("[data-testid=digest]")
        digest.wait_for()
        page.wait_for_function("() => document.querySelectorAll('[data-testid=digest] li[data-kind=election]').length > 0")
        kinds = digest.locator("li").evaluate_all("els => els.map((e) => e.dataset.kind)")
        assert {"bids_revealed", "election"} <= set(kinds) and {"king", "king_kept"} & set(kinds), kinds
        text = digest.inner_text()
        assert words["gp.digest.title"] in text
        assert words["gp.prov.lithuania"] in text and name in text, text
        digest.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"gp-forced-{lang}-bid-digest.png"))
        assert page.evaluate(_MISFITS_JS) == []
        found = audit.check(page, "after the bid (digest)")
        assert not [v for v in found if v["impact"] in ("critical", "serious")], found
        print("axe counts", lang, json.dumps(audit.counts()))
        assert client.errors == []
    finally:
        client.close()
        audit.save()
