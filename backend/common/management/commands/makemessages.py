"""Django's makemessages, which also collects the engines' refusal templates.

Engines are pure Python without gettext: a refusal is raised as
`NotLegal("You do not hold that card.")` (backend/engines/base.py), so the
refusal classes are extra keywords for xgettext; the platform translates the
template when it answers (backend/matches/errors.py). Django documents
extending `xgettext_options` by overriding the command this way.
"""

from django.core.management.commands import makemessages

# The refusal classes whose first argument is a message template (docs/engines.md, Refusals).
REFUSAL_KEYWORDS = ("IllegalAction", "MalformedAction", "NotYourTurn", "NotLegal")


class Command(makemessages.Command):
    xgettext_options = makemessages.Command.xgettext_options + [f"--keyword={k}" for k in REFUSAL_KEYWORDS]
