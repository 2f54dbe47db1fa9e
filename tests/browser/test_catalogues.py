"""The app's words (frontend/i18n/<lang>/<part>.json), checked without a browser: both languages hold the
same keys with the same placeholders, every key the code names exists where that code can read it, no key
is dead, and every card, region, province, enemy, unit and phase the engines know has its name.

A key is written whole as a string literal (`t("lobby.kick")`, or as one branch of a condition), or as a
template whose fixed parts name a family of keys (`t(`gp.phase.${id}`)`). The browser tests add the
runtime check: a missing key logs a console error, which fails them (frontend/js/i18n.js)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings

from backend.engines.condottiere.cards import DECK_COUNTS
from backend.engines.gods_playground import board as gp_board
from backend.engines.gods_playground import flow as gp_flow
from backend.games import registry

ROOT = Path(settings.FRONTEND_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES]
GAMES = tuple(registry.games())  # the site's games, from their manifests
SCREENS = ("players", "replay")  # screens with words of their own (screens/<part>.js loads them)
KEY = r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+"
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dupes = {k for k in keys if keys.count(k) > 1}
    assert not dupes, f"duplicate keys: {sorted(dupes)}"
    return dict(pairs)


def catalogue(lang: str, part: str) -> dict:
    return json.loads((ROOT / "i18n" / lang / f"{part}.json").read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)


def parts() -> list[str]:
    return sorted(p.stem for p in (ROOT / "i18n" / "en").glob("*.json"))


# Parts a page loads on first use, and the modules that load them with themselves (frontend/README.md, Loading):
# every screen but the match's and the rules pages ("screens", js/main.js), the match screen's parts shown
# on a tap or in a rare state: the menu's dialogs, the rematch, the seat notices and tags ("match_menu", js/match/menu.js,
# rematch.js, seats.js), God's Playground's decision panels
# ("gods_playground_nobles" for the nobles' layout, "gods_playground_bid" for the bids, "gods_playground_decide" for the others;
# js/games/gods_playground/table.js), and each game's event words with the log's narrator ("<game>_events",
# js/games/log.js).
LATER = {
    "screens": {f"js/screens/{m}.js" for m in ("home", "auth", "create_lobby", "lobby_room", "matches", "reset", "account",
                                                "confirm_email")}
    | {"js/match/time_control.js"},
    "match_menu": {"js/match/menu_dialogs.js", "js/match/rematch_offer.js", "js/match/seat_notices.js", "js/match/seat_tags.js",
                   "js/match/confirm.js"},
    "gods_playground_decide": {f"js/games/gods_playground/{m}.js" for m in ("decide", "chooser")},
    "gods_playground_bid": {"js/games/gods_playground/bid.js"},
    "gods_playground_nobles": {"js/games/gods_playground/nobles.js"},
    **{f"{game}_events": {"js/games/narrate.js"} for game in GAMES},
}


def readable_parts(module: Path) -> tuple[str, ...]:
    """The catalogues a module can rely on: the site's; in a game's folder its game's, and its rules' (the table's
    help fetches those when it first opens, js/help.js); a game's rules page (screens/rules_<game>.js) both too;
    and a part loaded on first use (LATER) for the modules that come with it."""
    rel = module.relative_to(ROOT / "js").parts
    later = tuple(part for part, readers in LATER.items() if module.relative_to(ROOT).as_posix() in readers)
    if rel == ("games", "narrate.js"):
        return ("site", *GAMES, *later)  # the log's narrator words the events of the game whose table loaded it
    if rel[0] == "games" and rel[1] in GAMES:
        return ("site", rel[1], f"rules_{rel[1]}", *later)
    if rel == ("chat.js",):
        return ("site", "chat")  # the chat panel loads its words with it (js/chat_button.js)
    if rel[0] == "screens" and module.stem.startswith("rules_") and module.stem[len("rules_"):] in GAMES:
        game = module.stem[len("rules_"):]
        return ("site", game, f"rules_{game}")
    if rel[0] == "screens" and module.stem in SCREENS:
        return ("site", module.stem, *later)
    return ("site", *later)


def test_what_loads_a_later_part_loads_its_modules_with_it():
    """A part loaded on first use is fetched by the code that fetches the modules reading it, awaited with them,
    so no word is missing (shown as its key) when they first draw: each reader is either imported with import()
    beside that loadWords, or imported only by other readers of the part."""
    loaders = {"screens": ["js/main.js"], "match_menu": ["js/match/menu.js", "js/match/rematch.js", "js/match/seats.js"],
               "gods_playground_decide": ["js/games/gods_playground/table.js"],
               "gods_playground_nobles": ["js/games/gods_playground/table.js"],
               "gods_playground_bid": ["js/games/gods_playground/table.js"],
               **{f"{game}_events": ["js/games/log.js"] for game in GAMES}}
    # The log loads the word part its game's manifest names for the events.
    assert {registry.game(game).events for game in GAMES} == {f"{game}_events" for game in GAMES}
    for part, files in loaders.items():
        fetched = set()
        for loader in files:
            text = (ROOT / loader).read_text(encoding="utf-8")
            call = "loadWords(events)" if part.endswith("_events") else f'loadWords("{part}")'
            assert call in text, (loader, part)
            here = (ROOT / loader).parent
            fetched |= {(here / spec).resolve().relative_to(ROOT.resolve()).as_posix()
                        for spec in re.findall(r'import\("(\.[^"]+)"\)', text)}
        for reader in LATER[part]:
            if reader in fetched:
                continue
            name = Path(reader).name
            importers = {m.relative_to(ROOT).as_posix() for m in modules()
                         if re.search(rf'from\s+"[./]*(?:[\w]+/)*{re.escape(name)}"', m.read_text(encoding="utf-8"))}
            assert importers and importers <= LATER[part], (part, reader, importers)


def _game_words(lang: str, game: str) -> dict:
    """Every word a game's table may show: its part and its parts loaded on first use."""
    words = catalogue(lang, game)
    for part in LATER:
        if part.startswith(game + "_"):
            words |= catalogue(lang, part)
    return words


