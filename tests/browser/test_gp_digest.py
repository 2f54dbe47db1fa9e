"""God's Playground's "Meanwhile" card (parts.js Digest, issue 26 point 3): what the phases settled between the
player's moves is told, not only logged: the Sejm elections, the invasions and raids, the estates lost, each a
sentence in the player's language (Hungarian and English) from the event's data.

The events are a real game's: the engine's bots play seeded games, and the log as seat 0 receives it is cut
where seat 0 is asked again after other seats' moves settled such phases; the card is drawn from that log by the
page's own module, on the phone, and must fit it."""

from __future__ import annotations

import random
from functools import cache

import pytest

from backend.engines import get_engine

from .support import gp_table
from .test_catalogues import catalogue
from .test_phone_fit import _MISFITS_JS

pytestmark = pytest.mark.browser

TOLD = ("election", "invasion", "raid", "estate_lost")  # what a player must hear of, besides the king (test_phone_fit)
NAMES = ["Anna Kovács", "Bot 2", "Bot 3"]


@cache
def windows() -> dict[str, tuple[list[dict], list[dict]]]:
    """kind -> (seat 0's log up to a moment it is asked, the events of that kind other seats' moves caused since
    seat 0's last move), the first such moment of a seeded bot game for each kind of TOLD."""
    engine = get_engine("gods_playground")
    found: dict[str, tuple[list[dict], list[dict]]] = {}
    for seed in range(20):
        state, rng = engine.setup(3, engine.validate_options({}), seed=seed), random.Random(seed)
        log: list[dict] = []
        since: list[dict] | None = None  # events of other seats' moves since seat 0's last one
        while not engine.is_over(state) and len(found) < len(TOLD):
            seat = engine.to_move(state)[0]
            if seat == 0 and since:
                for kind in TOLD:
                    told = [e for e in since if e["kind"] == kind or (kind == "election" and e["kind"] == "election_none")]
                    if told and kind not in found:
                        found[kind] = (list(log), told)
            bot = engine.bots["heuristic"]
            state, events = engine.step(state, seat, bot(engine.view(state, seat), engine.legal_actions(state, seat), rng))
            events = [e for e in events if e["to"] is None or 0 in e["to"]]  # what seat 0's socket gets
            log += events
            since = [] if seat == 0 else (since or []) + events
        if len(found) == len(TOLD):
            return found
    raise AssertionError(f"20 seeded games settled only {sorted(found)} between seat 0's moves")


def sentence(lang: str, e: dict) -> str:
    """The event as the catalogue words it (these sentences take names, provinces, enemies and numbers)."""
    words = catalogue(lang, "gods_playground")
    text = catalogue(lang, "gods_playground_events")[f"ev.gods_playground.{e['kind']}"]
    p = e["params"]
    if isinstance(text, dict):
        text = text["one" if p.get("count") == 1 and "one" in text else "other"]
    values = {k: str(v) for k, v in p.items()}
    values.update({k: words[f"gp.prov.{p[k]}"] for k in ("province", "from") if k in p})
    if "enemy" in p:
        values["enemy"] = words[f"gp.enemy.{p['enemy']}"]
    if e.get("seat") is not None:
        values["seat"] = NAMES[e["seat"]]
    return text.format(**values)


def elections(lang: str, told: list[dict]) -> str:
    """A phase's Sejm elections on the card: one line, each winner (or nobody) with the provinces they took."""
    words = catalogue(lang, "gods_playground")
    won: dict[str, list[str]] = {}
    for e in told:
        who = NAMES[e["seat"]] if e["kind"] == "election" else words["gp.digest.nobody"]
        won.setdefault(who, []).append(words[f"gp.prov.{e['params']['province']}"])
    return words["gp.digest.elections"].format(list="; ".join(f"{who} ({', '.join(ps)})" for who, ps in won.items()))


# Draw the card from `log` for seat 0 with the page's own component, in a box of its own (its lines come once
# the log's words are in).
_DRAW_JS = """async ([log, names]) => {
  const { html, render } = await import('/app/js/lib.js');
  const { Digest } = await import('/app/js/games/gods_playground/parts.js');
  const main = document.querySelector('main');
  let box = document.getElementById('digest-test');
  if (!box) {  // in the page's main, the table put out of sight (the fit checks look inside main)
    for (const el of main.children) el.style.display = 'none';
    box = document.createElement('div'); box.id = 'digest-test'; main.prepend(box);
  }
  render(null, box);
  render(html`<${Digest} log=${log} you=${0} names=${(s) => names[s]} />`, box);
}"""
_LINES_JS = """() => [...document.querySelectorAll('#digest-test [data-testid=digest] li')].map((li) => [li.dataset.kind, li.textContent])"""


@pytest.mark.parametrize("locale", ["hu-HU", "en-US"])
def test_the_meanwhile_card_tells_elections_invasions_raids_and_estates_lost(browser, live_server_url, locale,
                                                                            screenshots):
    lang = locale[:2]
    words = catalogue(lang, "gods_playground")
    with gp_table(browser, live_server_url, locale, "gpdigest") as (client, audit):  # God's Playground's words and look
        page = client.page
        for kind, (log, told) in windows().items():
            page.evaluate(_DRAW_JS, [log, NAMES])
            page.wait_for_selector("#digest-test [data-testid=digest] li")
            shown = page.evaluate(_LINES_JS)
            expected = [[kind, elections(lang, told)]] if kind == "election" else [[kind, sentence(lang, e)] for e in told]
            assert [x for x in shown if x[0] == kind] == expected, (kind, shown)
            assert page.locator("#digest-test [data-testid=digest] h2").inner_text() == words["gp.digest.title"]
            assert page.evaluate(_MISFITS_JS) == [], kind
            page.locator("#digest-test").screenshot(path=str(screenshots / f"gp-digest-{lang}-{kind}.png"))
            found = audit.check(page, f"digest {kind}")
            assert not [v for v in found if v["impact"] in ("critical", "serious")], (kind, found)
        # "Got it" puts the card away.
        page.click("#digest-test [data-testid=digest-close]")
        page.wait_for_selector("#digest-test [data-testid=digest]", state="detached")
        print("axe counts", lang, audit.counts())
