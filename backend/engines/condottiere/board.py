"""The map of Italy: 17 regions and their 34 borders.

Source: /work/shared/boards/condottiere.md section 1.3 (FFG board photo, checked
against two independent implementations).  Region ids are the lower-case
names of the dominant cities.
"""

from __future__ import annotations

REGIONS = (
    "torino", "milano", "venezia", "genova", "mantova", "ferrara", "parma", "modena", "bologna",
    "lucca", "firenze", "siena", "urbino", "ancona", "spoleto", "roma", "napoli",
)

_EDGES = (
    ("torino", "milano"), ("torino", "genova"), ("milano", "genova"), ("milano", "parma"),
    ("milano", "modena"), ("milano", "mantova"), ("milano", "venezia"), ("genova", "parma"),
    ("venezia", "mantova"), ("venezia", "ferrara"), ("mantova", "ferrara"), ("mantova", "modena"),
    ("ferrara", "modena"), ("ferrara", "bologna"), ("parma", "modena"), ("parma", "lucca"),
    ("modena", "bologna"), ("modena", "lucca"), ("modena", "firenze"), ("bologna", "firenze"),
    ("bologna", "urbino"), ("lucca", "firenze"), ("firenze", "siena"), ("firenze", "urbino"),
    ("firenze", "spoleto"), ("firenze", "roma"), ("siena", "roma"), ("urbino", "spoleto"),
    ("urbino", "ancona"), ("ancona", "spoleto"), ("ancona", "napoli"), ("spoleto", "roma"),
    ("spoleto", "napoli"), ("roma", "napoli"),
)

ADJACENCY: dict[str, tuple[str, ...]] = {
    r: tuple(sorted({b for a, b in _EDGES if a == r} | {a for a, b in _EDGES if b == r})) for r in REGIONS
}
_REGION_SET = frozenset(REGIONS)


def is_region(value) -> bool:
    return isinstance(value, str) and value in _REGION_SET


def largest_group(regions) -> int:
    """Size of the largest connected set of the given regions (p. 2: adjacent = common border)."""
    todo = set(regions)
    best = 0
    while todo:
        stack = [todo.pop()]
        size = 0
        while stack:
            size += 1
            for nb in ADJACENCY[stack.pop()]:
                if nb in todo:
                    todo.remove(nb)
                    stack.append(nb)
        best = max(best, size)
    return best


def targets(num_players: int, larger_kingdoms: bool) -> dict:
    """Regions needed to win (p. 16), raised by one adjacent region with Larger Kingdoms (p. 18)."""
    if num_players <= 3:
        return {"total": 6, "adjacent": 5 if larger_kingdoms else 4}
    return {"total": 5, "adjacent": 4 if larger_kingdoms else 3}
