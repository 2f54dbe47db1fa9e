"""Match operations that run in a transaction of their own (synchronous code).

Creating a match, and the one-by-one apply path: the SQLite server's only
path, PostgreSQL's for what its group commit cannot settle.  Nothing here
announces anything: whoever commits tells the runtime (after the commit),
either by awaiting these functions from it or through the `on_commit` hook
a caller hands in.
"""

from __future__ import annotations

from typing import Callable

from django.contrib.auth import get_user_model
from django.db import transaction

from backend.engines import get_engine

from . import store
from .domain import Applied, MatchInfo, check, valid_client_id
from .errors import MatchError, gettext_lazy as _
from .models import Match, MatchSeat

OnCommit = Callable[[int], None]  # called with the match id once the change is committed


def create_match(game_id: str, options: dict, players: list, seed: int, public: bool = True,
                 on_commit: OnCommit | None = None) -> Match:
    """Start a match; `players` in final seat order, each a User or a bot name.

    Raises KeyError for an unknown game and ValueError for bad options, player
    counts or bot names."""
    engine = get_engine(game_id)
    options = engine.validate_options(options)
    state = engine.setup(len(players), options, seed)
    User = get_user_model()
    for player in players:
        if isinstance(player, str):
            if player not in engine.bots:
                raise ValueError(f"Unknown bot {player!r}; {engine.name} has {', '.join(engine.bots) or 'none'}.")
        elif not isinstance(player, User):
            raise ValueError("Each player must be a user or a bot name.")
    with transaction.atomic():
        match = Match.objects.create(game=game_id, options=options, seed=seed, state=state, public=public)
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, seat=i, user=None if isinstance(p, str) else p, bot=p if isinstance(p, str) else "")
            for i, p in enumerate(players)
        )
        if on_commit is not None:
            transaction.on_commit(lambda: on_commit(match.pk))
    return match


def apply_action(match_id: int, seat: int | None, version: int, action: dict, client_id: str,
                 info: MatchInfo | None = None, on_commit: OnCommit | None = None) -> Applied:
    """Apply `action` for `seat` if the match is still at `version`, reading
    everything from the database.

    Raises MatchError (bad_message, not_found, forbidden, stale_version,
    not_your_turn, illegal_action).  A client id already in the log returns
    `duplicate=True` and changes nothing."""
    if not valid_client_id(client_id):
        raise MatchError("bad_message", _("The action id must be a string of 1 to 64 characters."))
    info = info or store.read_info(match_id)
    if info is None:
        raise MatchError("not_found", _("There is no such match."))
    if seat is None or not 0 <= seat < len(info.seats):
        raise MatchError("forbidden", _("Spectators cannot act."))
    snapshot = store.read_snapshot(info)
    if snapshot.version != version:
        return _not_written(info, client_id, store.DUPLICATE if store.was_applied(match_id, client_id) else store.STALE)
    move = check(info, snapshot, seat, action, client_id)
    with transaction.atomic():
        outcome = store.write(move)
        if outcome == store.WRITTEN and on_commit is not None:
            transaction.on_commit(lambda: on_commit(match_id))
    if outcome == store.WRITTEN:
        return Applied(move.applied, move.events, False)
    return _not_written(info, client_id, outcome)


def _not_written(info: MatchInfo, client_id: str, outcome: str) -> Applied:
    if outcome == store.DUPLICATE:
        return Applied(store.read_snapshot(info), [], True)
    raise MatchError("stale_version", _("The match has moved on; resync and try again."))