def modules() -> list[Path]:
    return sorted((ROOT / "js").rglob("*.js"))


def used_keys(module: Path) -> tuple[set[str], list[re.Pattern]]:
    """(keys written whole, patterns of the template keys) in a module's source."""
    text = module.read_text(encoding="utf-8")
    literal = set(re.findall(rf'"({KEY})"', text))
    patterns = []
    for template in re.findall(r"`([a-z][a-z0-9_]*\.[^`]*?\$\{[^`]*?)`", text):
        fixed = re.split(r"\$\{(?:[^{}]|\{[^}]*\})*\}", template)
        patterns.append(re.compile("[a-z0-9_]*".join(re.escape(f) for f in fixed)))
    return literal, patterns


def placeholders(value) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    # `{az:name}` is `{name}` with Hungarian's article before it (js/i18n.js).
    return {name for text in texts for name in re.findall(r"\{(?:[Aa]z:)?(\w+)\}", text)}


RULES = tuple(f"rules_{game}" for game in GAMES)


@pytest.mark.parametrize("part", ["site", "chat", *GAMES, *RULES, *SCREENS, *LATER])
def test_every_language_has_the_same_keys_and_placeholders(part):
    assert set(parts()) == {"site", "chat", *GAMES, *RULES, *SCREENS, *LATER}
    words = {lang: catalogue(lang, part) for lang in LANGUAGES}
    en = words["en"]
    for lang, other in words.items():
        assert set(other) == set(en), f"{lang}/{part}: missing {sorted(set(en) - set(other))}, extra {sorted(set(other) - set(en))}"
        for key, value in other.items():
            assert value, f"{lang}/{part}: {key} is empty"
            if isinstance(value, dict):
                assert "other" in value and set(value) <= PLURAL_FORMS and all(value.values()), f"{lang}/{part}: {key}"
            else:
                assert isinstance(value, str), f"{lang}/{part}: {key}"
            assert placeholders(value) == placeholders(en[key]), f"{lang}/{part}: {key} has other placeholders than English"


def test_every_key_the_code_names_exists_where_it_is_read():
    missing = []
    for module in modules():
        available = set().union(*(catalogue(lang, part) for part in readable_parts(module) for lang in LANGUAGES))
        literal, patterns = used_keys(module)
        missing += [f"{module.relative_to(ROOT)}: {key}" for key in sorted(literal - available)]
        missing += [f"{module.relative_to(ROOT)}: {p.pattern} matches no key" for p in patterns
                    if not any(p.fullmatch(k) for k in available)]
    assert not missing, "\n".join(missing)


def test_no_key_is_dead():
    """Every word in a catalogue is named by code that reads that catalogue (dead words would weigh on every page)."""
    dead = []
    for part in parts():
        readers = [m for m in modules() if part in readable_parts(m)]
        literal: set[str] = set()
        patterns: list[re.Pattern] = []
        for module in readers:
            found, templates = used_keys(module)
            literal |= found
            patterns += templates
        dead += [f"{part}: {key}" for key in catalogue("en", part)
                 if key not in literal and not any(p.fullmatch(key) for p in patterns)]
    assert not dead, dead


def test_the_engines_pieces_all_have_names():
    """What the engines can put on the table (cards, provinces, enemies, units, phases, passes) has words in both languages."""
    needed = {
        "condottiere": [f"cd.card.{code}" for code in DECK_COUNTS],
        "gods_playground": [f"gp.prov.{p}" for p in (*gp_board.SLOTS, "habsburg")]
        + [f"gp.abbr.{p}" for p in gp_board.SLOTS]
        + [f"gp.{kind}.{c}" for c in gp_board.ENEMIES for kind in ("enemy", "ecolour")]
        + [f"gp.unit.{u}" for u in (*gp_board.UNITS, "cossack")]
        + [f"gp.phase.{p}" for p in (*gp_flow.PHASES, "setup")]
        + [f"gp.pass.{p}" for p in gp_flow.AUTO_PASS]
        + [f"gp.colour.{seat}" for seat in range(len(gp_board.FAMILIES))],
    }
    for part, keys in needed.items():
        for lang in LANGUAGES:
            words = _game_words(lang, part)
            assert not [k for k in keys if k not in words], (lang, part, [k for k in keys if k not in words])
