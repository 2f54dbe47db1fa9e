"""Condottiere (FFG 2006 edition): the rules engine. See docs/rules/condottiere.md."""

from .engine import CondottiereEngine

ENGINE = CondottiereEngine()

try:  # the bots live in their own module, written separately
    from .bots import BOTS

    ENGINE.bots.update(BOTS)
except ImportError:
    pass
