"""Match operations report the platform's shared {code, message} error (docs/api.md).

Messages are rendered when they are sent, in the language of the connection
or request that receives them: ours through gettext_lazy, the engine's
refusals from their template and parameters.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from backend.common.errors import AppError as MatchError

__all__ = ["MatchError", "engine_refusal", "gettext_lazy"]


class EngineMessage:
    """An engine refusal's sentence, translated when turned into text."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, params: dict):
        self.template, self.params = template, params

    def __str__(self) -> str:
        text = gettext(self.template)
        try:
            return text.format(**self.params)
        except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
            return self.template.format(**self.params)


def engine_refusal(exc) -> MatchError:
    """The platform error for an engine's IllegalAction (its code picks ours)."""
    template = getattr(exc, "template", None)
    message = EngineMessage(template, dict(getattr(exc, "params", {}))) if template else str(exc)
    return MatchError(getattr(exc, "code", "illegal_action"), message)
