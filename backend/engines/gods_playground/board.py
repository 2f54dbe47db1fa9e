"""The God's Playground board: loading and checking a board file, and the
default board (board.toml beside this module).

A board file is TOML: `name = "..."` and every value written
`{value = ..., source = "..."}` (board.toml explains the sources).
`parse_board(text)` turns its text into a `Board`, an immutable value with the
plain values, the source of each tagged value and a content hash; a file that
breaks a rule of board_rules.py raises BoardError naming each bad value and the
rule.  Nothing here keeps state: DEFAULT is the one cached, immutable board.

A match keeps the board it was created with in its state ("board": name, hash
and plain values, from the engine's "board" option), and the engine reads the
values through `board_of(state)`; a state stored before boards were files has
none and plays on DEFAULT.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from types import MappingProxyType
from typing import Any

from ..base import canonical
from .board_rules import ENEMIES, PROVINCES, UNITS, problems  # noqa: F401 (the engine imports them from here)

# The game's identities (action codes, i18n keys, seats) are the engine's, not the board's.
SLOTS = PROVINCES + ("royal",)
# Seat 0, 1, 2 (p.2: white Radziwiłł, blue Potocki, red Sapieha).
FAMILIES = ("Radziwiłł", "Potocki", "Sapieha")
COLOURS = ("white", "blue", "red")

SOURCE = re.compile(r"rulebook p\.\d+|research|calibrated|provisional|printed")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,59}")


class BoardError(ValueError):
    """A board file that breaks the rules; `problems` lists every broken rule."""

    def __init__(self, problems: list[str], where: str = "board") -> None:
        self.problems = problems
        super().__init__(f"{where}: " + "; ".join(problems))


@dataclass(frozen=True)
class Board:
    name: str
    hash: str  # SHA-256 of the plain values (canonical JSON): what a match records
    values: Mapping[str, Any]  # read-only: mappings and tuples all the way down
    sources: Mapping[str, str]  # dotted path of each tagged value -> its source

    def to_json(self) -> dict:
        """What a match stores: name, hash and the plain values (JSON)."""
        return {"name": self.name, "hash": self.hash, "values": thaw(self.values)}

    def provisional(self) -> list[str]:
        return [path for path, source in self.sources.items() if source == "provisional"]


def freeze(value):
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value):
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def content_hash(values) -> str:
    return hashlib.sha256(canonical(thaw(values)).encode()).hexdigest()


def _is_tag(node) -> bool:
    return isinstance(node, dict) and set(node) == {"value", "source"}


def _untag(node, path: str, sources: dict, errors: list) -> Any:
    """The plain value of a tagged document; every leaf must sit under exactly one tag."""
    if _is_tag(node):
        source = node["source"]
        if not isinstance(source, str) or not SOURCE.fullmatch(source):
            errors.append(f"{path}: source {source!r} is not one of 'rulebook p.N', 'research', 'calibrated', "
                          "'provisional', 'printed'")
        sources[path] = source
        inner = node["value"]
        if _has_tag(inner):
            errors.append(f"{path}: a tagged value holds another tag")
        return inner
    if isinstance(node, dict):
        return {k: _untag(v, f"{path}.{k}" if path else k, sources, errors) for k, v in node.items()}
    if isinstance(node, list):
        return [_untag(v, f"{path}[{i}]", sources, errors) for i, v in enumerate(node)]
    errors.append(f"{path} = {node!r}: needs its source, written {{value = ..., source = \"...\"}}")
    return node


def _has_tag(node) -> bool:
    if _is_tag(node):
        return True
    if isinstance(node, dict):
        return any(_has_tag(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_tag(v) for v in node)
    return False


def parse_board(text: str, where: str = "board") -> Board:
    """The board a TOML board file's text describes; BoardError if it breaks a rule."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardError([f"not valid TOML: {exc}"], where) from None
    name = doc.pop("name", None)
    errors = [] if isinstance(name, str) and NAME.fullmatch(name) else [
        f"name = {name!r}: must be a name of 1 to 60 letters, digits, spaces, '.', '_' or '-'"]
    sources: dict[str, str] = {}
    values = _untag(doc, "", sources, errors)
    errors += problems(values)
    if errors:
        raise BoardError(errors, where)
    return Board(name, content_hash(values), freeze(values), MappingProxyType(sources))


def board_from_json(stored: Any) -> Board:
    """A board as a match stores it ({"name", "values"}; a stale "hash" is recomputed),
    checked like a file; BoardError otherwise.  Sources are not stored."""
    if not isinstance(stored, dict) or not isinstance(stored.get("values"), dict):
        raise BoardError(["must be an object with \"name\" and \"values\""])
    name = stored.get("name")
    errors = [] if isinstance(name, str) and NAME.fullmatch(name) else [f"name = {name!r}: must be a short name"]
    errors += problems(stored["values"])
    if errors:
        raise BoardError(errors)
    values = thaw(stored["values"])
    return Board(name, content_hash(values), freeze(values), MappingProxyType({}))


DEFAULT = parse_board(files(__package__).joinpath("board.toml").read_text(encoding="utf-8"), "board.toml")


def board_of(s: dict) -> Mapping[str, Any]:
    """The values of the board a state plays on: its own, or DEFAULT for states
    stored before matches recorded their board."""
    stored = s.get("board")
    return stored["values"] if stored is not None else DEFAULT.values


def board_json(s: dict) -> dict:
    """The board a state plays on as a match stores it: {"name", "hash", "values"}."""
    return s.get("board") or DEFAULT_JSON


DEFAULT_JSON = DEFAULT.to_json()  # read-only by convention: views clone what they send

# The values board_rules.STATED pins to the rulebook's numbers: every valid board has
# these, so the engine reads them here.  Everything else a board may change (strength
# tracks, VP, estate rows, arrows, court troops, the royal table, cube counts) is read
# through board_of(state); tests/engines/gods_playground/test_board_file.py checks
# that every BOARD["key"] the engine reads is pinned.
BOARD = DEFAULT.values
HOME = BOARD["enemy_province"]
DIE = BOARD["enemy_die"]
DIE_ENEMY = MappingProxyType({v: k for k, v in DIE.items()})
TURKS_R4_WITH_HABSBURG = BOARD["turks_round4_with_habsburg"]
GARRISON = BOARD["turkish_garrison"]
INFLUENCE_MARKERS = BOARD["influence_markers"]
UNIT_LIMIT = BOARD["unit_limits"]
UNIT_COST = BOARD["unit_cost"]
HIT_ON = BOARD["hit_on"]
ROYAL_LIMIT = BOARD["royal_limits"]
PINNED = {"enemy_province": HOME, "enemy_die": DIE, "turks_round4_with_habsburg": TURKS_R4_WITH_HABSBURG,
          "turkish_garrison": GARRISON, "influence_markers": INFLUENCE_MARKERS, "unit_limits": UNIT_LIMIT,
          "unit_cost": UNIT_COST, "hit_on": HIT_ON, "royal_limits": ROYAL_LIMIT}


def provisional_values() -> list[str]:
    """Dotted paths of every provisional value of the default board (the rules doc lists them)."""
    return DEFAULT.provisional()
