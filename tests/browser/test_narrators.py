"""Every event the engines and the platform can emit has its words in both languages.

The kinds are collected by playing seeded bot games of both engines over their
options (not from a list kept by hand), and each is checked against the narrator
(frontend/js/games/narrate.js): its catalogue entry `ev.<game>.<kind>` (with
`_<reason>` when the event gives a reason) exists in Hungarian and English, every
placeholder of the sentence is a parameter the event carries, and every
parameter holding a code (a card, a region, a province...) is one the narrator
knows how to name. Runs without a browser, like test_catalogues."""

from __future__ import annotations

import random
import re
from functools import cache, partial
from pathlib import Path

from django.conf import settings

from backend.engines import get_engine
from backend.matches import seating

from .test_catalogues import LANGUAGES, catalogue, placeholders

NARRATE = Path(settings.FRONTEND_DIR) / "js" / "games" / "narrate.js"
PLATFORM_KINDS = {"seat_to_bot", "seat_back", "aborted"}

CONDOTTIERE_OPTIONS = [
    (2, {}), (3, {}), (4, {}), (5, {}), (6, {}),
    (3, {"hidden_cards": True}), (4, {"hidden_cards": True, "draw_after_battle": True}),
    (3, {"conquering_regions": True}), (4, {"conquering_regions": True, "hidden_cards": True}),
    (2, {"points": True, "points_target": 12}), (3, {"points": True, "points_target": 5, "draw_after_battle": True}),
    (6, {"larger_kingdoms": True}), (6, {"draw_after_battle": True}), (2, {"conquering_regions": True}),
]
# (players, options, seed, bot): each table of options twice, with the heuristic and the random bot.
CONDOTTIERE_GAMES = [(players, options, seed, bot) for seed, (players, options) in enumerate(CONDOTTIERE_OPTIONS)
                     for bot in ("heuristic", "random")]


def play(game: str, players: int, options: dict, seed: int, bot: str) -> list[dict]:
    """Every event of one game between the engine's `bot` players."""
    engine = get_engine(game)
    state = engine.setup(players, engine.validate_options(options), seed=seed)
    rng = random.Random(seed)
    choose = engine.bots[bot]
    if getattr(choose, "searches", False):  # the master bot: one sampled world a move, not its server second
        choose = partial(choose, iterations=1)
    events: list[dict] = []
    for _ in range(20_000):
        if engine.is_over(state):
            return events
        seat = engine.to_move(state)[0]
        action = choose(engine.view(state, seat), engine.legal_actions(state, seat), rng)
        state, told = engine.step(state, seat, action)
        events += told
    raise AssertionError(f"{game} seed {seed} did not end")


@cache
def emitted() -> dict[str, list[dict]]:
    """game -> every event of its seeded games (God's Playground: 3 players, random and heuristic bots)."""
    out = {"condottiere": [], "gods_playground": []}
    for players, options, seed, bot in CONDOTTIERE_GAMES:
        out["condottiere"] += play("condottiere", players, options, seed, bot)
    gp_bots = sorted(get_engine("gods_playground").bots)
    for seed in range(8):
        out["gods_playground"] += play("gods_playground", 3, {}, seed, gp_bots[seed % len(gp_bots)])
    return out


def platform_events() -> list[dict]:
    return [seating.handed_event(1, seating.TIMEOUT), seating.handed_event(1, seating.RESIGNED),
            seating.handed_event(1, seating.TAKEOVER, by=0), seating.back_event(1), seating.aborted_event(2)]


def narrator_key(event: dict, game: str) -> str:
    """narrate.js's narratorKey: `ev.<game or platform>.<kind>`, `_<reason>` added when the event gives one."""
    ns = "platform" if event["kind"] in PLATFORM_KINDS else game
    reason = event["params"].get("reason")
    return f"ev.{ns}.{event['kind']}" + (f"_{reason}" if reason else "")


def known_params() -> set[str]:
    """The parameter names narrate.js words as a seat, a card, a province... (the rest are numbers)."""
    source = NARRATE.read_text(encoding="utf-8")
    names = set()
    for body in re.findall(r"new Set\(\[([^\]]*)\]\)", source):
        names |= set(re.findall(r'"([a-z_]+)"', body))
    names |= set(re.findall(r'name === "([a-z_]+)"', source))
    return names - PLATFORM_KINDS


def uses(events: list[dict], game: str) -> dict[str, set[str]]:
    """key -> the names its sentences may use: the params, `seat`, and `count` (a seat list's size)."""
    out: dict[str, set[str]] = {}
    for e in events:
        names = set(e["params"])
        if e.get("seat") is not None:
            names.add("seat")
        if any(isinstance(v, list) for v in e["params"].values()):
            names.add("count")
        key = narrator_key(e, game)
        out[key] = out[key] & names if key in out else names  # placeholders must be there every time
    return out


def check_words(events: list[dict], game: str, part: str) -> set[str]:
    known = known_params()
    for e in events:
        coded = {k for k, v in e["params"].items() if not isinstance(v, int | float | type(None)) or isinstance(v, bool)}
        assert coded <= known | {"reason"}, f"{game} {e['kind']}: narrate.js cannot name {sorted(coded - known)}"
    keys = uses(events, game)
    for lang in LANGUAGES:
        words = catalogue(lang, part)
        missing = sorted(k for k in keys if k not in words)
        assert not missing, f"{lang}/{part}: no words for {missing}"
        for key, names in keys.items():
            extra = placeholders(words[key]) - names
            assert not extra, f"{lang}/{part}: {key} uses {sorted(extra)}, which its events do not carry"
    return set(keys)


def test_every_engine_event_has_its_words_in_both_languages():
    for game, events in emitted().items():
        kinds = {e["kind"] for e in events}
        assert len(kinds) >= 20, f"{game}: the seeded games told only {sorted(kinds)}"
        check_words(events, game, f"{game}_events")


def test_every_platform_event_has_its_words_in_both_languages():
    keys = check_words(platform_events(), "any", "site")
    assert {"ev.platform.seat_to_bot_timeout", "ev.platform.seat_back", "ev.platform.aborted"} <= keys


def test_every_event_word_names_a_kind_an_engine_emits():
    """No dead sentences: each `ev.<game>.<kind>` entry's kind is written in that engine's source."""
    root = Path(__file__).resolve().parents[2] / "backend" / "engines"
    for game in ("condottiere", "gods_playground"):
        source = "\n".join(p.read_text(encoding="utf-8") for p in (root / game).glob("*.py"))
        for key in catalogue("en", f"{game}_events"):
            if key.startswith(f"ev.{game}."):
                words = key.split(".")[2].split("_")  # the kind, perhaps followed by a reason
                assert any(f'"{"_".join(words[:i])}"' in source for i in range(len(words), 0, -1)), key
