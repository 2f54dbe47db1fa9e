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
    _("Everyone starts with 7 cards and there are no rounds: after every battle each player draws up to 3 cards."),
    _("Play for points"),
    _("Several games in a row: each region you hold when a game ends is worth 1 point, a win by bordering regions 5 more. The first to reach the target wins."),
    _("Points to reach"),
    _("How many points win the match when playing for points."),
    _("Larger kingdoms"),
    _("A win by bordering regions needs one region more than usual."),
    _("Conquering regions"),
    _("Battles may also be fought over regions someone already holds: the holder defends, may wait before playing a card, and keeps the region on a tie."),
    _("Hidden cards"),
    _("Mercenaries, Drummers, Heroines and Courtesans are played face down, so the others see only part of your strength."),
)
