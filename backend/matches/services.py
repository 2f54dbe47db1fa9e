"""Match operations that run in a transaction of their own (synchronous code).

Creating a match, and the one-by-one apply path: the SQLite server's only
path, PostgreSQL's for what its group commit cannot settle.  Nothing here
announces anything: whoever commits tells the runtime (after the commit),
either by awaiting these functions from it or through the `on_commit` hook
a caller hands in.
"""

from __future__ import annotations

from typing import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch

from backend.engines import get_engine
from backend.games.registry import new_match_options
from backend.notifications.models import MATCH_START, enqueue

from . import clock as clocks
from . import domain, seating, store, timing
from .domain import Applied, MatchInfo, check, public_asked, valid_client_id
from .errors import MatchError, gettext_lazy as _
from .models import Match, MatchSeat

OnCommit = Callable[[int], None]  # called with the match id once the change is committed

SEATS = Prefetch("seats", queryset=MatchSeat.objects.select_related("user").order_by("seat"))


def visible_match(match_id: int, user) -> Match:
    """The match with its seats, if `user` (anonymous too) may read it: a public
    match anyone, a private one its players only; raises MatchError otherwise."""
    match = Match.objects.prefetch_related(SEATS).filter(pk=match_id).first()
    if match is None:
        raise MatchError("not_found", _("There is no such match."))
    if not match.public:
        if user is None or not user.is_authenticated:
            raise MatchError("unauthenticated", _("Log in to see this private match."))
        if not any(s.user_id == user.pk for s in match.seats.all()):
            raise MatchError("forbidden", _("This match is private."))
    return match


def create_match(game_id: str, options: dict, players: list, seed: int, public: bool = True,
                 time_control: dict | None = None, on_commit: OnCommit | None = None, rated: bool = False) -> Match:
    """Start a match; `players` in final seat order, each a User or a bot name;
    `rated`: its result changes the players' ratings (people only, two or more).

    Raises KeyError for an unknown game and ValueError for bad options, player
    counts, bot names, time controls (clock.TimeControlError) or a rated match
    with a bot."""
    engine = get_engine(game_id)
    options = new_match_options(game_id, engine.validate_options(options))
    state = engine.setup(len(players), options, seed)
    User = get_user_model()
    for player in players:
        if isinstance(player, str):
            if player not in engine.bots:
                raise ValueError(f"Unknown bot {player!r}; {engine.name} has {', '.join(engine.bots) or 'none'}.")
        elif not isinstance(player, User):
            raise ValueError("Each player must be a user or a bot name.")
    owners = [None if isinstance(p, str) else p.pk for p in players]
    if rated and (None in owners or len(set(owners)) < 2):
        raise ValueError("A rated match needs two or more people and no bot.")
    now = timing.now_ms()
    clock_fields = timing.start_fields(time_control, owners, public_asked(engine, state), now)
    seen = timing.start_seen(owners, now)
    with transaction.atomic():
        match = Match.objects.create(game=game_id, options=options, seed=seed, state=state, public=public,
                                     rated=bool(rated), **clock_fields)
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, seat=i, user=None if isinstance(p, str) else p, bot=p if isinstance(p, str) else "",
                      seen_ms=seen[i])
            for i, p in enumerate(players)
        )
        if clocks.is_turn_based(time_control):  # the others are played with the page open
            enqueue(MATCH_START, owners, match.pk)
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
        raise MatchError("bad_message", _('The action id must be a string of 1 to 64 characters, not beginning '
                                          'with "bot:" or "platform:" (the server\'s own moves).'))
    info = info or store.read_info(match_id)
    if info is None:
        raise MatchError("not_found", _("There is no such match."))
    if seat is None or not 0 <= seat < len(info.seats):
        raise MatchError("forbidden", _("Spectators cannot act."))
    snapshot = store.read_snapshot(info)
    if snapshot.version != version:
        return _not_written(info, client_id, store.DUPLICATE if store.was_applied(match_id, client_id) else store.STALE)
    move = check(info, snapshot, seat, action, client_id, timing.now_ms())
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


# ---- who plays a seat: resign, abort, takeover, reclaim (REST) ---------------
def _seat_change(match_id: int, user, decide: Callable, on_commit: OnCommit | None) -> Applied:
    """Read the match, let `decide(info, snapshot, now)` check the rules and make
    the move (raising AppError to refuse), write it under the version check.
    An action that slips in between is no reason to refuse: read and decide again."""
    info = store.read_info(match_id)
    if info is None:
        raise MatchError("not_found", _("There is no such match."))
    for _attempt in range(5):
        snapshot = store.read_snapshot(info)
        move = decide(info, snapshot, timing.now_ms())
        with transaction.atomic():
            outcome = store.write(move)
            if outcome == store.WRITTEN and on_commit is not None:
                transaction.on_commit(lambda: on_commit(match_id))
        if outcome == store.WRITTEN:
            return Applied(move.applied, move.events, False)
    raise MatchError("conflict", _("The match is moving fast; try again."))


def resign(user, match_id: int, on_commit: OnCommit | None = None) -> Applied:
    def decide(info, snapshot, now):
        seat = seating.check_resign(domain.table(info, snapshot), user.pk)
        return domain.hand_to_bot(info, snapshot, seat, seating.RESIGNED, now)

    return _seat_change(match_id, user, decide, on_commit)


def abort(user, match_id: int, on_commit: OnCommit | None = None) -> Applied:
    def decide(info, snapshot, now):
        seat = seating.check_abort(domain.table(info, snapshot), user.pk)
        return domain.abort(info, snapshot, seat, now)

    return _seat_change(match_id, user, decide, on_commit)


def reclaim(user, match_id: int, on_commit: OnCommit | None = None) -> Applied:
    def decide(info, snapshot, now):
        seat = seating.check_reclaim(domain.table(info, snapshot), user.pk)
        return domain.give_back(info, snapshot, seat, now)

    return _seat_change(match_id, user, decide, on_commit)


def takeover(user, match_id: int, target, on_commit: OnCommit | None = None) -> Applied:
    def decide(info, snapshot, now):
        asked = domain.public_asked(info.engine, snapshot.state)
        started = snapshot.clock["started"] if snapshot.clock else []
        turn_started = started[target] if isinstance(target, int) and 0 <= target < len(started) else None
        absent = absence_ms(store.read_seen(match_id), target, turn_started, now)
        by = seating.check_takeover(domain.table(info, snapshot), user.pk, target, asked, absent,
                                    settings.ABSENT_GRACE_S * 1000)
        return domain.hand_to_bot(info, snapshot, target, seating.TAKEOVER, now, by=by)

    return _seat_change(match_id, user, decide, on_commit)


def absence_ms(seen: list, seat, turn_started: int | None, now: int) -> int | None:
    """How long `seat` has been asked with no open connection (None: connected,
    or not asked).  `seen` per seat (store.write_seen): a positive stamp when a
    process last vouched for an open connection, which every process holding
    one renews each presence interval; a negative one when its last
    connection closed.  A positive stamp older than SEEN_STALE_INTERVALS
    intervals means the process that held it died."""
    if not isinstance(seat, int) or not 0 <= seat < len(seen) or seen[seat] is None:
        return None
    stamp = seen[seat]
    if stamp > 0 and now - stamp < SEEN_STALE_INTERVALS * settings.MATCH_PRESENCE_INTERVAL * 1000:
        return None
    return seating.absent_ms(now, turn_started, abs(stamp))


# Heartbeats are not in step across processes and a busy loop delays its own.
SEEN_STALE_INTERVALS = 2.5
