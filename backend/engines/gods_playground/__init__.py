"""God's Playground rules engine (see docs/rules/gods_playground.md)."""

from .engine import ENGINE, GodsPlaygroundEngine

__all__ = ["ENGINE", "GodsPlaygroundEngine"]
