"""Condottiere (FFG 2006 edition): the rules engine. See docs/rules/condottiere.md."""

from .engine import CondottiereEngine

ENGINE = CondottiereEngine()
