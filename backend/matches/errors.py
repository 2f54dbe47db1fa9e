"""Match operations report the platform's shared {code, message} error (docs/api.md).

Messages are rendered when they are sent, in the language of the connection
or request that receives them: ours through gettext_lazy, the engine's
refusals from their template and parameters.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from backend.common.errors import AppError as MatchError
from backend.games.pieces import name_pieces

__all__ = ["MatchError", "engine_refusal", "gettext_lazy"]


class EngineMessage:
    """An engine refusal's sentence, translated (pieces named) when turned into text."""

    __slots__ = ("template", "params", "game")

    def __init__(self, template: str, params: dict, game: str):
        self.template, self.params, self.game = template, params, game

    def __str__(self) -> str:
        params = name_pieces(self.game, self.params)
        try:
            return gettext(self.template).format(**params)
        except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
            return self.template.format(**params)


def engine_refusal(exc, game: str) -> MatchError:
    """The platform error for an engine's refusal (its code is ours)."""
    return MatchError(exc.code, EngineMessage(exc.template, dict(exc.params), game))
