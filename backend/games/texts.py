"""The engines' words players read: game names and the labels and help of their options.

Engines are pure Python without Django, so their texts are English; these
markers put the same sentences into the translation catalogues (makemessages
finds them here) and catalog.py translates them when it answers. Keep this list
in step with the engines: tests/platform/test_i18n.py fails when a game's name
or a player-facing option text is missing here or has no Hungarian.
"""

from django.utils.translation import gettext_noop as _

TEXTS = (
    # Game names (the Hungarian editions' titles).
    _("Condottiere"),
    _("God's Playground"),
    # Condottiere's options.
    _("Draw after battle"),
    _("Start with 7 cards and draw up to 3 after every battle (p. 17)."),
    _("Play for points"),
    _("Several games; 1 point per region, +5 for an adjacency win (p. 18)."),
    _("Points to reach"),
    _("Used with 'Play for points'."),
    _("Larger kingdoms"),
    _("One more adjacent region is needed to win (p. 18)."),
    _("Conquering regions"),
    _("Controlled regions may be attacked; the defender has privileges (p. 19)."),
    _("Hidden cards"),
    _("Mercenaries, Drummers, Heroines and Courtesans are played face down (pp. 19-20)."),
)
