"""The God's Playground board this server gives new matches: the operator's
file named by the GP_BOARD_FILE setting, else the engine's default board.

Read and checked once, when Django starts (backend/matches/apps.py): a file
that breaks a rule stops the server with a message naming the value and the
rule.  Changing the file takes a restart; running matches keep their board
(it is in their options and state).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from backend.engines.gods_playground.board import (
    DEFAULT,
    Board,
    BoardError,
    parse_board,
)

def load_board_file(path: str) -> Board:
    """The board a file describes; ImproperlyConfigured naming the file, each bad value and its rule."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ImproperlyConfigured(f"GP_BOARD_FILE={path}: cannot read it ({exc})") from None
    try:
        return parse_board(text, where=f"GP_BOARD_FILE={path}")
    except BoardError as exc:
        raise ImproperlyConfigured("\n  ".join([f"GP_BOARD_FILE={path} breaks the board's rules:", *exc.problems])) from None


@cache
def server_board() -> Board:
    """The configured board (cached for the process: the file is read once)."""
    return load_board_file(settings.GP_BOARD_FILE) if settings.GP_BOARD_FILE else DEFAULT


def match_options(options: dict) -> dict:
    """Options as a new match stores them: the server's board unless one is given (a test's), so the match
    replays on it for ever (the game's manifest names this hook)."""
    if options.get("board") is not None:
        return options
    return {**options, "board": server_board().to_json()}


def describe() -> dict:
    """What the catalogue adds to God's Playground's entry: the board new matches get, as a view carries it (the
    rules page draws from it)."""
    from backend.engines.gods_playground.view import BOARD_VALUES

    board = server_board().to_json()
    return {"board": {"name": board["name"], "hash": board["hash"], "values": {k: board["values"][k] for k in BOARD_VALUES}}}
