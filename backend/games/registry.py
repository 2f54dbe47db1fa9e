"""The games this site offers, each described by one manifest (docs/new-game.md).

A manifest is a TOML file (backend/games/manifests/<id>.toml) naming what the platform needs to know of a
game: its engine module, its names in each language, its table's and rules page's modules, stylesheets and
words in frontend/, and the hooks of a game with settings of its own. The catalogue, lobbies and matches,
the page titles, the shell's preloads and the app's loaders read it from here; nothing else names a game.

settings.GAMES lists the manifest files, in the order the site shows the games. Each manifest's engine is
registered with backend.engines when the list is read: at start (backend/matches/apps.py) and whenever
the setting changes (a test's override).
"""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.utils import translation

from backend import engines


@dataclass(frozen=True)
class Part:
    """A module of the app with what loads alongside it (paths relative to frontend/)."""
    module: str
    export: str
    modules: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Game:
    id: str
    engine: str  # the module holding ENGINE
    name: dict[str, str]  # language -> the game's name
    pitch: dict[str, str] = field(default_factory=dict)  # language -> its line on the home page (if the app's words lack one)
    default_players: int | None = None  # the seats a new lobby offers first (else the engine's minimum)
    pieces: dict[str, str] = field(default_factory=dict)  # refusal parameter -> prefix of its words' keys
    options: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)  # option -> label/help -> language -> text
    table: Part | None = None  # None: the generic table
    events: str | None = None  # the word part of the log's sentences
    rules: Part | None = None  # the page /rules/<id>, if the game has one
    titles: dict[str, dict[str, str]] = field(default_factory=dict)  # "rules"/"leaderboard" -> language -> title
    match_options: str | None = None  # dotted name of f(options) -> options a new match stores
    describe: str | None = None  # dotted name of f() -> what the catalogue adds to the game's entry

    def words(self, names: dict[str, str]) -> str:
        """`names` (language -> text) in the active language, else in English."""
        return names.get(translation.get_language() or "", names.get("en", ""))

    @property
    def display_name(self) -> str:
        return self.words(self.name)

    def title(self, page: str) -> str | None:
        return self.words(self.titles[page]) if page in self.titles else None


def _part(data: dict | None, where: str) -> Part | None:
    if data is None:
        return None
    try:
        return Part(data["module"], data["export"], *(tuple(data.get(k, ())) for k in ("modules", "styles", "words")))
    except KeyError as exc:
        raise ImproperlyConfigured(f"{where}: needs {exc.args[0]!r}") from None


def load_manifest(path: str | Path) -> Game:
    """The game a manifest file describes; ImproperlyConfigured naming the file and what is wrong."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        table, rules = data.get("table"), data.get("rules")
        return Game(
            id=data["id"], engine=data["engine"], name=dict(data["name"]), pitch=dict(data.get("pitch", {})),
            default_players=data.get("default_players"), pieces=dict(data.get("pieces", {})),
            options={key: {k: dict(v) for k, v in words.items()} for key, words in data.get("options", {}).items()},
            table=_part(table, f"{path} [table]"), events=(table or {}).get("events"),
            rules=_part(rules, f"{path} [rules]"),
            titles={page: dict(data[page]["title"]) for page in ("rules", "leaderboard") if "title" in data.get(page, {})},
            match_options=data.get("match_options"), describe=data.get("describe"),
        )
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ImproperlyConfigured(f"game manifest {path}: {exc}") from None
    except KeyError as exc:
        raise ImproperlyConfigured(f"game manifest {path}: needs {exc.args[0]!r}") from None


@cache
def _load(paths: tuple[str, ...]) -> dict[str, Game]:
    found = {}
    for path in paths:
        game = load_manifest(path)
        if game.id in found:
            raise ImproperlyConfigured(f"game manifest {path}: the id {game.id!r} is taken")
        found[game.id] = game
    return found


_registered: dict[str, str] = {}  # what this module registered with backend.engines: id -> engine module


def games() -> dict[str, Game]:
    """Every game the site offers, by id, in settings.GAMES's order; their engines registered."""
    found = _load(tuple(str(p) for p in settings.GAMES))
    wanted = {g.id: g.engine for g in found.values()}
    if wanted != _registered:
        for gone in set(_registered) - set(wanted):
            engines.register(gone, None)
        for game_id, module in wanted.items():
            engines.register(game_id, module)
        _registered.clear()
        _registered.update(wanted)
    return found


def game(game_id: str) -> Game | None:
    return games().get(game_id)


def hook(dotted: str):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _reload(setting, **kwargs):
    if setting == "GAMES":
        games()


setting_changed.connect(_reload, dispatch_uid="games.registry")


def new_match_options(game_id: str, options: dict) -> dict:
    """Options as a new match of `game_id` stores them: what its manifest's `match_options` hook makes of them."""
    described = game(game_id)
    return hook(described.match_options)(options) if described and described.match_options else options


def for_the_app() -> list[dict]:
    """What the web app reads of each game (the shell's boot data; frontend/js/games/registry.js): its name and
    pitch in each language (the app switches without a reload), its table's and rules page's modules with what
    loads alongside, its log's words."""
    def part(p: Part | None) -> dict | None:
        return p and {"module": p.module, "export": p.export, "modules": list(p.modules), "styles": list(p.styles),
                      "words": list(p.words)}
    return [{"id": g.id, "name": g.name, "pitch": g.pitch, "default_players": g.default_players,
             "table": part(g.table),
             "events": g.events, "rules": part(g.rules)} for g in games().values()]
