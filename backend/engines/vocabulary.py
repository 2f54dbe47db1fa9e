"""Action vocabularies: which fields each action type takes, and their types.

An engine declares one `Vocabulary`; the base class parses every incoming
action with it before the rules see it.  Parsing refuses what is not an
action of the game (MalformedAction) and spells the rest canonically, so it
can be matched to an entry of legal_actions:

* a field with a default may be left out (it then takes the default);
* any other missing field, an ill-typed value or an unknown key is refused:
  a typo such as "regoin" must not silently become another action;
* a list field is sorted into the game's order (a hand of cards, a set of
  provinces), since the order carries no meaning.
"""

from __future__ import annotations

from typing import Any, Iterable

from .base import MalformedAction

REQUIRED = object()


class Field:
    """One field of an action type; `check` returns the canonical value or raises."""

    def __init__(self, default: Any = REQUIRED) -> None:
        self.default = default

    @property
    def optional(self) -> bool:
        return self.default is not REQUIRED

    def check(self, value: Any, name: str) -> Any:  # pragma: no cover
        raise NotImplementedError


class Code(Field):
    """One of a fixed set of strings (a card, a region, a province...), or
    null when `nullable`."""

    def __init__(self, codes: Iterable[str], nullable: bool = False, default: Any = REQUIRED) -> None:
        super().__init__(default)
        self.codes = tuple(codes)
        self._set = frozenset(self.codes)
        self.nullable = nullable

    def check(self, value: Any, name: str) -> Any:
        if value is None and self.nullable:
            return None
        if isinstance(value, str) and value in self._set:
            return value
        if self.nullable:
            raise MalformedAction("\"{field}\" must be null or one of: {choices}.", field=name,
                                  choices=", ".join(self.codes))
        raise MalformedAction("\"{field}\" must be one of: {choices}.", field=name, choices=", ".join(self.codes))


class Int(Field):
    """A whole number (true and false are not numbers here, nor is 1.0) that
    fits in 64 bits: no count in a game comes near, and a longer one would
    only cost time to print."""

    LIMIT = 2**63

    def check(self, value: Any, name: str) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            raise MalformedAction("\"{field}\" must be a whole number.", field=name)
        if not -self.LIMIT <= value < self.LIMIT:
            raise MalformedAction("\"{field}\" is out of range.", field=name)
        return value


class Bool(Field):
    def check(self, value: Any, name: str) -> Any:
        if isinstance(value, bool):
            return value
        raise MalformedAction("\"{field}\" must be true or false.", field=name)


class Codes(Field):
    """A list of codes, any order on input; canonically in the order of
    `codes` (the game's own order of those things)."""

    def __init__(self, codes: Iterable[str], default: Any = REQUIRED) -> None:
        super().__init__(default)
        self.codes = tuple(codes)
        self._rank = {c: i for i, c in enumerate(self.codes)}

    def check(self, value: Any, name: str) -> Any:
        rank = self._rank
        if isinstance(value, list) and all(isinstance(v, str) and v in rank for v in value):
            return sorted(value, key=rank.__getitem__)
        raise MalformedAction("\"{field}\" must be a list of: {choices}.", field=name, choices=", ".join(self.codes))


class Vocabulary:
    """Every action type of a game: {type: {field name: Field}}."""

    def __init__(self, types: dict[str, dict[str, Field]]) -> None:
        self.types = types
        self._type_list = ", ".join(types)
        # Per type: the keys an action may carry, and its fields in order.
        self._specs = {kind: (frozenset(fields) | {"type"}, tuple(fields.items())) for kind, fields in types.items()}
        # Every optional field of a type at its default: what a legal entry that
        # leaves them out stands for.
        self._defaults = {kind: {name: f.default for name, f in fields.items() if f.optional}
                          for kind, fields in types.items()}

    def parse(self, action: Any) -> dict:
        """The action with every field of its type present and canonical."""
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str):
            raise MalformedAction("An action must be an object with a \"type\".")
        spec = self._specs.get(kind)
        if spec is None:
            raise MalformedAction("Unknown action type; the actions of this game are: {types}.", types=self._type_list)
        allowed, fields = spec
        if not allowed.issuperset(action):
            if fields:
                raise MalformedAction("A {type} action takes only these fields: {fields}.", type=kind,
                                      fields=", ".join(self.types[kind]))
            raise MalformedAction("A {type} action takes no fields.", type=kind)
        out = {"type": kind}
        for name, field in fields:
            if name in action:
                out[name] = field.check(action[name], name)
            elif field.default is not REQUIRED:
                out[name] = field.default
            else:
                raise MalformedAction("A {type} action needs \"{field}\".", type=kind, field=name)
        return out

    def find(self, parsed: dict, legal: list[dict]) -> dict | None:
        """The entry of `legal` that `parsed` stands for (a legal entry may
        leave out a field at its default), or None."""
        kind = parsed["type"]
        defaults = self._defaults[kind]
        for entry in legal:
            if entry["type"] == kind and (entry == parsed or {**defaults, **entry} == parsed):
                return entry
        return None
