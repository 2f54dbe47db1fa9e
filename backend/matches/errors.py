"""Match operations report the platform's shared {code, message} error (docs/api.md)."""

from backend.common.errors import AppError as MatchError

__all__ = ["MatchError"]
