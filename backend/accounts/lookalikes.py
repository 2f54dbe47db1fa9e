"""Names that imitate other names: Unicode's skeletons (UTS #39) and mixed scripts.

Two names are look-alikes when their keys are equal: the key is the UTS #39
skeleton (each character replaced by the prototype of its confusables, on
the decomposed text) of the case-folded skeleton of the name, so that "pope"
and Cyrillic "роре", "ABE" and Greek "ΑΒΕ", "Kati" and "Katı" (dotless ı),
"larpad" and "Iarpad" share one. Case folding comes between two skeletons
because confusables are case-sensitive (Greek capital Α is Latin A, but its
small α is not a): the first pass turns look-alike capitals into Latin ones
before folding, the second maps what folding made.

The data is Unicode's confusables.txt and Scripts.txt as the pinned
`confusable-homoglyphs` package ships them, read through its public
functions. It keeps each pair both ways without saying which side is the
prototype; the prototype of a character is found from the shape of the
pairs: a character with several confusables is the prototype they map to, a
character with one maps to it (or, when the two only map to each other, the
smaller of the two stands for both, which keeps equal keys equal). Characters
of right-to-left scripts are stored wrapped in direction marks and are not
found this way; a name can mix them with nothing else (mixed_scripts).

A key is kept per account (User.username_lookalike) and compared at sign-up;
after the package's data changes, `manage.py lookalike_names --refresh`
recomputes them and lists existing clashes.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables
from django.db.models import Count

from .keys import fold

_IGNORED_SCRIPTS = {"COMMON", "INHERITED"}  # digits, signs, combining marks: part of any script
# Scripts that are written together (UTS #39's "highly restrictive" sets): Japanese, Chinese with
# Bopomofo, Korean, each also with Latin.
_TOGETHER = (
    {"LATIN", "HAN", "HIRAGANA", "KATAKANA"},
    {"LATIN", "HAN", "BOPOMOFO"},
    {"LATIN", "HAN", "HANGUL"},
)


def mixed_scripts(name: str) -> bool:
    """Letters of more than one script, beyond those written together."""
    scripts = categories.unique_aliases(name) - _IGNORED_SCRIPTS
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in _TOGETHER)


@lru_cache(maxsize=4096)
def _confusables(char: str) -> tuple[str, ...]:
    found = confusables.is_confusable(char, greedy=True)
    return tuple(h["c"] for h in found[0]["homoglyphs"]) if found else ()


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    near = _confusables(char)
    if len(near) != 1:
        return char  # none, or the prototype several characters map to
    (other,) = near
    if len(other) == 1 and len(_confusables(other)) == 1:
        return min(char, other)  # a pair that only map to each other: one stands for both
    return other


def skeleton(text: str) -> str:
    """UTS #39 skeleton: decompose, replace each character by its prototype, decompose again."""
    out = text
    for _pass in range(2):  # a prototype of several characters (m: rn) is made of prototypes; one more pass settles it
        out = unicodedata.normalize("NFD", "".join(_prototype(c) for c in unicodedata.normalize("NFD", out)))
    return out


def lookalike_key(name: str) -> str:
    return skeleton(fold(skeleton(name)))


def refill(user_model, batch: int = 500) -> int:
    """Recompute every account's key (the migration, and after the confusables data changed); how many changed."""
    changed = 0
    rows = user_model._default_manager.order_by("pk").only("pk", "username", "username_lookalike")
    pending = []
    for user in rows.iterator(chunk_size=batch):
        key = lookalike_key(user.username)
        if key != user.username_lookalike:
            user.username_lookalike = key
            pending.append(user)
        if len(pending) >= batch:
            changed += user_model._default_manager.bulk_update(pending, ["username_lookalike"])
            pending = []
    if pending:
        changed += user_model._default_manager.bulk_update(pending, ["username_lookalike"])
    return changed


def clashes(user_model) -> tuple[list[list], list]:
    """The groups of accounts whose names look alike (each oldest first), and the accounts whose name mixes scripts."""
    users = user_model._default_manager
    shared = (users.values("username_lookalike").annotate(n=Count("pk")).filter(n__gt=1)
              .values_list("username_lookalike", flat=True))
    groups: dict[str, list] = {}
    for user in users.filter(username_lookalike__in=list(shared)).order_by("username_lookalike", "pk"):
        groups.setdefault(user.username_lookalike, []).append(user)
    mixed = [user for user in users.order_by("pk").only("pk", "username", "date_joined").iterator()
             if mixed_scripts(user.username)]
    return list(groups.values()), mixed
